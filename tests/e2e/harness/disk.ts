/**
 * What the disk holds after a journey: fresh folders for one test, the history read back from
 * its database (open only after the app closed: the data folder is locked while it runs), and
 * the files of the gallery folder.
 */
import { join, relative, sep } from 'node:path';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { filesUnder } from '../../support/files';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** A fresh userDataDir and galleryDir under one temp folder; `remove()` deletes it all. */
export interface AppFolders {
  readonly root: string;
  readonly userDataDir: string;
  readonly galleryDir: string;
  remove(): Promise<void>;
}

export async function makeAppFolders(label = 'app'): Promise<AppFolders> {
  const root = await tempFolder(`e2e-${label}`);
  return {
    root,
    userDataDir: join(root, 'user-data'),
    galleryDir: join(root, 'gallery'),
    remove: () => removeFolder(root),
  };
}

/** Every task record in the history, newest first. Call after `app.close()`. */
export function readHistory(userDataDir: string): TaskRecord[] {
  const history = HistoryStore.open(join(userDataDir, HISTORY_FILE));
  try {
    const records: TaskRecord[] = [];
    let cursor: string | null = null;
    do {
      const page = history.list({ limit: 500, cursor });
      records.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return records;
  } finally {
    history.close();
  }
}

/** Every file under `dir`, as '/'-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  return (await filesUnder(dir, { missing: 'empty' }))
    .map((file) => relative(dir, file).split(sep).join('/'))
    .sort();
}
