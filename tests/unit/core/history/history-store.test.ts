import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeRecord } from './history-fixtures';

let store: HistoryStore;
beforeEach(() => {
  store = HistoryStore.open(':memory:');
});
afterEach(() => store.close());

describe('HistoryStore records', () => {
  it('round-trips a full record, including nulls, errors and optional image fields', () => {
    const record = makeRecord({
      localId: 'a',
      status: 'failed',
      hold: 'awaiting_key',
      error: {
        kind: 'task_failed',
        message: 'The service failed.',
        detail: 'boom',
        httpStatus: 500,
      },
      images: [
        makeImage(0, { state: 'invalid', error: 'not an image', favourite: true }),
        makeImage(1, { url: null }),
      ],
      favourite: true,
    });
    store.put(record);
    expect(store.get('a')).toEqual(record);
    expect(store.get('missing')).toBeUndefined();
  });

  it('upserts: a second put replaces the record and leaves updatedAt as given', () => {
    store.put(makeRecord({ localId: 'a', status: 'processing', images: [], updatedAt: 5 }));
    const done = makeRecord({
      localId: 'a',
      status: 'completed',
      updatedAt: 7,
      request: { prompt: 'new prompt' },
    });
    store.put(done);
    expect(store.get('a')).toEqual(done);
    expect(store.count()).toBe(1);
  });

  it('keeps the image rows in step with the record', () => {
    store.put(makeRecord({ localId: 'a', images: [makeImage(0), makeImage(1), makeImage(2)] }));
    expect(store.listImages().items.map((item) => item.index)).toEqual([0, 1, 2]);
    store.put(makeRecord({ localId: 'a', images: [makeImage(0, { state: 'expired' })] }));
    const items = store.listImages().items;
    expect(items).toHaveLength(1);
    expect(items[0]?.image.state).toBe('expired');
    expect(store.listImages({ states: ['saved'] }).items).toHaveLength(0);
  });

  it('finds a record by its service task id on its endpoint only', () => {
    store.put(makeRecord({ localId: 'a', taskId: 'T1', endpoint: 'https://one.test' }));
    store.put(makeRecord({ localId: 'b', taskId: 'T1', endpoint: 'https://two.test' }));
    store.put(makeRecord({ localId: 'c', taskId: null, endpoint: 'https://one.test' }));
    expect(store.getByTaskId('https://one.test', 'T1')?.localId).toBe('a');
    expect(store.getByTaskId('https://two.test', 'T1')?.localId).toBe('b');
    expect(store.getByTaskId('https://three.test', 'T1')).toBeUndefined();
  });

  it('finds the newest record of a service task id on any endpoint', () => {
    store.put(
      makeRecord({ localId: 'a', taskId: 'T1', endpoint: 'https://one.test', createdAt: 1 }),
    );
    store.put(
      makeRecord({ localId: 'b', taskId: 'T1', endpoint: 'https://two.test', createdAt: 2 }),
    );
    expect(store.findByTaskId('T1')?.localId).toBe('b');
    expect(store.findByTaskId('T2')).toBeUndefined();
  });

  it('putMany writes every record', () => {
    store.putMany([
      makeRecord({ localId: 'a' }),
      makeRecord({ localId: 'b' }),
      makeRecord({ localId: 'a', polls: 9 }),
    ]);
    expect(store.count()).toBe(2);
    expect(store.get('a')?.polls).toBe(9);
  });

  it('refuses an invalid record and writes nothing of a batch that holds one', () => {
    const bad = { ...makeRecord({ localId: 'b' }), status: 'exploded' } as unknown as TaskRecord;
    expect(() => store.put(bad)).toThrow(HistoryError);
    expect(() => store.putMany([makeRecord({ localId: 'a' }), bad])).toThrow(HistoryError);
    expect(store.count()).toBe(0);
  });

  it('deletes a record and its images', () => {
    store.put(makeRecord({ localId: 'a' }));
    store.put(makeRecord({ localId: 'b' }));
    expect(store.delete('a')).toBe(true);
    expect(store.delete('a')).toBe(false);
    expect(store.get('a')).toBeUndefined();
    expect(store.listImages().items.map((item) => item.localId)).toEqual(['b', 'b']);
    expect(store.list({ search: 'prompt of a' }).items).toEqual([]);
    store.put(makeRecord({ localId: 'a', request: { prompt: 'back again' } }));
    expect(store.listImages({ search: 'back again' }).items.map((item) => item.localId)).toEqual([
      'a',
      'a',
    ]);
  });

  it('lists unfinished records oldest first, following every change of status and images', () => {
    store.putMany([
      makeRecord({ localId: 'submitting', status: 'submitting', images: [], createdAt: 3 }),
      makeRecord({ localId: 'processing', status: 'processing', images: [], createdAt: 1 }),
      makeRecord({
        localId: 'pending',
        images: [makeImage(0), makeImage(1, { state: 'pending' })],
        createdAt: 2,
      }),
      makeRecord({ localId: 'done', createdAt: 4 }),
      makeRecord({ localId: 'failed', status: 'failed', createdAt: 5 }),
      makeRecord({ localId: 'unknown', status: 'submit_unknown', images: [], createdAt: 6 }),
    ]);
    expect(store.unfinished().map((record) => record.localId)).toEqual([
      'processing',
      'pending',
      'submitting',
    ]);
    store.put(
      makeRecord({ localId: 'pending', images: [makeImage(0), makeImage(1)], createdAt: 2 }),
    );
    expect(store.unfinished().map((record) => record.localId)).toEqual([
      'processing',
      'submitting',
    ]);
  });

  it('counts with filters', () => {
    store.putMany([
      makeRecord({ localId: 'a', status: 'failed', favourite: true }),
      makeRecord({ localId: 'b', status: 'failed' }),
      makeRecord({ localId: 'c', request: { prompt: 'a lighthouse' } }),
    ]);
    expect(store.count()).toBe(3);
    expect(store.count({ statuses: ['failed'] })).toBe(2);
    expect(store.count({ statuses: ['failed'], favourite: true })).toBe(1);
    expect(store.count({ favourite: false })).toBe(2);
    expect(store.count({ search: 'LIGHT' })).toBe(1);
    expect(store.count({ statuses: [] })).toBe(0);
  });

  it('answers correctly across more query shapes than it keeps prepared', () => {
    const statuses = [
      'submitting',
      'submit_failed',
      'submit_unknown',
      'processing',
      'completed',
      'failed',
      'not_found',
    ] as const;
    store.putMany(
      statuses.map((status, n) => makeRecord({ localId: `r${n}`, status, createdAt: n })),
    );
    for (let mask = 0; mask < 2 ** statuses.length; mask += 1) {
      const chosen = statuses.filter((_, bit) => (mask >> bit) & 1);
      expect(store.count({ statuses: chosen })).toBe(chosen.length);
      expect(
        store
          .list({ statuses: chosen, favourite: false })
          .items.map((r) => r.status)
          .sort(),
      ).toEqual([...chosen].sort());
    }
    expect(store.get('r0')?.status).toBe('submitting');
  });

  it('throws a HistoryError after close, and close is idempotent', () => {
    store.close();
    store.close();
    expect(() => store.get('a')).toThrow(HistoryError);
    expect(() => store.put(makeRecord({ localId: 'a' }))).toThrow('closed');
  });
});

