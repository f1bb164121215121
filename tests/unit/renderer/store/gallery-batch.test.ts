/** The gallery's loaded images after a batch of task changes (renderer/store/gallery-batch.ts). */
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  galleryChanges,
  imagesAfterBatch,
  type GalleryPlace,
} from '../../../../renderer/store/gallery-batch';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import { BASE_TIME, galleryItems, savedImage, taskRecord } from '../gallery/gallery-builders';

const keys = (items: readonly { localId: string; index: number }[]): string[] => items.map(itemKey);

const place = (hasMore: boolean, filtered = false): GalleryPlace => ({ filtered, hasMore });

/** One task's change alone; with `held`, the images of it main says the gallery holds. */
const merge = (
  items: ReturnType<typeof galleryItems>,
  record: TaskRecord,
  where: GalleryPlace,
  held?: readonly number[],
) =>
  imagesAfterBatch(
    items,
    galleryChanges([record], new Set(), new Map(held ? [[record.localId, held]] : [])),
    where,
  );

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

  it('skips new images main does not name, and ones that belong to a page not loaded yet', () => {
    const record = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)], { prompt: 'A cat' });
    expect(merge(items, record, place(true, true), []).changed).toBe(false);
    // Unsaid (a change the page made itself): into a filtered list, nothing joins.
    expect(merge(items, record, place(true, true)).changed).toBe(false);
    expect(merge(items, record, place(true, true), [0]).added).toBe(1);
    const old = taskRecord('task-old', BASE_TIME - 10 * 60_000, [savedImage(0)]);
    expect(merge(items, old, place(true)).changed).toBe(false);
    expect(merge(items, old, place(false)).items.at(-1)!.localId).toBe('task-old');
  });

  it('lists the images of a task starred before they arrived as favourites (one favourite)', () => {
    const starred = {
      ...taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0), savedImage(1)]),
      favourite: true,
    };
    const merged = merge(items, starred, place(false, true), [0, 1]);
    expect(merged.added).toBe(2);
    expect(merged.items.slice(0, 2).map((item) => item.image.favourite)).toEqual([true, true]);
    // Unstarred under "favourites only": main names none of its images.
    const plain = taskRecord('task-new', BASE_TIME + 1_000, [savedImage(0)]);
    expect(merge(items, plain, place(false, true), []).changed).toBe(false);
  });

  it('takes out a loaded image main no longer names (it left the filtered view), live', () => {
    const target = items[1]!;
    const unrated = taskRecord(target.localId, target.createdAt, [savedImage(0)]);
    const merged = merge(items, unrated, place(false, true), []);
    expect(keys(merged.items)).not.toContain(itemKey(target));
    expect(merged.items).toHaveLength(4);
    // Still named: it stays, brought up to date where it is.
    const rated = taskRecord(target.localId, target.createdAt, [savedImage(0, { rating: 5 })]);
    const kept = merge(items, rated, place(false, true), [0]);
    expect(keys(kept.items)).toEqual(keys(items));
    expect(kept.items[1]!.image.rating).toBe(5);
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
