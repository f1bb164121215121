/**
 * A task's `pictor.json` a newer Pictor wrote with fields this version does not know INSIDE its
 * record's request and images (newer-sidecar-fields.test covers the file's and the record's own).
 * The gallery's sidecar write (Gallery.writeSidecar: every change of a task) kept only the
 * top-level ones and dropped these, while the history's writes keep them (history-statements.ts
 * RECORD_KEEPING_UNKNOWN): one rule now. The request's go into the new request; an image's into
 * the new image of the same `index`, whatever the list's order; an image the write no longer has
 * takes its fields with it; a field this version knows is the new record's alone (one the new
 * record leaves out stays out). The file stays readable by this version's reader.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let root: string;
beforeEach(async () => {
  root = await tempFolder('newer-nested');
});
afterEach(async () => {
  await removeFolder(root);
});

/** An image that was never saved: no file, so no XMP file goes beside it. */
const expired = (index: number): ImageRecord => {
  const { file: _file, thumbnail: _thumbnail, savedAt: _savedAt, ...image } = makeImage(index);
  return { ...image, state: 'expired' };
};

type Json = Record<string, unknown> & {
  record: Record<string, unknown> & {
    request: Record<string, unknown>;
    images: Record<string, unknown>[];
  };
};

it("keeps a newer Pictor's request and image fields through this version's writes", async () => {
  const gallery = new Gallery({ root });
  const record: TaskRecord = makeTaskRecord({
    localId: 'nested-newer',
    images: [expired(0), expired(1), { ...expired(2), rating: 4 }],
  });
  await gallery.writeSidecar(record);
  const path = join(root, gallery.folderFor(record), 'pictor.json');
  // The newer Pictor's fields, as it wrote them.
  const json = JSON.parse(await readFile(path, 'utf8')) as Json;
  json.record.request['futureHint'] = { strength: 0.4 };
  json.record.images[0]!['futureScore'] = 10;
  json.record.images[1]!['futureScore'] = 11;
  json.record.images[2]!['futureScore'] = 12;
  json.record['futureCount'] = 3;
  await writeFile(path, JSON.stringify(json, null, 2));

  // This version writes the task again: its images in another order, one gone, a rating left out.
  const next: TaskRecord = {
    ...record,
    request: { ...record.request, size: '512x512' },
    images: [expired(2), expired(0)],
  };
  await gallery.writeSidecar(next);
  const written = JSON.parse(await readFile(path, 'utf8')) as Json;
  expect(written.record['futureCount']).toBe(3);
  expect(written.record.request).toMatchObject({
    size: '512x512',
    futureHint: { strength: 0.4 },
  });
  expect(written.record.images.map((image) => [image['index'], image['futureScore']])).toEqual([
    [2, 12],
    [0, 10],
  ]);
  // A known field the new record leaves out stays out; the image gone took its fields.
  expect(written.record.images[0]).not.toHaveProperty('rating');
  expect(JSON.stringify(written)).not.toContain('11');
  const read = parseSidecar(await readFile(path, 'utf8'));
  expect(read.ok && read.record.images.map((image) => image.index)).toEqual([2, 0]);
});
