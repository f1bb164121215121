/**
 * Which process works on a task. The history is shared by the app and any number of CLI
 * commands; a task is polled (and its images downloaded) only by the process owning its lease:
 * an owner and an expiry in the history, renewed every third of {@link TaskEngineOptions.leaseMs}
 * while the process lives. A process that dies stops renewing, and another one takes the task
 * over once the lease has ended: never while it runs, so no task is polled by two at once.
 *
 * A lease whose owner is a process of this machine that no longer exists (killed, crashed: its
 * pid is gone, or given since to a process of another start) is taken over at once rather than
 * at its end, so a restarted app carries on straight away, and a process waiting for another's
 * lease looks again every few moments (elsewhere-timers.ts). Where the system tells no start
 * (macOS, Windows; an owner an older Pictor named), a pid reused by another process only means
 * waiting for the end, never more; an owner of another machine is always waited out
 * (process-owner.ts), for one lease length of this process's timers at most, whatever the wall
 * clocks say (elsewhere-timers.ts).
 *
 * A write the history refuses (a full disk) keeps what this process had: another process would
 * need a write on the same file to take a task over, and the next renewal writes the lease.
 */
import { randomUUID } from 'node:crypto';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TimerHandle } from '../../ports/clock';
import { ownerName, ownerNameState } from '../fs';
import type { EngineContext } from './engine-context';
import type { EngineLease, EngineSharing } from './engine-types';
import { errorKind } from './error-kind';
import type { EngineRecordsDeps } from './engine-records';

type LeaseContext = Pick<EngineContext, 'clock' | 'logger' | 'options'>;

export class TaskLeases {
  /**
   * This engine: its process (to tell a dead owner: process-owner.ts), and a random part, so no
   * other engine's name is ever its own (a pid given again where no start is told; two engines).
   */
  readonly owner = ownerName(randomUUID());
  private readonly mine = new Set<string>();
  /** Tasks taken from an owner that never let go ({@link mayHaveUnwrittenPoll}). */
  private readonly leftBehind = new Set<string>();
  /** Leases seen unchanged for a whole lease length, whatever their expiry said ({@link markStale}). */
  private readonly stale = new Map<string, EngineLease>();
  private timer: TimerHandle | null = null;

  constructor(
    private readonly ctx: LeaseContext,
    private readonly sharing: EngineSharing | undefined,
    /** Leases another process took over (this one stopped renewing in time, e.g. suspended). */
    private readonly onLost: (localIds: string[]) => void,
  ) {}

  /** False when the engine is alone with its history (tests): every task is its own. */
  get shared(): boolean {
    return this.sharing !== undefined;
  }

  /** The expiry of a lease granted now. */
  until(): number {
    return this.ctx.clock.now() + this.ctx.options.leaseMs;
  }

  isMine(localId: string): boolean {
    return this.sharing === undefined || this.mine.has(localId);
  }

  /** Leases the tasks that are free, expired or this engine's already; returns those. */
  claim(localIds: readonly string[]): string[] {
    const sharing = this.sharing;
    if (sharing === undefined || localIds.length === 0) return [...localIds];
    const now = this.ctx.clock.now();
    let claimed: string[];
    try {
      const others = this.othersLeases(sharing, localIds);
      claimed = sharing.claimLeases(localIds, this.owner, now, this.until());
      for (const localId of claimed) if (others.has(localId)) this.leftBehind.add(localId);
      if (claimed.length < localIds.length) {
        const taken = new Set(claimed);
        claimed.push(
          ...localIds.filter(
            (localId) =>
              !taken.has(localId) &&
              (this.takeFromDead(sharing, localId) || this.takeStale(sharing, localId)),
          ),
        );
      }
    } catch (error) {
      // No write possible: nobody can take a lease over either. Work on the tasks nobody owns;
      // the next renewal writes their leases.
      this.ctx.logger.warn('could not write task leases', { reason: errorKind(error) });
      claimed = localIds.filter((localId) => this.claimable(sharing, localId, now));
    }
    this.adopt(claimed);
    return claimed;
  }

