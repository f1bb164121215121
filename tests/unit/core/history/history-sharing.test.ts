/**
 * The history shared by several processes: task leases and the change feed, with two
 * stores on one file standing for two processes (each has its own connection, as they would).
 * The feed runs on the manual clock: each look is one step of it (a quarter second), so what it
 * reports is asserted at the look that reports it, and "nothing reported" over counted looks.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { HistoryChanges } from '../../../../electron/core/history/change-feed';
import { CHANGE_LOG_KEEP } from '../../../../electron/core/history/history-schema';
import { historyFilePerTest, makeRecord } from './history-fixtures';
import { ManualClock } from '../../../fakes/manual-clock';

const history = historyFilePerTest();
let app: HistoryStore;
let cli: HistoryStore;
let clock: ManualClock;
/** One look of the change feed (its default interval, 250 ms, on the manual clock). */
const look = (): Promise<void> => clock.advance(250);
beforeEach(() => {
  clock = new ManualClock();
  app = HistoryStore.open(history.file, { changeTimers: clock });
  cli = HistoryStore.open(history.file, { changeTimers: clock });
});
afterEach(() => {
  app.close();
  cli.close();
});

describe('task leases', () => {
  it('a free task is leased; a live lease is refused to others and renewed for its owner', () => {
    expect(app.claimLeases(['a', 'b'], 'app', 1_000, 2_000)).toEqual(['a', 'b']);
    expect(cli.claimLeases(['a', 'b', 'c'], 'cli', 1_500, 2_500)).toEqual(['c']);
    expect(app.claimLeases(['a'], 'app', 1_900, 5_000)).toEqual(['a']);
    expect(cli.leaseOf('a')).toEqual({ owner: 'app', expiresAt: 5_000 });
  });

  it('an expired lease is taken over, at its expiry and not a millisecond before', () => {
    app.claimLeases(['a'], 'app', 0, 2_000);
    expect(cli.claimLeases(['a'], 'cli', 1_999, 4_000)).toEqual([]);
    expect(cli.claimLeases(['a'], 'cli', 2_000, 4_000)).toEqual(['a']);
    expect(app.leaseOf('a')).toEqual({ owner: 'cli', expiresAt: 4_000 });
    // The old owner cannot take it back while the new lease runs.
    expect(app.claimLeases(['a'], 'app', 2_001, 6_000)).toEqual([]);
  });

  it('an owner ends only its own leases; deleting a task ends its lease', () => {
    app.put(makeRecord({ localId: 'a' }));
    app.claimLeases(['a', 'b'], 'app', 0, 10_000);
    cli.claimLeases(['c'], 'cli', 0, 10_000);
    cli.releaseLeases('cli', ['a', 'c']);
    expect([app.leaseOf('a')?.owner, app.leaseOf('c')]).toEqual(['app', undefined]);
    app.releaseLeases('app', ['b']);
    expect(app.leaseOf('b')).toBeUndefined();
    cli.delete('a');
    expect(app.leaseOf('a')).toBeUndefined();
  });

  it('records put with a lease are never seen unleased', () => {
    app.putMany([makeRecord({ localId: 'n1' }), makeRecord({ localId: 'n2' })], {
      owner: 'app',
      until: 9_000,
    });
    expect([cli.leaseOf('n1'), cli.leaseOf('n2')]).toEqual([
      { owner: 'app', expiresAt: 9_000 },
      { owner: 'app', expiresAt: 9_000 },
    ]);
  });
});

describe('the change feed', () => {
  function collect(store: HistoryStore): HistoryChanges[] {
    const seen: HistoryChanges[] = [];
    store.onDidChangeElsewhere((changes) => seen.push(changes));
    return seen;
  }

  it('reports what another process wrote or deleted, not what this one wrote', async () => {
    const seen = collect(app);
    app.put(makeRecord({ localId: 'mine' }));
    cli.putMany([makeRecord({ localId: 'x' }), makeRecord({ localId: 'y' })]);
    await look();
    expect(seen.flatMap((c) => c.localIds)).toEqual(['x', 'y']);
    app.put(makeRecord({ localId: 'mine', favourite: true }));
    cli.put(makeRecord({ localId: 'x', status: 'failed' }));
    cli.delete('y');
    await look();
    expect(seen.flatMap((c) => c.localIds)).toEqual(['x', 'y', 'x', 'y']);
    expect(seen.every((changes) => !changes.overflow)).toBe(true);
  });

  it("skips this process's own writes however many came before another's", async () => {
    const seen = collect(app);
    for (let n = 0; n < 20; n += 1) app.put(makeRecord({ localId: `own-${n}` }));
    cli.put(makeRecord({ localId: 'other' }));
    await look();
    expect(seen.flatMap((c) => c.localIds)).toEqual(['other']);
  });

  it('says overflow when more changed than the log keeps, and goes on from there', async () => {
    const seen = collect(app);
    cli.putMany(
      Array.from({ length: CHANGE_LOG_KEEP + 50 }, (_, n) => makeRecord({ localId: `r${n}` })),
    );
    await look();
    expect(seen.some((changes) => changes.overflow)).toBe(true);
    cli.put(makeRecord({ localId: 'after' }));
    await look();
    expect(seen.at(-1)).toEqual({ localIds: ['after'], overflow: false });
  });

  it("passes this process's own writes as it makes them, not at a look that never comes", async () => {
    const seen = collect(app);
    // No other process writes, so no look reads the log (its data_version is unchanged): the
    // feed must not keep each own write's entries until one does.
    for (let n = 0; n < 20; n += 1) app.put(makeRecord({ localId: `own-${n}` }));
    await look();
    const feed = (app as unknown as { feed?: { ownRanges?: unknown[] } }).feed;
    expect(feed?.ownRanges).toEqual([]);
    cli.put(makeRecord({ localId: 'other' }));
    await look();
    expect(seen).toEqual([{ localIds: ['other'], overflow: false }]);
  });

  it('keeps reporting to every other watcher when one throws', async () => {
    app.onDidChangeElsewhere(() => {
      throw new Error('a watcher broke');
    });
    const seen = collect(app);
    cli.put(makeRecord({ localId: 'first' }));
    await look();
    expect(seen.flatMap((c) => c.localIds)).toEqual(['first']);
    cli.put(makeRecord({ localId: 'second' }));
    await look();
    expect(seen.flatMap((c) => c.localIds)).toEqual(['first', 'second']);
  });

  it('stops when the store closes', async () => {
    const listener = vi.fn();
    app.onDidChangeElsewhere(listener);
    app.close();
    cli.put(makeRecord({ localId: 'late' }));
    // A negative: several looks pass with nothing reported (and nothing thrown).
    for (let n = 0; n < 4; n += 1) await look();
    expect(listener).not.toHaveBeenCalled();
  });
});
