import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { makeImage, makeRecord } from './history-fixtures';

let store: HistoryStore;
beforeEach(() => {
  store = HistoryStore.open(':memory:');
  store.putMany([
    // Written before services had profiles: no provider, so today's contract's.
    makeRecord({ localId: 'old', createdAt: 100, images: [makeImage(0), makeImage(1)] }),
    makeRecord({ localId: 'fal', createdAt: 200, provider: 'fal', images: [makeImage(0)] }),
    makeRecord({ localId: 'bfl', createdAt: 300, provider: 'bfl', images: [makeImage(0)] }),
  ]);
});
afterEach(() => store.close());

const ids = (items: readonly { localId: string }[]) => items.map((item) => item.localId);
const keys = (items: readonly GalleryItem[]) =>
  items.map((item) => `${item.localId}/${item.index}`);

describe('the history filtered by service', () => {
  it('lists, counts and selects the tasks of one service, older records as today’s contract’s', () => {
    expect(ids(store.list({ provider: 'pictor' }).items)).toEqual(['old']);
    expect(ids(store.list({ provider: 'fal' }).items)).toEqual(['fal']);
    expect(store.count({ provider: 'bfl' })).toBe(1);
    expect(store.count({ provider: 'replicate' })).toBe(0);
    expect(store.taskIds({ provider: 'fal' }, 10)).toEqual(['fal']);
    expect(store.count({})).toBe(3);
  });

  it('lists and counts the images of one service in every order, and names it on each', () => {
    expect(keys(store.listImages({ provider: 'pictor' }).items)).toEqual(['old/0', 'old/1']);
    expect(keys(store.listImages({ provider: 'fal', sort: 'prompt' }).items)).toEqual(['fal/0']);
    expect(keys(store.listImages({ provider: 'bfl', sort: 'oldest' }).items)).toEqual(['bfl/0']);
    expect(store.countImages({ provider: 'pictor' })).toBe(2);
    expect(store.imageKeys({ provider: 'fal' }, 10)).toHaveLength(1);
    const [falItem] = store.listImages({ provider: 'fal' }).items;
    expect(falItem?.provider).toBe('fal');
    expect(store.listImages({ provider: 'pictor' }).items[0]).not.toHaveProperty('provider');
  });
});
