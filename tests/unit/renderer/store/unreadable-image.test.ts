/**
 * A task record the page cannot read, held in the records table (renderer/store/record-selectors.ts,
 * unreadable-image.ts): each gallery image of it is a stand-in that says why, in its place, and
 * the gallery's images of readable records are built as ever; a batch of task updates passes
 * over it (gallery-batch.ts) instead of building images from it.
 */
import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../../shared/ipc/contract';
import { galleryChanges } from '../../../../renderer/store/gallery-batch';
import { galleryItemAt } from '../../../../renderer/store/record-selectors';
import type { RecordsTable } from '../../../../renderer/store/records-table';
import { imageProblem } from '../../../../renderer/store/unreadable-image';
import { makeImage, makeTask } from '../../../support/task-records';

const readable = makeTask({ localId: 'fine', images: [makeImage(0), makeImage(1)] });

/** Damage a record can carry past the contract. */
const DAMAGE: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['images that are not a list', { images: null }],
  ['an image that is not an image', { images: [null, makeImage(1)] }],
  ['createdAt 1e16', { createdAt: 1e16 }],
  ['a prompt that is not text', { request: { prompt: { html: '<b>' } } }],
  ['no request at all', { request: undefined }],
];

describe('an unreadable record in the records table', () => {
  it.each(DAMAGE)('stands in for each of its images, saying why (%s)', (_what, patch) => {
    const damaged = { ...makeTask({ localId: 'bad', images: [makeImage(0)] }), ...patch };
    const table: RecordsTable = new Map<string, TaskItem>([
      ['fine', { record: readable, live: null }],
      ['bad', { record: damaged } as unknown as TaskItem],
    ]);
    for (const index of [0, 1]) {
      const standIn = galleryItemAt(table, { localId: 'bad', index });
      expect(standIn).toMatchObject({ localId: 'bad', index });
      expect(imageProblem(standIn!)).toMatch(/\S/);
      // The same stand-in while the record is the same (the grid draws nothing new).
      expect(galleryItemAt(table, { localId: 'bad', index })).toBe(standIn);
    }
    const fine = galleryItemAt(table, { localId: 'fine', index: 1 });
    expect(fine).toMatchObject({ localId: 'fine', index: 1, prompt: readable.request.prompt });
    expect(imageProblem(fine!)).toBeUndefined();
    expect(galleryItemAt(table, { localId: 'fine', index: 5 })).toBeUndefined();

    const changes = galleryChanges([readable, damaged as typeof readable]);
    expect([...changes.records.keys()]).toEqual(['fine']);
  });
});
