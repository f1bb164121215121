/**
 * A task's request as a newer Pictor wrote it at this schema: fields this version does not know
 * inside the request (a setting a later release sends). On a real history file, this version's
 * writes of the task keep them (a downgrade and back loses nothing the newer one kept in the
 * request), beside the record's own unknown fields, as newer-record-fields.test.ts proves for
 * those. Controls: a request field this version knows is the new record's alone (one it leaves
 * out stays out), and a record without unknown fields is written as given.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, type HistoryStore } from '../../../electron/core/history/history-store';
import { makeTaskRecord } from '../../support/task-records';
import { withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempFolder('newer-nested');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  file = join(dir, 'data', HISTORY_FILE);
});
afterEach(async () => {
  await removeFolder(dir);
});

/** The test's history file, opened for `work` (tests/support/history-file.ts). */
const withStore = <T>(work: (store: HistoryStore) => T): T => withHistoryFile(file, work);

/** The stored record of `localId`, parsed; `sql` first run on the file when given. */
function storedRecord(localId: string, sql?: string): Record<string, unknown> {
  const db = new DatabaseSync(file);
  try {
    if (sql) db.prepare(sql).run(localId);
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    return JSON.parse(String(row?.['record'])) as Record<string, unknown>;
  } finally {
    db.close();
  }
}

const NEWER_REQUEST = { futureStrength: 0.7, futureStyle: { preset: 'noir', layers: [1, 2] } };

describe('a request a newer Pictor wrote', () => {
  it('keeps its unknown fields through this version’s writes', () => {
    const record = makeTaskRecord({ localId: 'task' });
    withStore((store) => store.put(record));
    storedRecord(
      'task',
      `UPDATE tasks SET record = json_set(record,
         '$.request.futureStrength', 0.7,
         '$.request.futureStyle', json('{"preset":"noir","layers":[1,2]}'),
         '$.futureTop', 'kept') WHERE local_id = ?`,
    );
    withStore((store) => {
      store.put({ ...record, updatedAt: record.updatedAt + 1, status: 'completed' });
      store.put({
        ...record,
        updatedAt: record.updatedAt + 2,
        request: { ...record.request, prompt: 'changed here' },
      });
    });
    const after = storedRecord('task');
    expect(after['request']).toMatchObject({ ...NEWER_REQUEST, prompt: 'changed here' });
    expect(after['futureTop']).toBe('kept');
  });

  it('a known field left out stays out; a record without unknown fields is written as given', () => {
    const record = makeTaskRecord({
      localId: 'task',
      request: { ...makeTaskRecord().request, quality: 'high' },
    });
    withStore((store) => store.put(record));
    storedRecord(
      'task',
      `UPDATE tasks SET record = json_set(record, '$.request.futureStrength', 0.7)
       WHERE local_id = ?`,
    );
    const { quality: _, ...withoutQuality } = record.request;
    withStore((store) => store.put({ ...record, request: withoutQuality }));
    expect(storedRecord('task')['request']).toEqual({ ...withoutQuality, futureStrength: 0.7 });

    const plain = makeTaskRecord({ localId: 'plain' });
    withStore((store) => {
      store.put(plain);
      store.put({ ...plain, updatedAt: plain.updatedAt + 1 });
    });
    expect(storedRecord('plain')['request']).toEqual(plain.request);
  });
});
