/**
 * The anchors of positions walked by the history worker (its real thread, on the same SQLite
 * file) and taken in by main's store (position-prebuild.ts): a page far down the library then
 * seeks to its place without stepping a row on main, in both orders and with a filter; a build
 * goes on from what main walked itself, in chunks; and a change committed while the worker walks
 * (by another connection or by main), or the gallery's going to another order and back, has its
 * walk refused, every page staying right.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { VISIBLE_STATES, type TaskRecord } from '../../../shared/domain/task-record';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageQuery } from '../../../electron/core/history/history-query';
import type { AnchorWalk } from '../../../electron/core/history/gallery-order';
import { ANCHOR_SPAN, type AnchorKey } from '../../../electron/core/history/position-anchors';
import {
  PositionPrebuild,
  prebuildAnchors,
} from '../../../electron/core/history/position-prebuild';
import { anchorsOf, expected, pageAt, record } from './position-fixture';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

/** About 5 anchors' worth of images. */
const TASKS = 10_000;
const SHOWN = [...VISIBLE_STATES];
let store: HistoryStore;
let port: HistoryPort;
let records: TaskRecord[];
const folder = tempFolderSync('history');
const file = () => join(folder, 'history.sqlite');

/** Main's steps between anchors from now on (each one a walk of {@link ANCHOR_SPAN} rows). */
function countSteps(): { readonly count: number } {
  const anchors = anchorsOf(store);
  const seek = anchors.seek.bind(anchors);
  const steps = { count: 0 };
  vi.spyOn(anchors, 'seek').mockImplementation((id, offset, step) =>
    seek(id, offset, (from, skip) => {
      steps.count += 1;
      return step(from, skip);
    }),
  );
  return steps;
}

/** The worker's port, running `meanwhile` after the worker answered and before main hears. */
function answeringAfter(meanwhile: () => void): Pick<HistoryPort, 'call'> {
  return {
    call: async (op, args) => {
      const result = await port.call(op, args);
      meanwhile();
      return result;
    },
  };
}

/** Adds tasks on top (newest) through `to`: every place of the newest order moves down. */
function addOnTop(to: HistoryStore, count: number, base: number): void {
  const fresh = Array.from({ length: count }, (_, n) => record(TASKS + base + n, 9_000_000 + base));
  to.putMany(fresh);
  records = [...records, ...fresh];
}

beforeAll(() => {
  store = HistoryStore.open(file());
  records = Array.from({ length: TASKS }, (_, n) => record(n));
  store.putMany(records);
  port = new HistoryPort(file());
}, 120_000);
afterAll(async () => {
  await port.dispose();
  store.close();
  removeFolderSync(folder);
});
beforeEach(() => {
  vi.restoreAllMocks();
});

