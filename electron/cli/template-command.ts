/** `template …`: prompt templates and word lists (template-args.ts reads, template-commands.ts runs). */
import { optionsOf, readOptions } from './cli-args';
import { declareCommand } from './command-declaration';
import { common } from './common-args';
import { runOnService } from './commands';
import { TEMPLATE_HELP, parseTemplateCommand, type TemplateCommandLine } from './template-args';
import { templateCommand } from './template-commands';

const OPTIONS = optionsOf(TEMPLATE_HELP.template, [
  'body',
  'body-file',
  'negative',
  'format',
  'json',
]);

export const template = declareCommand({
  help: TEMPLATE_HELP.template,
  options: OPTIONS,
  parse: (args, env) => {
    const { values, positionals } = readOptions('template', args, OPTIONS);
    return parseTemplateCommand(positionals, values, common(values, env));
  },
  run: (command: TemplateCommandLine, io) =>
    runOnService(command, io, ({ core }) => templateCommand(core, command, io)),
});
