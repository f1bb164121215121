/** `template …`: prompt templates and word lists (template-args.ts reads, template-commands.ts runs). */
import { common } from './common-args';
import { runOnService } from './commands';
import { declareLibraryCommand } from './library-command';
import { TEMPLATE_HELP, parseTemplateCommand, type TemplateCommandLine } from './template-args';
import { templateCommand } from './template-commands';

export const template = declareLibraryCommand({
  name: 'template',
  help: TEMPLATE_HELP.template,
  own: ['body', 'body-file', 'negative', 'format', 'json'],
  parse: ({ values, positionals }, env) => {
    return parseTemplateCommand(positionals, values, common(values, env));
  },
  run: (command: TemplateCommandLine, io) =>
    runOnService(command, io, ({ core }) => templateCommand(core, command, io)),
});