describe('HistoryStore.list', () => {
  const ids = (records: readonly TaskRecord[]) => records.map((record) => record.localId);

  it('orders newest first by createdAt, then localId', () => {
    store.putMany([
      makeRecord({ localId: 'b', createdAt: 10 }),
      makeRecord({ localId: 'a', createdAt: 10 }),
      makeRecord({ localId: 'c', createdAt: 5 }),
      makeRecord({ localId: 'd', createdAt: 20 }),
    ]);
    expect(ids(store.list().items)).toEqual(['d', 'b', 'a', 'c']);
  });

  it('pages through ~250 records without duplicates or gaps while records are added between pages', () => {
    // Several records share a createdAt so the localId tie-break is exercised at page edges.
    const originals = Array.from({ length: 250 }, (_, n) =>
      makeRecord({
        localId: `r${String(n).padStart(3, '0')}`,
        createdAt: 1_000 + Math.floor(n / 3),
      }),
    );
    store.putMany(originals);
    const seen: string[] = [];
    let cursor: string | null = null;
    let added = 0;
    do {
      const page = store.list({ limit: 17, cursor });
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      // Newer records sort before the cursor (never seen); older ones after it (seen once).
      store.put(makeRecord({ localId: `new-${added}`, createdAt: 5_000 + added }));
      store.put(makeRecord({ localId: `old-${added}`, createdAt: 999 }));
      added += 1;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => id.startsWith('r'))).toEqual(ids(originals).reverse());
    expect(seen.filter((id) => id.startsWith('new-'))).toEqual([]);
    expect(seen.filter((id) => id.startsWith('old-')).sort()).toEqual(
      Array.from({ length: added - 1 }, (_, n) => `old-${n}`).sort(),
    );
    expect(store.count()).toBe(250 + 2 * added);
  });

  it('includes an older record added after the first page, exactly once', () => {
    store.putMany(
      Array.from({ length: 30 }, (_, n) => makeRecord({ localId: `r${n}`, createdAt: 100 + n })),
    );
    const first = store.list({ limit: 10 });
    store.put(makeRecord({ localId: 'late-but-old', createdAt: 50 }));
    const rest = store.list({ limit: 500, cursor: first.nextCursor });
    expect(ids(rest.items).at(-1)).toBe('late-but-old');
    expect(rest.items).toHaveLength(21);
    expect(rest.nextCursor).toBeNull();
  });

  it('filters by status and favourite, and pages within a filter', () => {
    store.putMany(
      Array.from({ length: 40 }, (_, n) =>
        makeRecord({
          localId: `r${String(n).padStart(2, '0')}`,
          createdAt: n,
          status: n % 2 === 0 ? 'completed' : n % 3 === 0 ? 'failed' : 'processing',
          favourite: n % 5 === 0,
        }),
      ),
    );
    expect(
      store.list({ statuses: ['failed'] }).items.every((record) => record.status === 'failed'),
    ).toBe(true);
    expect(store.list({ statuses: ['failed', 'processing'], limit: 500 }).items).toHaveLength(20);
    expect(ids(store.list({ favourite: true }).items)).toEqual([
      'r35',
      'r30',
      'r25',
      'r20',
      'r15',
      'r10',
      'r05',
      'r00',
    ]);
    expect(store.list({ favourite: false, limit: 500 }).items).toHaveLength(32);
    const first = store.list({ statuses: ['completed'], limit: 15 });
    const second = store.list({ statuses: ['completed'], limit: 15, cursor: first.nextCursor });
    expect(first.items).toHaveLength(15);
    expect(ids(second.items)).toEqual(['r08', 'r06', 'r04', 'r02', 'r00']);
    expect(second.nextCursor).toBeNull();
    expect(store.list({ statuses: [] }).items).toEqual([]);
  });

  it('clamps the page size and refuses a cursor it did not make', () => {
    store.putMany(
      Array.from({ length: 520 }, (_, n) =>
        makeRecord({ localId: `r${n}`, images: [], createdAt: n }),
      ),
    );
    expect(store.list().items).toHaveLength(50);
    expect(store.list({ limit: 10_000 }).items).toHaveLength(500);
    expect(store.list({ limit: 0 }).items).toHaveLength(1);
    expect(() => store.list({ cursor: 'not-a-cursor' })).toThrow(HistoryError);
    const taskCursor = store.list({ limit: 10 }).nextCursor;
    expect(() => store.listImages({ cursor: taskCursor })).toThrow(HistoryError);
  });
});
