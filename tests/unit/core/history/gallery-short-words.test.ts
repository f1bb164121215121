/**
 * The gallery searched by words too short for the word index (under three characters), in every
 * order: the images' own query reads each task's prompt by row id, so "ox" finds the ox and the
 * fox whether the list is newest first, oldest first or by prompt, and pages by cursor.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { makeImage, makeRecord } from './history-fixtures';

let store: HistoryStore;
beforeEach(() => {
  store = HistoryStore.open(':memory:');
  store.putMany(
    ['an ox in snow', 'a fox at dusk', 'a heron', 'OX cart'].map((prompt, n) =>
      makeRecord({
        localId: `t${String(n)}`,
        createdAt: 100 * (n + 1),
        request: { prompt },
        images: [makeImage(0)],
      }),
    ),
  );
});
afterEach(() => store.close());

const ids = (items: readonly GalleryItem[]) => items.map((item) => item.localId);

describe('short search words in the gallery', () => {
  it('match in every order', () => {
    expect(ids(store.listImages({ search: 'ox' }).items)).toEqual(['t3', 't1', 't0']);
    expect(ids(store.listImages({ search: 'ox', sort: 'oldest' }).items)).toEqual([
      't0',
      't1',
      't3',
    ]);
    expect(ids(store.listImages({ search: 'ox', sort: 'prompt' }).items)).toEqual([
      't1',
      't0',
      't3',
    ]);
    expect(store.countImages({ search: 'ox' })).toBe(3);
  });

  it('page by cursor oldest first', () => {
    const first = store.listImages({ search: 'ox', sort: 'oldest', limit: 2 });
    expect(ids(first.items)).toEqual(['t0', 't1']);
    const next = store.listImages({
      search: 'ox',
      sort: 'oldest',
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(ids(next.items)).toEqual(['t3']);
  });
});
