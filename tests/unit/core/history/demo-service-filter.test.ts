/**
 * The built-in demo is a service of its own wherever the history and the ledger are filtered by
 * service (shared/domain/service-id.ts, core/history/service-filter.ts): its tasks carry the
 * provider whose dialect it spoke, but their rows name the demo, so a filter by that provider
 * leaves them out and a filter by `demo` finds them, whatever the dialect. The task list, its
 * count and "Select all", the gallery in every order, a smart board's rule and the Costs list read
 * the same rule.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { SERVICE_IDS, galleryServiceOf, serviceIdOf } from '../../../../shared/domain/service-id';
import { ledgerServiceOf } from '../../../../shared/domain/service-id';
import { makeImage, makeRecord } from './history-fixtures';

let store: HistoryStore;
const FREE = { source: 'free' } as const;
const PRICED = { source: 'estimated', micros: 5, unit: 'USD', basis: 'image' } as const;
const RECORDS = [
  // Today's contract at the user's address, and its demo (`demo:`).
  makeRecord({ localId: 'own', createdAt: 100, images: [makeImage(0)], cost: PRICED }),
  makeRecord({
    localId: 'demo',
    createdAt: 200,
    endpoint: 'demo:',
    images: [makeImage(0), makeImage(1)],
    cost: FREE,
  }),
  // fal.ai, and the demo speaking fal's dialect (`demo:fal`).
  makeRecord({
    localId: 'fal',
    createdAt: 300,
    provider: 'fal',
    endpoint: 'https://queue.fal.run',
    images: [makeImage(0)],
    cost: PRICED,
  }),
  makeRecord({
    localId: 'demo-fal',
    createdAt: 400,
    provider: 'fal',
    endpoint: 'demo:fal',
    images: [makeImage(0)],
    cost: FREE,
  }),
];

beforeEach(() => {
  store = HistoryStore.open(':memory:');
  store.putMany(RECORDS);
});
afterEach(() => store.close());

const ids = (items: readonly { localId: string }[]) => items.map((item) => item.localId).sort();
const tasksOf = (items: readonly GalleryItem[]) => [...new Set(ids(items))];

describe('a filter by service', () => {
  it('lists, counts and selects the demo’s tasks as the demo’s, not their dialect’s', () => {
    expect(ids(store.list({ provider: 'demo' }).items)).toEqual(['demo', 'demo-fal']);
    expect(ids(store.list({ provider: 'pictor' }).items)).toEqual(['own']);
    expect(ids(store.list({ provider: 'fal' }).items)).toEqual(['fal']);
    expect(store.count({ provider: 'demo' })).toBe(2);
    expect(store.count({ provider: 'pictor' })).toBe(1);
    expect([...store.taskIds({ provider: 'demo' }, 10)].sort()).toEqual(['demo', 'demo-fal']);
  });

  it('matches the service each row names, for every service (the list, the images, the ledger)', () => {
    for (const service of SERVICE_IDS) {
      const named = RECORDS.filter((record) => serviceIdOf(record) === service).map(
        (record) => record.localId,
      );
      expect(ids(store.list({ provider: service }).items), service).toEqual(named.sort());
      for (const sort of ['newest', 'oldest', 'prompt'] as const) {
        const images = store.listImages({ provider: service, sort }).items;
        expect(tasksOf(images), `${service} ${sort}`).toEqual(named);
        for (const item of images) expect(galleryServiceOf(item)).toBe(service);
      }
      expect(store.countImages({ provider: service })).toBe(
        RECORDS.filter((record) => named.includes(record.localId)).reduce(
          (sum, record) => sum + record.images.length,
          0,
        ),
      );
      const entries = store.costs.newest({ provider: service }, 50).entries;
      expect(ids(entries), `ledger ${service}`).toEqual(named);
      for (const entry of entries) expect(ledgerServiceOf(entry)).toBe(service);
    }
  });

  it('is a smart board’s service rule too', () => {
    const smart = (service: 'demo' | 'pictor') =>
      tasksOf(
        store.listImages({
          smart: { match: 'all', items: [{ kind: 'service', service }] },
        }).items,
      );
    expect(smart('demo')).toEqual(['demo', 'demo-fal']);
    expect(smart('pictor')).toEqual(['own']);
  });

  it('tells a ledger entry of the demo by its endpoint, not by its cost', () => {
    // A demo task whose cost is not (yet) free, as an imported or older row may be.
    store.put(
      makeRecord({ localId: 'demo-priced', createdAt: 500, endpoint: 'demo:', cost: PRICED }),
    );
    const entry = store.costs
      .newest({ provider: 'demo' }, 50)
      .entries.find((found) => found.localId === 'demo-priced');
    expect(entry && ledgerServiceOf(entry)).toBe('demo');
    expect(ids(store.costs.newest({ provider: 'pictor' }, 50).entries)).toEqual(['own']);
  });
});
