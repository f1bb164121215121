/**
 * Tasks another live Pictor process works on, each with a timer for when its lease ends: the
 * engine then takes the task over if that process died (a live one renews the lease, and the
 * check is made again at the new end). See task-leases.ts.
 *
 * An owner of this machine is looked at again every {@link OWNER_CHECK_MS} too: one killed while
 * its lease runs (a CLI command interrupted, an app that crashed) has its tasks taken over at once
 * rather than up to a whole lease later (45 s), and so is one whose pid the system has given to
 * another process since, where the owner's name says its start (process-owner.ts ownerName). Each
 * look is one read of the lease, one `kill(pid, 0)` and, for a name with a start, one read of
 * /proc/<pid>/stat; an owner of another machine cannot be asked, and is waited out.
 *
 * Waited out for one lease length at most, counted on this process's timers: a lease is written
 * to end one lease length after its owner's clock, so one that says it ends later was stamped by a
 * clock ahead of this one (this machine's before it was set back, another machine's running fast).
 * Read on the wall clock, it would be waited out that much longer (an hour set back: an hour). A
 * lease seen unchanged for a whole lease length was not renewed (its owner renews every third):
 * it is over, whatever the clocks say, and is taken over if it is still the one seen
 * (TaskLeases.markStale).
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import type { EngineLease, EngineSharing, TaskEngineOptions } from './engine-types';
import type { TaskLeases } from './task-leases';

/** How often a lease owner of this machine is asked whether it still exists. */
const OWNER_CHECK_MS = 1_000;

export interface ElsewhereTimersDeps {
  readonly clock: Clock;
  readonly options: Pick<TaskEngineOptions, 'leaseMs'>;
  /** The shared history; absent (alone), nothing is ever elsewhere. */
  readonly sharing: EngineSharing | undefined;
  readonly leases: Pick<TaskLeases, 'ownerState' | 'markStale'>;
  readonly isStopped: () => boolean;
  /** The task's lease ended: the timer is already forgotten. */
  readonly onLeaseEnd: (localId: string) => void;
}

/** A task's lease as last read, and how long this process has waited with it unchanged. */
interface Seen {
  readonly lease: EngineLease;
  readonly waitedMs: number;
}

const sameLease = (a: EngineLease, b: EngineLease): boolean =>
  a.owner === b.owner && a.expiresAt === b.expiresAt;

export class ElsewhereTimers {
  private readonly timers = new Map<string, TimerHandle>();
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly deps: ElsewhereTimersDeps) {}

  has(localId: string): boolean {
    return this.timers.has(localId);
  }

  /**
   * Waits for the end of the task's lease (a dead owner's ends now, or when seen dead), one lease
   * length of this process's timers at most (see the file's header).
   */
  watch(localId: string): void {
    const { sharing, clock } = this.deps;
    if (!sharing || this.deps.isStopped() || this.timers.has(localId)) return;
    const { leaseMs } = this.deps.options;
    let endsAt = clock.now();
    let lease: EngineLease | undefined;
    const owner = this.deps.leases.ownerState(localId);
    try {
      if (owner !== 'gone') lease = sharing.leaseOf(localId);
      endsAt = lease?.expiresAt ?? endsAt;
    } catch {
      endsAt += leaseMs / 3;
    }
    const before = this.seen.get(localId);
    const waitedMs = lease && before && sameLease(before.lease, lease) ? before.waitedMs : 0;
    const leftMs = Math.max(0, leaseMs - waitedMs);
    // The lease says it runs longer than a lease length could from here: stamped by a clock ahead.
    const stale = lease !== undefined && endsAt - clock.now() > leftMs;
    // A little after the end, so the owner's clock has passed it too.
    const untilEnd = Math.max(0, Math.min(endsAt - clock.now(), leftMs)) + 50;
    const look = owner === 'alive' && untilEnd > OWNER_CHECK_MS;
    const delay = look ? OWNER_CHECK_MS : untilEnd;
    if (lease) this.seen.set(localId, { lease, waitedMs });
    else this.seen.delete(localId);
    const timer = clock.setTimeout(() => {
      this.timers.delete(localId);
      if (lease) this.seen.set(localId, { lease, waitedMs: waitedMs + delay });
      // Still alive and its lease still running: look again later (it may have been renewed).
      if (look && this.deps.leases.ownerState(localId) === 'alive') return this.watch(localId);
      this.seen.delete(localId);
      if (stale && !look && lease) this.deps.leases.markStale(localId, lease);
      this.deps.onLeaseEnd(localId);
    }, delay);
    this.timers.set(localId, timer);
  }

  stop(localId: string): void {
    this.seen.delete(localId);
    const timer = this.timers.get(localId);
    if (timer === undefined) return;
    this.deps.clock.clearTimeout(timer);
    this.timers.delete(localId);
  }

  stopAll(): void {
    for (const localId of [...this.timers.keys()]) this.stop(localId);
  }
}
