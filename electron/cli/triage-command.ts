/**
 * The triage commands: `rate`, `flag`, `tag`, `board`, `write-metadata`, `purge-rejected` and
 * `smart` (triage-args.ts reads them, triage-commands.ts runs them on the library).
 */
import { common } from './common-args';
import { runOnService } from './commands';
import { libraryCommandFamily } from './library-command';
import { TRIAGE_HELP, parseTriageCommand, type TriageCommandLine } from './triage-args';
import { triageCommand } from './triage-commands';

const triage = libraryCommandFamily({
  help: TRIAGE_HELP,
  /** Each triage command's options besides those of its help's groups. */
  own: {
    rate: [],
    flag: [],
    tag: [],
    board: [],
    'write-metadata': [],
    'purge-rejected': ['board', 'yes'],
    smart: ['rating', 'flag', 'board', 'tag', 'unfiled', 'match'],
  },
  parse: (name, { values, positionals }, env): TriageCommandLine => {
    const shared = common(values, env);
    return { ...parseTriageCommand(name, positionals, values), common: shared };
  },
  run: (command: TriageCommandLine, io) =>
    runOnService(command, io, ({ core }) => triageCommand(core, command, io)),
});

export const rate = triage('rate');
export const flag = triage('flag');
export const tag = triage('tag');
export const board = triage('board');
export const writeMetadata = triage('write-metadata');
export const purgeRejected = triage('purge-rejected');
export const smart = triage('smart');
