/**
 * Tasks another live Pictor process works on, each with a timer for when its lease ends: the
 * engine then takes the task over if that process died (a live one renews the lease, and the
 * check is made again at the new end). See task-leases.ts.
 *
 * An owner of this machine is looked at again every {@link OWNER_CHECK_MS} too: one killed while
 * its lease runs (a CLI command interrupted, an app that crashed) has its tasks taken over at once
 * rather than up to a whole lease later (45 s). Each look is one read of the lease and one
 * `kill(pid, 0)`; an owner of another machine cannot be asked, and is waited out.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import type { EngineSharing, TaskEngineOptions } from './engine-types';
import type { TaskLeases } from './task-leases';

/** How often a lease owner of this machine is asked whether it still exists. */
const OWNER_CHECK_MS = 1_000;

export interface ElsewhereTimersDeps {
  readonly clock: Clock;
  readonly options: Pick<TaskEngineOptions, 'leaseMs'>;
  /** The shared history; absent (alone), nothing is ever elsewhere. */
  readonly sharing: EngineSharing | undefined;
  readonly leases: Pick<TaskLeases, 'ownerState'>;
  readonly isStopped: () => boolean;
  /** The task's lease ended: the timer is already forgotten. */
  readonly onLeaseEnd: (localId: string) => void;
}

export class ElsewhereTimers {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(private readonly deps: ElsewhereTimersDeps) {}

  has(localId: string): boolean {
    return this.timers.has(localId);
  }

  /** Waits for the end of the task's lease (a dead owner's ends now, or when seen dead). */
  watch(localId: string): void {
    const { sharing, clock } = this.deps;
    if (!sharing || this.deps.isStopped() || this.timers.has(localId)) return;
    let endsAt = clock.now();
    const owner = this.deps.leases.ownerState(localId);
    try {
      if (owner !== 'gone') endsAt = sharing.leaseOf(localId)?.expiresAt ?? endsAt;
    } catch {
      endsAt += this.deps.options.leaseMs / 3;
    }
    // A little after the end, so the owner's clock has passed it too.
    const untilEnd = Math.max(0, endsAt - clock.now()) + 50;
    const look = owner === 'alive' && untilEnd > OWNER_CHECK_MS;
    const timer = clock.setTimeout(
      () => {
        this.timers.delete(localId);
        // Still alive and its lease still running: look again later (it may have been renewed).
        if (look && this.deps.leases.ownerState(localId) === 'alive') this.watch(localId);
        else this.deps.onLeaseEnd(localId);
      },
      look ? OWNER_CHECK_MS : untilEnd,
    );
    this.timers.set(localId, timer);
  }

  stop(localId: string): void {
    const timer = this.timers.get(localId);
    if (timer === undefined) return;
    this.deps.clock.clearTimeout(timer);
    this.timers.delete(localId);
  }

  stopAll(): void {
    for (const localId of [...this.timers.keys()]) this.stop(localId);
  }
}
