/**
 * The triage commands: `rate`, `flag`, `tag`, `board`, `write-metadata`, `purge-rejected` and
 * `smart` (triage-args.ts reads them, triage-commands.ts runs them on the library).
 */
import { optionsOf, readOptions, type OptionName } from './cli-args';
import { declareCommand, type CliCommand } from './command-declaration';
import { common } from './common-args';
import { runOnService } from './commands';
import { TRIAGE_HELP, parseTriageCommand, type TriageCommandLine } from './triage-args';
import { triageCommand } from './triage-commands';

/** Each triage command's options besides those of its help's groups. */
const OWN_OPTIONS: Readonly<Record<keyof typeof TRIAGE_HELP, readonly OptionName[]>> = {
  rate: [],
  flag: [],
  tag: [],
  board: [],
  'write-metadata': [],
  'purge-rejected': ['board', 'yes'],
  smart: ['rating', 'flag', 'board', 'tag', 'unfiled', 'match'],
};

function triage(name: keyof typeof TRIAGE_HELP): CliCommand {
  const options = optionsOf(TRIAGE_HELP[name], OWN_OPTIONS[name]);
  return declareCommand({
    help: TRIAGE_HELP[name],
    options,
    parse: (args, env): TriageCommandLine => {
      const { values, positionals } = readOptions(name, args, options);
      const shared = common(values, env);
      return { ...parseTriageCommand(name, positionals, values), common: shared };
    },
    run: (command: TriageCommandLine, io) =>
      runOnService(command, io, ({ core }) => triageCommand(core, command, io)),
  });
}

export const rate = triage('rate');
export const flag = triage('flag');
export const tag = triage('tag');
export const board = triage('board');
export const writeMetadata = triage('write-metadata');
export const purgeRejected = triage('purge-rejected');
export const smart = triage('smart');
