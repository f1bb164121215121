/**
 * The trash (core/trash) over a core, for handler tests: a journal in a fresh temporary folder
 * and a system trash that records what it is given (and removes it, as the real one would).
 */
import { rm } from 'node:fs/promises';
import { TrashJournal } from '../../electron/core/trash/trash-journal';
import {
  TrashOperations,
  type TrashOperationsOptions,
} from '../../electron/core/trash/trash-operations';
import { tempFolderSync } from './temp-folders';

export interface TrashFixture {
  readonly trash: TrashOperations;
  readonly journalDir: string;
  /** Files sent to the system trash, in order. */
  readonly systemTrashed: string[];
}

export function trashFixture(
  core: TrashOperationsOptions['core'],
  options: Partial<Omit<TrashOperationsOptions, 'core' | 'journal'>> & { journalDir?: string } = {},
): TrashFixture {
  const journalDir = options.journalDir ?? tempFolderSync('trash-journal');
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
