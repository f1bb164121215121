/** The gallery's loaded images after a batch of task changes (renderer/store/gallery-batch.ts). */
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  galleryChanges,
  imagesAfterBatch,
  type GalleryPlace,
} from '../../../../renderer/store/gallery-batch';
import { EMPTY_GALLERY_FILTERS, itemKey } from '../../../../renderer/store/gallery-list-model';
import { BASE_TIME, galleryItems, savedImage, taskRecord } from '../gallery/gallery-builders';

const keys = (items: readonly { localId: string; index: number }[]): string[] => items.map(itemKey);

const place = (hasMore: boolean, filters = EMPTY_GALLERY_FILTERS): GalleryPlace => ({
  filters,
  hasMore,
});

/** One task's change alone. */
const merge = (items: ReturnType<typeof galleryItems>, record: TaskRecord, where: GalleryPlace) =>
  imagesAfterBatch(items, galleryChanges([record]), where);

describe('one task', () => {
  const items = galleryItems(5);

  it('puts a new task’s images at the top, in order', () => {
    const record = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0), savedImage(1)]);
    const merged = merge(items, record, place(true));
    expect(merged.added).toBe(2);
    expect(keys(merged.items).slice(0, 3)).toEqual([
      'task-new/0',
      'task-new/1',
      itemKey(items[0]!),
    ]);
  });

  it('updates known images in place and drops deleted ones', () => {
    const target = items[2]!;
    const record = taskRecord(target.localId, target.createdAt, [
      savedImage(0, { state: 'deleted' }),
    ]);
    const merged = merge(items, record, place(false));
    expect(keys(merged.items)).not.toContain(itemKey(target));
    expect(merged.items).toHaveLength(4);

    const favourite = taskRecord(target.localId, target.createdAt, [
      savedImage(0, { favourite: true }),
    ]);
    const updated = merge(items, favourite, place(false));
    expect(updated.items[2]!.image.favourite).toBe(true);
    expect(updated.added).toBe(0);
  });

  it('skips new images the filters exclude, and ones that belong to a page not loaded yet', () => {
    const record = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)], { prompt: 'A cat' });
    expect(
      merge(items, record, place(true, { ...EMPTY_GALLERY_FILTERS, search: 'dog' })).changed,
    ).toBe(false);
    const old = taskRecord('task-old', BASE_TIME - 10 * 60_000, [savedImage(0)]);
    expect(merge(items, old, place(true)).changed).toBe(false);
    expect(merge(items, old, place(false)).items.at(-1)!.localId).toBe('task-old');
  });

  it('lists the images of a task starred before they arrived as favourites (one favourite)', () => {
    const starred = {
      ...taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0), savedImage(1)]),
      favourite: true,
    };
    const favouritesOnly = { ...EMPTY_GALLERY_FILTERS, favouriteOnly: true };
    const merged = merge(items, starred, place(false, favouritesOnly));
    expect(merged.added).toBe(2);
    expect(merged.items.slice(0, 2).map((item) => item.image.favourite)).toEqual([true, true]);
    // Unstarred, its images are not favourites either.
    const plain = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)]);
    expect(merge(items, plain, place(false, favouritesOnly)).changed).toBe(false);
  });
});

describe('a batch', () => {
  const items = galleryItems(6);

  it('applies updates, removals and new images of many tasks in one pass', () => {
    const starred = taskRecord(items[1]!.localId, items[1]!.createdAt, [
      savedImage(0, { favourite: true }),
    ]);
    const fresh = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)]);
    const removed = new Set([items[3]!.localId, items[4]!.localId]);
    const merged = imagesAfterBatch(items, galleryChanges([starred, fresh], removed), place(true));
    expect(keys(merged.items)).toEqual([
      'task-new/0',
      itemKey(items[0]!),
      itemKey(items[1]!),
      itemKey(items[2]!),
      itemKey(items[5]!),
    ]);
    expect(merged.items[2]!.image.favourite).toBe(true);
    expect(merged).toMatchObject({ added: 1, changed: true });
    // Nothing it was given changed.
    expect(items).toHaveLength(6);
    expect(items[1]!.image.favourite).toBe(false);
  });

  it('costs nothing for tasks without images (polls of running tasks): the same list back', () => {
    const running = [0, 1, 2].map((n) => ({
      ...taskRecord(`task-running-${n}`, BASE_TIME + n, []),
      status: 'processing' as const,
    }));
    const merged = imagesAfterBatch(items, galleryChanges(running), place(true));
    expect(merged.items).toBe(items);
    expect(merged.changed).toBe(false);
  });

  it('in a page loaded by position, updates and drops images but adds none', () => {
    const deleted = taskRecord(items[0]!.localId, items[0]!.createdAt, [
      savedImage(0, { state: 'deleted' }),
    ]);
    const fresh = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)]);
    const page = items.slice(0, 3);
    const merged = imagesAfterBatch(
      page,
      galleryChanges([deleted, fresh], new Set([items[2]!.localId])),
    );
    expect(keys(merged.items)).toEqual([itemKey(items[1]!)]);
    expect(merged.added).toBe(0);
  });
});
