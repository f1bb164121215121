/**
 * The history shared by several processes: task leases and the change feed, with two
 * stores on one file standing for two processes (each has its own connection, as they would).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { HistoryChanges } from '../../../../electron/core/history/change-feed';
import { CHANGE_LOG_KEEP } from '../../../../electron/core/history/history-schema';
import { makeRecord, tempDir } from './history-fixtures';
import { UNTIL } from '../../../support/waits';

let temp: ReturnType<typeof tempDir>;
let app: HistoryStore;
let cli: HistoryStore;
beforeEach(() => {
  temp = tempDir();
  const file = join(temp.dir, 'history.sqlite');
  // The change feed looks every 20 ms (the app's 250 ms would only slow the tests).
  app = HistoryStore.open(file, { changePollMs: 20 });
  cli = HistoryStore.open(file, { changePollMs: 20 });
});
afterEach(() => {
  app.close();
  cli.close();
  temp.remove();
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
    await vi.waitFor(() => expect(seen.flatMap((c) => c.localIds)).toEqual(['x', 'y']), UNTIL);
    app.put(makeRecord({ localId: 'mine', favourite: true }));
    cli.put(makeRecord({ localId: 'x', status: 'failed' }));
    cli.delete('y');
    await vi.waitFor(
      () => expect(seen.flatMap((c) => c.localIds)).toEqual(['x', 'y', 'x', 'y']),
      UNTIL,
    );
    expect(seen.every((changes) => !changes.overflow)).toBe(true);
  });

  it("skips this process's own writes however many came before another's", async () => {
    const seen = collect(app);
    for (let n = 0; n < 20; n += 1) app.put(makeRecord({ localId: `own-${n}` }));
    cli.put(makeRecord({ localId: 'other' }));
    await vi.waitFor(() => expect(seen.flatMap((c) => c.localIds)).toEqual(['other']), UNTIL);
  });

  it('says overflow when more changed than the log keeps, and goes on from there', async () => {
    const seen = collect(app);
    cli.putMany(
      Array.from({ length: CHANGE_LOG_KEEP + 50 }, (_, n) => makeRecord({ localId: `r${n}` })),
    );
    await vi.waitFor(() => expect(seen.some((changes) => changes.overflow)).toBe(true), UNTIL);
    cli.put(makeRecord({ localId: 'after' }));
    await vi.waitFor(
      () => expect(seen.at(-1)).toEqual({ localIds: ['after'], overflow: false }),
      UNTIL,
    );
  });

  it('keeps reporting to every other watcher when one throws', async () => {
    app.onDidChangeElsewhere(() => {
      throw new Error('a watcher broke');
    });
    const seen = collect(app);
    cli.put(makeRecord({ localId: 'first' }));
    await vi.waitFor(() => expect(seen.flatMap((c) => c.localIds)).toEqual(['first']), UNTIL);
    cli.put(makeRecord({ localId: 'second' }));
    await vi.waitFor(
      () => expect(seen.flatMap((c) => c.localIds)).toEqual(['first', 'second']),
      UNTIL,
    );
  });

  it('stops when the store closes', async () => {
    const listener = vi.fn();
    app.onDidChangeElsewhere(listener);
    app.close();
    cli.put(makeRecord({ localId: 'late' }));
    // A negative: several intervals pass with nothing reported (and nothing thrown).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener).not.toHaveBeenCalled();
  });
});
