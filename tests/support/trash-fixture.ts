/**
 * The trash (core/trash) over a core, for handler tests: a journal in a folder the caller owns
 * and a system trash that records what it is given (and removes it, as the real one would).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TrashJournal } from '../../electron/core/trash/trash-journal';
import {
  TrashOperations,
  type TrashOperationsOptions,
} from '../../electron/core/trash/trash-operations';

export interface TrashFixture {
  readonly trash: TrashOperations;
  readonly journalDir: string;
  /** Files sent to the system trash, in order. */
  readonly systemTrashed: string[];
}

/**
 * The trash over `core`, its journal in `folder`'s `trash-journal` (made by the journal itself
 * when it first writes, private, as the core's is in its data folder). `folder` is the caller's
 * and goes with it (a core harness's own folder): the fixture makes no folder of its own. It made
 * one in the OS's temporary folder when none was named, and nothing removed it: every suite run
 * left some fifty `pictor-trash-journal-*` behind.
 */
export function trashFixture(
  core: TrashOperationsOptions['core'],
  folder: string,
  options: Partial<Omit<TrashOperationsOptions, 'core' | 'journal'>> = {},
): TrashFixture {
  const journalDir = join(folder, 'trash-journal');
  const systemTrashed: string[] = [];
  const trash = new TrashOperations({
    journal: new TrashJournal(journalDir),
    core,
    sendToSystemTrash:
      options.sendToSystemTrash ??
      (async (file) => {
        systemTrashed.push(file);
        await rm(file);
      }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.keepMs === undefined ? {} : { keepMs: options.keepMs }),
  });
  return { trash, journalDir, systemTrashed };
}
