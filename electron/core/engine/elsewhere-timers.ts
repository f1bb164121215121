/**
 * Tasks another live Pictor process works on, each with a timer for when its lease ends: the
 * engine then takes the task over if that process died (a live one renews the lease, and the
 * check is made again at the new end). See task-leases.ts.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import type { EngineSharing, TaskEngineOptions } from './engine-types';
import type { TaskLeases } from './task-leases';

export interface ElsewhereTimersDeps {
  readonly clock: Clock;
  readonly options: Pick<TaskEngineOptions, 'leaseMs'>;
  /** The shared history; absent (alone), nothing is ever elsewhere. */
  readonly sharing: EngineSharing | undefined;
  readonly leases: Pick<TaskLeases, 'ownerIsGone'>;
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

  /** Waits for the end of the task's lease (a dead owner's ends now). */
  watch(localId: string): void {
    const { sharing, clock } = this.deps;
    if (!sharing || this.deps.isStopped() || this.timers.has(localId)) return;
    let endsAt = clock.now();
    try {
      if (!this.deps.leases.ownerIsGone(localId))
        endsAt = sharing.leaseOf(localId)?.expiresAt ?? endsAt;
    } catch {
      endsAt += this.deps.options.leaseMs / 3;
    }
    // A little after the end, so the owner's clock has passed it too.
    const delay = Math.max(0, endsAt - clock.now()) + 50;
    const timer = clock.setTimeout(() => {
      this.timers.delete(localId);
      this.deps.onLeaseEnd(localId);
    }, delay);
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
