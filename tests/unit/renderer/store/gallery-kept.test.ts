/**
 * The active image kept from a page loaded by position (renderer/store/gallery-kept.ts): kept
 * only when the new page neither holds it nor covers its place, carried from page to page, and
 * let go when it leaves the gallery.
 */
import { describe, expect, it } from 'vitest';
import { galleryChanges } from '../../../../renderer/store/gallery-batch';
import { keptAcross, keptAfterChanges } from '../../../../renderer/store/gallery-kept';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import { refOf, type ImageRef } from '../../../../renderer/store/image-ref';
import { galleryItem, savedImage, taskRecord } from '../gallery/gallery-builders';

/** The refs of the images at places `from` to `to` (exclusive) of the whole gallery. */
const page = (from: number, to: number) => ({
  offset: from,
  refs: Array.from({ length: to - from }, (_, k) => refOf(galleryItem({ n: from + k }))),
});
const keyAt = (n: number): string => itemKey(galleryItem({ n }));
const refAt = (n: number): ImageRef => refOf(galleryItem({ n }));

describe('the image kept across pages loaded by position', () => {
  const before = page(100, 160);

  it.each([
    ['a page far below', page(500, 560), { index: 120, refs: [refAt(120)] }],
    ['a page far above', page(0, 60), { index: 120, refs: [refAt(120)] }],
    ['a page ending just before it', page(60, 120), { index: 120, refs: [refAt(120)] }],
    ['a page that holds it (it is there)', page(110, 170), null],
    [
      'a page over its place without it (moved or gone)',
      { offset: 115, refs: page(121, 131).refs },
      null,
    ],
    ['an empty page at its place', { offset: 120, refs: [] }, { index: 120, refs: [refAt(120)] }],
  ])('keeps the active image for %s as it should', (_, next, kept) => {
    expect(keptAcross(before, next, keyAt(120))).toEqual(kept);
  });

  it('keeps nothing with no active image, no page before, or one that did not have it', () => {
    expect(keptAcross(before, page(500, 560), null)).toBeNull();
    expect(keptAcross(null, page(500, 560), keyAt(120))).toBeNull();
    expect(keptAcross(before, page(500, 560), keyAt(20))).toBeNull();
  });

  it('carries the kept image on to the next page, and lets it go for another active one', () => {
    const kept = keptAcross(before, page(500, 560), keyAt(120))!;
    const far = { ...page(500, 560), kept };
    expect(keptAcross(far, page(900, 960), keyAt(120))).toBe(kept);
    expect(keptAcross(far, page(900, 960), keyAt(510))).toEqual({ index: 510, refs: [refAt(510)] });
  });

  it('lets it go when its task leaves the gallery or its image is no longer saved, not for a star', () => {
    const item = galleryItem({ n: 120 });
    const kept = { index: 120, refs: [refOf(item)] as const };
    const removed = galleryChanges([], new Set([item.localId]));
    expect(keptAfterChanges(kept, item, removed)).toBeNull();
    expect(keptAfterChanges(kept, undefined, galleryChanges([]))).toBeNull();
    const time = item.createdAt;
    const starred = taskRecord(item.localId, time, [savedImage(0, { rating: 4 })]);
    expect(keptAfterChanges(kept, item, galleryChanges([starred]))).toBe(kept);
    const gone = taskRecord(item.localId, time, [savedImage(0, { state: 'deleted' })]);
    expect(keptAfterChanges(kept, item, galleryChanges([gone]))).toBeNull();
  });
});
