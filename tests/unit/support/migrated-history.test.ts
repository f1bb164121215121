/**
 * tests/support/migrated-history.ts: a new history copied from one migrated once, and nothing of
 * that once left behind. Its template's folder used to be removed at the process's exit, an event
 * a vitest worker thread never sees: every thread of a run left one in the OS's temporary folder.
 */
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, HistoryStore } from '../../../electron/core/history/history-store';
import { copyMigratedHistory } from '../../support/migrated-history';
import { TempFolders } from '../../support/temp-folders';

const folders = new TempFolders();
afterEach(() => folders.removeAll());

const templates = (): Set<string> =>
  new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('pictor-migrated-history-')));

describe('copyMigratedHistory', () => {
  it('writes a history that opens, and leaves no folder of its template behind', async () => {
    const before = templates();
    const dir = await folders.make('migrated-copy');
    const first = join(dir, 'first.sqlite');
    const second = join(dir, HISTORY_FILE);
    copyMigratedHistory(first);
    copyMigratedHistory(second);
    const added = [...templates()].filter((name) => !before.has(name));
    expect(added).toEqual([]);
    expect(statSync(first).size).toBe(statSync(second).size);
    const store = HistoryStore.open(second);
    try {
      expect(store.count()).toBe(0);
    } finally {
      store.close();
    }
  });
});
