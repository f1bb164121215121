/**
 * A task's images as a newer Pictor wrote them at this schema: fields this version does not know
 * inside an image (a later release's note on a picture). On a real history file, this version's
 * writes of the task keep each image's unknown fields on the image of the same `index`, whatever
 * the new list's order, beside the record's and the request's own (newer-record-fields and
 * newer-nested-fields). Controls: an image this write no longer has takes its fields with it, a
 * known field the write leaves out stays out, a stored list of odd entries (no object, no index,
 * an index given twice) neither fails the write nor adds an image, and a record without unknown
 * fields is written as given.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, type HistoryStore } from '../../../electron/core/history/history-store';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempFolder('newer-images');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  file = join(dir, 'data', HISTORY_FILE);
});
afterEach(async () => {
  await removeFolder(dir);
});

const withStore = <T>(work: (store: HistoryStore) => T): T => withHistoryFile(file, work);

/** The stored record text of `localId`; `sql` (bound to the id) first run on the file. */
function storedText(localId: string, sql?: string): string {
  const db = new DatabaseSync(file);
  try {
    if (sql) db.prepare(sql).run(localId);
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    return String(row?.['record']);
  } finally {
    db.close();
  }
}
const storedImages = (localId: string, sql?: string) =>
  (JSON.parse(storedText(localId, sql)) as { images: Record<string, unknown>[] }).images;

const NOTE = { futureNote: { by: 'newer', marks: [1, 2] } };

describe('an image a newer Pictor wrote', () => {
  it('keeps its unknown fields on the image of its index through this version’s writes', () => {
    const record = makeTaskRecord({ localId: 'task', images: [makeImage(0), makeImage(1)] });
    withStore((store) => store.put(record));
    storedImages(
      'task',
      `UPDATE tasks SET record = json_set(record,
         '$.images[0].futureNote', json('{"by":"newer","marks":[1,2]}'),
         '$.images[1].futureScore', 7,
         '$.futureTop', 'kept') WHERE local_id = ?`,
    );
    withStore((store) => {
      // The engine's write: an image's state changes, one more image, the list in another order.
      store.put({
        ...record,
        updatedAt: record.updatedAt + 1,
        images: [makeImage(2), makeImage(1, { favourite: true }), makeImage(0, { width: 512 })],
      });
      store.put({ ...record, updatedAt: record.updatedAt + 2, request: { prompt: 'changed' } });
    });
    const images = storedImages('task');
    expect(images.map((image) => image['index'])).toEqual([0, 1]);
    expect(images[0]).toMatchObject({ ...NOTE, width: 1024 });
    expect(images[1]).toMatchObject({ futureScore: 7, favourite: false });
    expect(JSON.parse(storedText('task'))).toMatchObject({ futureTop: 'kept' });

    withStore((store) =>
      store.put({
        ...record,
        updatedAt: record.updatedAt + 3,
        images: [makeImage(1), makeImage(0), makeImage(2)],
      }),
    );
    const reordered = storedImages('task');
    expect(reordered.map((image) => image['index'])).toEqual([1, 0, 2]);
    expect(reordered[0]).toMatchObject({ futureScore: 7 });
    expect(reordered[1]).toMatchObject(NOTE);
    expect(reordered[2]).toEqual(makeImage(2));
    expect(withStore((store) => store.get('task'))?.images).toEqual([
      makeImage(1),
      makeImage(0),
      makeImage(2),
    ]);
  });

  it('an image left out takes its fields; a known field left out stays out', () => {
    const record = makeTaskRecord({
      localId: 'task',
      images: [makeImage(0, { xmpFile: 'task/0.xmp' }), makeImage(1)],
    });
    withStore((store) => store.put(record));
    storedImages(
      'task',
      `UPDATE tasks SET record = json_set(record, '$.images[0].futureScore', 1,
         '$.images[1].futureScore', 2) WHERE local_id = ?`,
    );
    const { xmpFile: _, ...withoutXmp } = makeImage(0);
    withStore((store) => store.put({ ...record, images: [withoutXmp] }));
    expect(storedImages('task')).toEqual([{ ...withoutXmp, futureScore: 1 }]);
  });

  it('odd stored entries neither fail the write nor add an image; a plain record is written as given', () => {
    const record = makeTaskRecord({ localId: 'odd', images: [makeImage(0), makeImage(1)] });
    withStore((store) => store.put(record));
    storedImages(
      'odd',
      `UPDATE tasks SET record = json_set(record, '$.images', json('[
         "text", 5, null, [1], {"futureScore": 1},
         {"index": 0, "futureScore": 2}, {"index": 0, "futureScore": 3},
         {"index": "1", "futureScore": 4}]')) WHERE local_id = ?`,
    );
    withStore((store) => store.put({ ...record, updatedAt: record.updatedAt + 1 }));
    expect(storedImages('odd')).toEqual([{ ...makeImage(0), futureScore: 2 }, makeImage(1)]);

    const plain = makeTaskRecord({ localId: 'plain', images: [makeImage(0)] });
    withStore((store) => {
      store.put(plain);
      store.put({ ...plain, updatedAt: plain.updatedAt + 1, images: [makeImage(0), makeImage(1)] });
    });
    const written = {
      ...plain,
      updatedAt: plain.updatedAt + 1,
      images: [makeImage(0), makeImage(1)],
    };
    expect(storedText('plain')).toBe(JSON.stringify(written));
  });
});
