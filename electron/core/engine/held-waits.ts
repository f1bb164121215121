/**
 * The wait before a poll, where the task's service holds one until the task ends (Replicate's
 * `Prefer: wait`, fal's status stream): the image is on screen when the task ends, not up to an
 * interval later. The poll that follows still reads the task, so a wait that breaks, stalls,
 * says nonsense or says the task ended while the poll finds it running costs nothing but itself:
 * the task is polled, at the usual interval from then on (a wait of no use is not tried again for
 * that task in this process; a restart tries again).
 *
 * A wait this computer's network failed (the machine went to sleep, its network changed or went
 * away: Chromium's `net::ERR_NETWORK_IO_SUSPENDED` and the like) says nothing of the service's
 * wait: the poll follows as after any wait, and the wait is held again at the next interval. Only
 * {@link MOST_INTERRUPTED} such in a row for a task (a network that keeps changing) leave it
 * polled only, so a wait and a poll each interval do not go on for ever.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { ServiceCredentials } from '../../ports/credentials';
import type { EngineContext } from './engine-context';
import type { EngineServiceClient } from './engine-types';
import { serviceRefOf } from './demo-handles';

/**
 * A wait answered sooner than this with the task still running was not held: on the clock nobody
 * sets (the engine clock's `monotonic`), so a wall clock set back during a hold is no early answer.
 */
const EARLY_MS = 1_000;
/** Waits held open at once, per engine. */
const MAX_OPEN = 4;
/** Waits of a task this computer's network failed in a row, past which the task is polled only. */
const MOST_INTERRUPTED = 3;

/** How long to hold: the option, cut to what is left of the watch; null when nothing is. */
function holdFor(heldWaitMs: number | null, deadline: number | null, now: number): number | null {
  if (heldWaitMs === null) return null;
  if (deadline === null) return heldWaitMs;
  const left = deadline - now;
  return left > 0 ? Math.min(heldWaitMs, left) : null;
}

export class HeldWaits {
  /** The wait open for each task, ended when the task stops being watched. */
  private readonly open = new Map<string, AbortController>();
  /** Tasks whose service's wait was of no use: polled only. */
  private readonly broken = new Set<string>();
  /** Tasks whose next poll goes without a wait (see {@link interrupt}). */
  private readonly unheld = new Set<string>();
  /** Tasks whose last wait said they ended: the poll after it says whether that was true. */
  private readonly saidEnded = new Set<string>();
  /** Tasks whose last waits this computer's network failed, and how many in a row. */
  private readonly interrupted = new Map<string, number>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly client: EngineServiceClient,
  ) {}

  /**
   * Holds the wait, where the service has one, until the task ends, the hold passes, the wait
   * breaks or the task stops being watched; never throws. A `waiting` answer within a second (or
   * half the hold) is a service that does not hold (it ignored `Prefer: wait`): no use either.
   */
  async before(
    record: TaskRecord,
    credentials: ServiceCredentials,
    deadline: number | null,
  ): Promise<void> {
    const { localId } = record;
    // Never held past the task's watch deadline (the user's polling timeout, the CLI's
    // --timeout): the poll after the wait is the one that finds the watch over.
    const holdMs = holdFor(this.ctx.options.heldWaitMs, deadline, this.ctx.clock.now());
    // What an earlier wait said is judged by the poll after it, never by a later one.
    this.saidEnded.delete(localId);
    if (this.unheld.delete(localId)) return;
    if (holdMs === null || !this.client.waitForEnd || this.broken.has(localId)) return;
    // Each open wait holds a connection: past a few, tasks are polled (the app's fetch keeps 6
    // connections per host, which its polls, submits and downloads need as well).
    if (this.open.size >= MAX_OPEN) return;
    const controller = new AbortController();
    this.open.set(localId, controller);
    // On the engine clock's timers' time, as the hold is (the client's time limit is a timer of
    // the same clock), never its wall time: one set back (NTP, the user) during the hold read as
    // an answer at once, and the task was polled only until a restart.
    const startedAt = this.ctx.clock.monotonic();
    try {
      const outcome = await this.client.waitForEnd(
        credentials,
        serviceRefOf(record, credentials.baseUrl),
        holdMs,
        AbortSignal.any([this.ctx.signal, controller.signal]),
      );
      const early = this.ctx.clock.monotonic() - startedAt < Math.min(holdMs / 2, EARLY_MS);
      if (outcome === 'interrupted') return this.onInterrupted(localId);
      this.interrupted.delete(localId);
      if (outcome === 'ended') this.saidEnded.add(localId);
      if (outcome === 'broken' || (outcome === 'waiting' && early)) {
        this.broken.add(localId);
        this.ctx.logger.debug('held wait of no use; polling', { localId, outcome });
      }
    } catch {
      // Ended by a stop or a cancel: the poll after it sees why.
    } finally {
      if (this.open.get(localId) === controller) this.open.delete(localId);
    }
  }

  /** This computer's network failed the task's wait: held again next time, a few times in a row. */
  private onInterrupted(localId: string): void {
    const times = (this.interrupted.get(localId) ?? 0) + 1;
    this.interrupted.set(localId, times);
    this.ctx.logger.debug('held wait cut by the network; polling', { localId, times });
    if (times < MOST_INTERRUPTED) return;
    this.interrupted.delete(localId);
    this.broken.add(localId);
  }

  /**
   * The poll after the wait found the task still running. A wait that said it ended was false
   * (a lying or confused service, an end told for another task): of no use, as a broken one, so
   * each interval costs the service one request, not a wait and a poll.
   */
  stillRunning(localId: string): void {
    if (!this.saidEnded.delete(localId)) return;
    this.broken.add(localId);
    this.ctx.logger.debug('held wait said the task ended; it runs: polling', { localId });
  }

  /**
   * A poll of the task is wanted now (a cancel was asked): its open wait ends, or the next one is
   * not held, and that poll goes out at once. The service's wait stays in use for the task after.
   */
  interrupt(localId: string): void {
    const open = this.open.get(localId);
    if (open) open.abort();
    else this.unheld.add(localId);
  }

  /** Every open wait ends (the engine pauses: nothing may be held open through it). */
  interruptAll(): void {
    for (const controller of this.open.values()) controller.abort();
  }

  /** True while the task's wait is held (its poll is not sent yet). */
  isOpen(localId: string): boolean {
    return this.open.has(localId);
  }

  /**
   * The task is no longer watched (canceled, removed, finished, held, stopped): its wait ends
   * now, and a later watch (a resume) tries the service's wait again.
   */
  end(localId: string): void {
    this.open.get(localId)?.abort();
    this.open.delete(localId);
    this.broken.delete(localId);
    this.unheld.delete(localId);
    this.saidEnded.delete(localId);
    this.interrupted.delete(localId);
  }
}
