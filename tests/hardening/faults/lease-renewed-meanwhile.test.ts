/**
 * A lease's owner renews it between another process's read of it and that process's take-over:
 * the owner was alive after all (suspended a while, or stamped by a clock ahead, then running
 * again), so the lease stays its own. The take-over is checked in its own write (owner AND expiry
 * as read), not only in the read before it: two processes on one history never both work on one
 * task, and a poll's bookkeeping is never written by two.
 *
 * Two history stores on one file stand for two processes (each its own connection, as they have);
 * the engine's lease keeper (TaskLeases) takes a stale lease over through the real store, with the
 * owner's renewal written at the one moment the race leaves: after the read, before the write.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { TaskLeases } from '../../../electron/core/engine/task-leases';
import {
  DEFAULT_ENGINE_OPTIONS,
  type EngineSharing,
} from '../../../electron/core/engine/engine-types';
import { silentLogger } from '../../../electron/ports/logger';
import { ManualClock } from '../../fakes/manual-clock';
import { historyFilePerTest } from '../../unit/core/history/history-fixtures';

const LEASE_MS = DEFAULT_ENGINE_OPTIONS.leaseMs;
/** A process of another machine: never known dead, only waited out or found stale. */
const OWNER = 'render-box.example:4242:the-owner';

const history = historyFilePerTest();
let owner: HistoryStore;
let taker: HistoryStore;
beforeEach(() => {
  owner = HistoryStore.open(history.file);
  taker = HistoryStore.open(history.file);
});
afterEach(() => {
  owner.close();
  taker.close();
});

describe('the history take-over', () => {
  it('refuses a lease renewed since it was read, by its owner or with another expiry', () => {
    owner.claimLeases(['a'], OWNER, 0, 10_000);
    const seen = taker.leaseOf('a')!;
    expect(seen).toEqual({ owner: OWNER, expiresAt: 10_000 });
    // The owner renews: same owner, a later expiry.
    owner.claimLeases(['a'], OWNER, 5_000, 15_000);
    expect(taker.takeOverLease('a', seen, 'taker', 60_000)).toBe(false);
    expect(owner.leaseOf('a')).toEqual({ owner: OWNER, expiresAt: 15_000 });
    // The lease as it is now is taken.
    const now = taker.leaseOf('a')!;
    expect(taker.takeOverLease('a', now, 'taker', 60_000)).toBe(true);
    expect(owner.leaseOf('a')).toEqual({ owner: 'taker', expiresAt: 60_000 });
  });

  it('gives one lease read by two takers to one of them', () => {
    owner.claimLeases(['a'], OWNER, 0, 10_000);
    const seen = taker.leaseOf('a')!;
    expect(owner.takeOverLease('a', seen, 'first', 50_000)).toBe(true);
    expect(taker.takeOverLease('a', seen, 'second', 60_000)).toBe(false);
    expect(taker.leaseOf('a')).toEqual({ owner: 'first', expiresAt: 50_000 });
  });
});

describe("the engine's stale take-over", () => {
  /** The taker's lease keeper, its history's take-over preceded by the owner's renewal. */
  function keeperRenewedInBetween(clock: ManualClock, renewals: { count: number }) {
    const sharing: EngineSharing = {
      putMany: (records, lease) => taker.putMany(records, lease),
      claimLeases: (ids, who, now, until) => taker.claimLeases(ids, who, now, until),
      takeOverLease: (localId, from, who, until) => {
        // The owner's renewal lands after the keeper's read, before its write.
        const theirNow = clock.now();
        owner.claimLeases([localId], OWNER, theirNow, theirNow + LEASE_MS);
        renewals.count += 1;
        return taker.takeOverLease(localId, from, who, until);
      },
      releaseLeases: (who, ids) => taker.releaseLeases(who, ids),
      leaseOf: (localId) => taker.leaseOf(localId),
      onDidChangeElsewhere: taker.onDidChangeElsewhere,
    };
    const lost: string[][] = [];
    const keeper = new TaskLeases(
      { clock, logger: silentLogger, options: DEFAULT_ENGINE_OPTIONS },
      sharing,
      (ids) => lost.push(ids),
    );
    return { keeper, lost };
  }

  it('leaves a stale lease to its owner when the owner renews it in between', () => {
    const clock = new ManualClock();
    // Stamped by a clock an hour ahead: unexpired here, and not renewed for a lease length.
    const ahead = clock.now() + 3_600_000;
    owner.claimLeases(['a'], OWNER, ahead, ahead + LEASE_MS);
    const renewals = { count: 0 };
    const { keeper } = keeperRenewedInBetween(clock, renewals);
    keeper.markStale('a', taker.leaseOf('a')!);
    expect(keeper.claim(['a'])).toEqual([]);
    expect(renewals.count).toBe(1);
    expect(taker.leaseOf('a')).toEqual({ owner: OWNER, expiresAt: clock.now() + LEASE_MS });
    expect(keeper.isMine('a')).toBe(false);
  });

  it('takes a stale lease nobody renewed', () => {
    const clock = new ManualClock();
    const ahead = clock.now() + 3_600_000;
    owner.claimLeases(['a'], OWNER, ahead, ahead + LEASE_MS);
    const keeper = new TaskLeases(
      { clock, logger: silentLogger, options: DEFAULT_ENGINE_OPTIONS },
      taker,
      () => undefined,
    );
    keeper.markStale('a', taker.leaseOf('a')!);
    expect(keeper.claim(['a'])).toEqual(['a']);
    expect(taker.leaseOf('a')?.owner).toBe(keeper.owner);
    keeper.releaseAll();
  });
});