  /** Tasks leased to this engine by the write that created them. */
  adopt(localIds: readonly string[]): void {
    if (this.sharing === undefined) return;
    for (const localId of localIds) this.mine.add(localId);
    if (this.mine.size > 0 && this.timer === null) this.scheduleRenewal();
  }

  /**
   * Whether this engine may work on the task now: it owns the lease, with at least a third of
   * its time left (a request started now ends well before anyone could take it over). A lease
   * nearer its end is renewed on the spot.
   */
  owns(localId: string): boolean {
    const sharing = this.sharing;
    if (sharing === undefined) return true;
    if (!this.mine.has(localId)) return false;
    const now = this.ctx.clock.now();
    try {
      const lease = sharing.leaseOf(localId);
      if (lease?.owner === this.owner && lease.expiresAt - now >= this.ctx.options.leaseMs / 3)
        return true;
    } catch {
      // Unreadable for now: claiming below says whether it is ours.
    }
    if (this.claim([localId]).length > 0) return true;
    this.lose([localId]);
    return false;
  }

  /**
   * {@link release}'s lease row ended inside the history write transaction this is called in (the
   * task's last write: EngineRecords.letGoWithin), on the same store: one commit for both. True
   * when it was; the release that follows the committed write is then told so and only forgets
   * the task here. A failed delete is left to that release (the write goes on without it).
   */
  endWithin(localId: string): boolean {
    if (!this.mine.has(localId) || this.sharing === undefined) return false;
    try {
      this.sharing.releaseLeases(this.owner, [localId]);
      return true;
    } catch {
      return false;
    }
  }

  /** This engine is done with the task: another process may take it at once. */
  release(localId: string, rowEnded = false): void {
    this.leftBehind.delete(localId);
    if (!this.mine.delete(localId) || this.sharing === undefined) return;
    // Its row already ended in the task's last write ({@link endWithin}): nothing to write.
    if (!rowEnded) {
      try {
        this.sharing.releaseLeases(this.owner, [localId]);
      } catch (error) {
        // It simply expires.
        this.ctx.logger.warn('could not end a task lease', { reason: errorKind(error) });
      }
    }
    if (this.mine.size === 0) this.cancelRenewal();
  }

  /** At stop: every lease ends, so another process carries on without waiting for expiry. */
  releaseAll(): void {
    this.cancelRenewal();
    if (this.sharing === undefined) return;
    this.mine.clear();
    try {
      this.sharing.releaseLeases(this.owner);
    } catch (error) {
      this.ctx.logger.warn('could not end the task leases', { reason: errorKind(error) });
    }
  }

  /**
   * What is known of the process owning the task's lease: `gone` (a process of this machine that
   * no longer exists), `alive`, or `unknown` (another machine's, no lease, or none readable).
   */
  ownerState(localId: string): 'gone' | 'alive' | 'unknown' {
    try {
      const lease = this.sharing?.leaseOf(localId);
      return lease === undefined ? 'unknown' : ownerNameState(lease.owner);
    } catch {
      return 'unknown';
    }
  }

  /**
   * Whether the task, polled before, was taken from a process that ended without letting it go
   * (crashed, killed, suspended past its lease): that process's last poll may be later than the
   * one on disk (a poll's bookkeeping is written later, bookkeeping-writes.ts), so the task is
   * not polled before one interval from now. A task never polled has had its first poll written
   * at once if it had one. Said once per take-over.
   */
  mayHaveUnwrittenPoll(record: TaskRecord): boolean {
    return this.leftBehind.delete(record.localId) && record.lastPolledAt !== null;
  }