describe('anchors walked in the history worker', { timeout: 120_000 }, () => {
  for (const sort of ['newest', 'oldest'] as const) {
    for (const query of [{}, { model: 'model-b' }] as ImageQuery[]) {
      it(`${sort} ${JSON.stringify(query)}: a far page steps no row on main`, async () => {
        const want = expected(records, query, sort);
        expect(
          await prebuildAnchors(anchorsOf(store), port, {
            query: { ...query, states: SHOWN },
            sort,
          }),
        ).toBe(true);
        expect(anchorsOf(store).size).toBe(Math.floor(want.length / ANCHOR_SPAN));
        const steps = countSteps();
        for (const offset of [want.length - 61, ANCHOR_SPAN * 2 + 9, ANCHOR_SPAN - 1, 3]) {
          expect(pageAt(store, query, sort, offset)).toEqual(want.slice(offset, offset + 60));
        }
        expect(pageAt(store, query, sort, want.length + ANCHOR_SPAN)).toEqual([]);
        expect(steps.count).toBe(0);
      });
    }
  }

  it('goes on, a chunk a call, from the anchors main walked itself', async () => {
    addOnTop(store, 3, 0);
    const want = expected(records, {}, 'newest');
    const far = ANCHOR_SPAN * 2 + 5;
    expect(pageAt(store, {}, 'newest', far)).toEqual(want.slice(far, far + 60));
    expect(anchorsOf(store).size).toBe(2);
    const asked: (AnchorKey | null)[] = [];
    const counting: Pick<HistoryPort, 'call'> = {
      call: (op, args) => {
        if (op === 'positionAnchors') asked.push((args as AnchorWalk).after);
        return port.call(op, args);
      },
    };
    const shown = { states: SHOWN };
    expect(
      await prebuildAnchors(anchorsOf(store), counting, { query: shown, sort: 'newest' }, 1),
    ).toBe(true);
    const anchors = Math.floor(want.length / ANCHOR_SPAN);
    // One call an anchor from the third on, and one that finds the end.
    expect(asked).toHaveLength(anchors - 2 + 1);
    expect(asked[0]).not.toBeNull();
    const steps = countSteps();
    const end = want.length - 60;
    expect(pageAt(store, {}, 'newest', end)).toEqual(want.slice(end));
    expect(steps.count).toBe(0);
  });

  for (const by of ['another connection', 'main'] as const) {
    it(`refuses a walk when ${by} committed while the worker walked`, async () => {
      const other = by === 'main' ? store : HistoryStore.open(file());
      const near = ANCHOR_SPAN + 3;
      // Main holds another order's anchors: the newest order's are walked anew.
      expect(pageAt(store, {}, 'oldest', near)).toHaveLength(60);
      const walked = answeringAfter(() => {
        addOnTop(other, 40, by === 'main' ? 100 : 200);
        // Main walks to a place under the new library before the worker's anchors arrive.
        expect(pageAt(store, {}, 'newest', near)).toEqual(
          expected(records, {}, 'newest').slice(near, near + 60),
        );
      });
      try {
        expect(
          await prebuildAnchors(anchorsOf(store), walked, {
            query: { states: SHOWN },
            sort: 'newest',
          }),
        ).toBe(false);
      } finally {
        if (other !== store) other.close();
      }
      expect(anchorsOf(store).size).toBe(1);
      const want = expected(records, {}, 'newest');
      for (const offset of [ANCHOR_SPAN * 3 + 7, want.length - 60]) {
        expect(pageAt(store, {}, 'newest', offset)).toEqual(want.slice(offset, offset + 60));
      }
    });
  }

  it('stops walking at the first change committed, before main reads a page', async () => {
    expect(pageAt(store, {}, 'oldest', ANCHOR_SPAN + 3)).toHaveLength(60);
    let calls = 0;
    const walked = answeringAfter(() => {
      calls += 1;
      if (calls === 1) addOnTop(store, 2, 400);
    });
    const shown = { states: SHOWN };
    expect(
      await prebuildAnchors(anchorsOf(store), walked, { query: shown, sort: 'newest' }, 1),
    ).toBe(false);
    expect(calls).toBe(1);
    const want = expected(records, {}, 'newest');
    const far = ANCHOR_SPAN * 2 + 11;
    expect(pageAt(store, {}, 'newest', far)).toEqual(want.slice(far, far + 60));
  });

  it('refuses a walk when the gallery left the order and came back meanwhile', async () => {
    const want = expected(records, {}, 'newest');
    const far = ANCHOR_SPAN * 3 + 5;
    expect(pageAt(store, {}, 'oldest', far)).toHaveLength(60);
    expect(pageAt(store, {}, 'newest', far)).toEqual(want.slice(far, far + 60));
    const walked = answeringAfter(() => {
      expect(pageAt(store, {}, 'oldest', far)).toHaveLength(60);
      expect(pageAt(store, {}, 'newest', ANCHOR_SPAN + 3)).toHaveLength(60);
    });
    const shown = { states: SHOWN };
    expect(await prebuildAnchors(anchorsOf(store), walked, { query: shown, sort: 'newest' })).toBe(
      false,
    );
    expect(anchorsOf(store).size).toBe(1);
    for (const offset of [ANCHOR_SPAN * 2 + 1, far, want.length - 60]) {
      expect(pageAt(store, {}, 'newest', offset)).toEqual(want.slice(offset, offset + 60));
    }
  });

  it('builds once per order at a time, and not for a search or by prompt', async () => {
    const calls: string[] = [];
    const prebuild = new PositionPrebuild(anchorsOf(store), {
      call: (op, args) => {
        calls.push(op);
        return port.call(op, args);
      },
    });
    addOnTop(store, 2, 300);
    const oldest = { states: SHOWN, sort: 'oldest' as const, offset: 900, limit: 60 };
    const [first, second] = await Promise.all([prebuild.build(oldest), prebuild.build(oldest)]);
    expect([first, second]).toEqual([true, true]);
    const built = calls.length;
    expect(built).toBe(1);
    expect(await prebuild.build(oldest)).toBe(true);
    expect(await prebuild.build({ ...oldest, search: 'prompt' })).toBe(false);
    expect(await prebuild.build({ ...oldest, sort: 'prompt' })).toBe(false);
    expect(calls).toHaveLength(built);
  });
});
