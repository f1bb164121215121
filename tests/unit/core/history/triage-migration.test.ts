/**
 * History v10 (triage-schema.ts) on a library written by v9: its stars are picks at once (the
 * images' flag column), its records unchanged, and rating, tag and board filters work on it.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { makeImage, makeTask } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let dir: string;

afterEach(async () => {
  await removeFolder(dir);
});

describe('history v10', () => {
  it('takes a v9 library’s stars as picks without rewriting a record', async () => {
    dir = await tempFolder('v10');
    const file = join(dir, 'history.sqlite');
    const old = HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, 9) });
    const starred = makeTask({
      localId: 'starred',
      images: [makeImage(0, { favourite: true }), makeImage(1)],
      favourite: true,
    });
    old.putMany([starred, makeTask({ localId: 'plain', images: [makeImage(0)] })]);
    old.close();
    const before = new DatabaseSync(file).prepare('SELECT record FROM tasks WHERE local_id = ?');
    const recordBefore = before.get('starred')?.['record'];

    const store = HistoryStore.open(file);
    try {
      expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
      const picks = store.listImages({ flag: 'pick' }).items;
      expect(picks.map((item) => `${item.localId}#${String(item.index)}`)).toEqual(['starred#0']);
      expect(store.listImages({ flag: 'none' }).items).toHaveLength(2);
      expect(store.listImages({ rating: { op: '>=', value: 1 } }).items).toHaveLength(0);
      expect(store.listImages({ unfiled: true }).items).toHaveLength(3);
      const after = new DatabaseSync(file).prepare('SELECT record FROM tasks WHERE local_id = ?');
      expect(after.get('starred')?.['record']).toBe(recordBefore);
    } finally {
      store.close();
    }
  });
});