  /** The tasks among `localIds` whose lease another owner holds (expired or not). */
  private othersLeases(sharing: EngineSharing, localIds: readonly string[]): Set<string> {
    return new Set(
      localIds.filter((localId) => {
        const owner = sharing.leaseOf(localId)?.owner;
        return owner !== undefined && owner !== this.owner;
      }),
    );
  }

  /**
   * The task's lease, as `seen`, was not renewed for a whole lease length of this process's timers
   * though it said it ran on (stamped by a clock ahead of this one): the next claim of the task
   * takes it over if it is still that lease (elsewhere-timers.ts).
   */
  markStale(localId: string, seen: EngineLease): void {
    this.stale.set(localId, seen);
  }

  /**
   * Takes a lease marked stale, if it is still the one seen (not renewed since; one process wins).
   * The history's take-over checks the owner and the expiry in the write itself, so a renewal
   * landing between this read and that write keeps the lease with its owner.
   */
  private takeStale(sharing: EngineSharing, localId: string): boolean {
    const seen = this.stale.get(localId);
    this.stale.delete(localId);
    const lease = seen && sharing.leaseOf(localId);
    if (!seen || !lease || lease.owner !== seen.owner || lease.expiresAt !== seen.expiresAt)
      return false;
    const taken = sharing.takeOverLease(localId, lease, this.owner, this.until());
    if (taken) this.leftBehind.add(localId);
    return taken;
  }

  /** Takes the lease of a dead owner, if it is still that owner's (one process wins). */
  private takeFromDead(sharing: EngineSharing, localId: string): boolean {
    const lease = sharing.leaseOf(localId);
    if (lease === undefined || ownerNameState(lease.owner) !== 'gone') return false;
    const taken = sharing.takeOverLease(localId, lease, this.owner, this.until());
    if (taken) this.leftBehind.add(localId);
    return taken;
  }

  private claimable(sharing: EngineSharing, localId: string, now: number): boolean {
    try {
      const lease = sharing.leaseOf(localId);
      return lease === undefined || lease.owner === this.owner || lease.expiresAt <= now;
    } catch {
      return this.mine.has(localId);
    }
  }

  private scheduleRenewal(): void {
    this.timer = this.ctx.clock.setTimeout(() => this.renew(), this.ctx.options.leaseMs / 3);
  }

  private cancelRenewal(): void {
    if (this.timer !== null) this.ctx.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Extends every lease this engine owns (re-creating any a refused write never stored). */
  private renew(): void {
    this.timer = null;
    const leased = [...this.mine];
    if (leased.length === 0 || this.sharing === undefined) return;
    try {
      const kept = new Set(
        this.sharing.claimLeases(leased, this.owner, this.ctx.clock.now(), this.until()),
      );
      const lost = leased.filter((localId) => !kept.has(localId));
      if (lost.length > 0) this.lose(lost);
    } catch (error) {
      this.ctx.logger.warn('could not renew task leases', { reason: errorKind(error) });
    }
    if (this.mine.size > 0) this.scheduleRenewal();
  }

  private lose(localIds: string[]): void {
    for (const localId of localIds) this.mine.delete(localId);
    if (this.mine.size === 0) this.cancelRenewal();
    this.ctx.logger.warn('another Pictor process took over tasks', { count: localIds.length });
    this.onLost(localIds);
  }
}

/**
 * EngineRecords' hooks that let a task go: its lease released after its last write, or, where the
 * leases are kept in the very store the records are written to (one connection: the app's and
 * the CLI's core), ended inside that write ({@link TaskLeases.endWithin}).
 */
export function letGoHooks(
  leases: () => TaskLeases,
  deps: { readonly history: unknown; readonly sharing?: unknown },
): Pick<EngineRecordsDeps, 'letGo' | 'letGoWithin'> {
  return {
    letGo: (localId, leaseEnded) => leases().release(localId, leaseEnded),
    letGoWithin:
      deps.sharing === deps.history ? (localId) => leases().endWithin(localId) : undefined,
  };
}
