/**
 * The triage commands: `rate`, `flag`, `tag`, `board`, `write-metadata`, `purge-rejected` and
 * `smart` (triage-args.ts reads them). `rate`, `flag` and `tag` run on the library alone
 * (triage-apply.ts, library-triage.ts), the others on the whole core (triage-commands.ts).
 */
import { common } from './common-args';
import type { CliIo } from './cli-io';
import { libraryCommandFamily } from './library-command';
import { changeLibraryTriage } from './library-triage';
import { applyImageTriage, isImageTriage } from './triage-apply';
import { TRIAGE_HELP, parseTriageCommand, type TriageCommandLine } from './triage-args';

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
    isImageTriage(command)
      ? changeLibraryTriage(command.common, io, (library) => applyImageTriage(library, command, io))
      : onWholeCore(command, io),
});

/**
 * The boards, the sidecars' rewrite, the purge and the smart boards on the whole core (loaded
 * here, when one of them runs: `rate`, `flag` and `tag` open the library alone).
 */
async function onWholeCore(command: TriageCommandLine, io: CliIo): Promise<number> {
  const [{ runOnService }, { triageCommand }] = await Promise.all([
    import('./commands'),
    import('./triage-commands'),
  ]);
  return runOnService(command, io, ({ core }) => triageCommand(core, command, io));
}

export const rate = triage('rate');
export const flag = triage('flag');
export const tag = triage('tag');
export const board = triage('board');
export const writeMetadata = triage('write-metadata');
export const purgeRejected = triage('purge-rejected');
export const smart = triage('smart');
