/**
 * The loaded images' key index (renderer/store/gallery-keys.ts): shared across a batch that only
 * changes what images hold, rebuilt for any batch that drops or inserts one, and always equal to
 * the list it is read for.
 */
import { describe, expect, it } from 'vitest';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { selectedInOrder, type Selection } from '../../../../renderer/lib/selection';
import { galleryChanges, imagesAfterBatch } from '../../../../renderer/store/gallery-batch';
import { itemsAt, keyIndexOf } from '../../../../renderer/store/gallery-keys';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import { galleryItem, galleryItems, savedImage, taskRecord } from '../gallery/gallery-builders';
import { seededRandom } from '../../../support/seeded-random';

const place = { filtered: false, hasMore: false };

/** The record of the task `item` belongs to, with its images as `images`. */
const recordOf = (item: GalleryItem, images: ImageRecord[]): TaskRecord =>
  taskRecord(item.localId, item.createdAt, images);

/** The index as it should be for `items`, built afresh. */
function expectIndexTrue(items: readonly GalleryItem[]): void {
  const { order, placeOf } = keyIndexOf(items);
  expect(order).toEqual(items.map(itemKey));
  expect(placeOf.size).toBe(items.length);
  items.forEach((item, at) => expect(placeOf.get(itemKey(item))).toBe(at));
}

describe('the key index across a batch', () => {
  it('is the same object after a change to what one image holds (a rating)', () => {
    const items = galleryItems(50);
    const before = keyIndexOf(items);
    const target = items[20]!;
    const merged = imagesAfterBatch(
      items,
      galleryChanges([recordOf(target, [savedImage(0, { rating: 4 })])]),
      place,
    );
    expect(merged.items).not.toBe(items);
    expect(merged.items[20]!.image.rating).toBe(4);
    expect(keyIndexOf(merged.items)).toBe(before);
    expect(merged.placesKept).toBe(true);
    expectIndexTrue(merged.items);
  });

  it('is rebuilt when the batch drops an image or places a new one', () => {
    const items = galleryItems(10);
    const before = keyIndexOf(items);
    const deleted = imagesAfterBatch(
      items,
      galleryChanges([recordOf(items[3]!, [savedImage(0, { state: 'deleted' })])]),
      place,
    );
    expect(keyIndexOf(deleted.items)).not.toBe(before);
    expect(deleted.placesKept).toBe(false);
    expectIndexTrue(deleted.items);
    const newer = galleryItem({ n: -1 });
    const added = imagesAfterBatch(
      items,
      galleryChanges([recordOf(newer, [savedImage(0)])]),
      place,
    );
    expect(added.added).toBe(1);
    expect(added.placesKept).toBe(false);
    expectIndexTrue(added.items);
    const removed = imagesAfterBatch(
      items,
      galleryChanges([], new Set([items[0]!.localId])),
      place,
    );
    expectIndexTrue(removed.items);
  });

  it('always matches the list, over random batches of updates, deletes and new images', () => {
    for (let seed = 1; seed <= 60; seed += 1) {
      const random = seededRandom(seed);
      let items: GalleryItem[] = Array.from({ length: 30 }, (_, n) =>
        Array.from({ length: 1 + random(3) }, (_, index) => galleryItem({ n: n * 2, index })),
      ).flat();
      keyIndexOf(items);
      for (let round = 0; round < 8; round += 1) {
        const records: TaskRecord[] = [];
        const removed = new Set<string>();
        for (let pick = 0; pick < 1 + random(4); pick += 1) {
          const item = items[random(items.length)];
          if (!item) break;
          const kind = random(4);
          if (kind === 0) removed.add(item.localId);
          const images = items
            .filter((other) => other.localId === item.localId)
            .map((other) =>
              savedImage(other.index, {
                rating: random(6),
                state: kind === 1 && random(2) === 0 ? 'deleted' : 'saved',
              }),
            );
          if (kind === 2) images.push(savedImage(images.length + 5));
          if (kind !== 0) records.push(recordOf(item, images));
        }
        if (random(3) === 0) {
          const fresh = galleryItem({ n: 2 * random(30) + 1 });
          records.push(recordOf(fresh, [savedImage(0)]));
        }
        items = imagesAfterBatch(items, galleryChanges(records, removed), place).items;
        expectIndexTrue(items);
      }
    }
  });
});

describe('the selected images in the grid’s order', () => {
  it('are the same whether read through the places or by walking the list', () => {
    const items = galleryItems(200);
    const { order, placeOf } = keyIndexOf(items);
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const ids = new Set<string>();
      for (let n = 0; n < random(30); n += 1) ids.add(order[random(order.length)]!);
      if (random(2) === 0) ids.add('gone-task/0');
      const selection: Selection<string> = { ids, anchor: null };
      const walked = selectedInOrder(selection, order);
      expect(selectedInOrder(selection, order, placeOf)).toEqual(walked);
      expect(itemsAt(items, walked).map(itemKey)).toEqual(walked.filter((key) => placeOf.has(key)));
    }
  });
});
