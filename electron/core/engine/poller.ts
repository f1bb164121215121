/**
 * Polls processing tasks: one request in flight per task, every interval at a phase the planner
 * spreads, backing off on transient errors, holding (never failing) a task the current key
 * cannot see, and stopping at the watch timeout without forgetting the id.
 */
import type { LiveState } from '../../../shared/domain/live-state';
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import type { CompletedTask, ServiceTask } from '../../../shared/service/wire';
import type { TimerHandle } from '../../ports/clock';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import { credentialsForRecord } from '../credentials';
import { ServiceError } from '../service';
import type { EngineContext } from './engine-context';
import type { EngineServiceClient } from './engine-types';
import { PollStamps } from './poll-stamps';
import { PollPlanner } from './poll-planner';
import { HeldWaits } from './held-waits';
import type { TaskWork } from './engine-work';
import { sentence } from '../../../shared/i18n/sentence';
import { endedByService, saying, toTaskError } from './task-transitions';
import { withAnswerCost } from './task-costs';
import { serviceRefOf } from './demo-handles';
import { watchCountedFromNow, watchDeadline } from './watch-deadline';
import { withResultLifetime } from './result-expiry';

// Made when needed: its English text would build the catalogue at every start of the CLI.
const awaitingKey = (): TaskError => saying('auth', sentence('error.library.otherAccountTask'));

/**
 * How far a processing task is, as its service said at the last poll: the percent done, and the
 * tasks ahead of it in the service's queue (0: next). Each only while the service says it.
 */
export type ServiceSaid = Pick<LiveState, 'progress' | 'queuePosition'>;

export class Poller implements TaskWork {
  private readonly planner: PollPlanner;
  private readonly timers = new Map<string, TimerHandle>();
  private readonly due = new Map<string, number>();
  private readonly polling = new Set<string>();
  private readonly failures = new Map<string, number>();
  /** When this poller last sent each task's poll. */
  private readonly sent: PollStamps;
  /** How far each task is, as its service last said (only services that say). */
  private readonly said = new Map<string, ServiceSaid>();
  /** The waits services hold until a task ends, before its poll. */
  private readonly held: HeldWaits;
  /** Ends each poll request out, when the machine wakes ({@link wake}). */
  private readonly asking = new Map<string, AbortController>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly client: EngineServiceClient,
    private readonly credentials: CredentialsProvider,
    /** Records the completed task; rejects when its inline images could not be kept. */
    private readonly onCompleted: (record: TaskRecord, task: CompletedTask) => Promise<void>,
  ) {
    this.planner = new PollPlanner(ctx.options.pollIntervalMs);
    this.sent = new PollStamps(
      ctx.options.pollIntervalMs,
      (localId) => this.timers.has(localId) || this.polling.has(localId),
    );
    this.held = new HeldWaits(ctx, client);
  }

  /** Whether a task waits for its poll or is being polled (the sleep watch ticks only then). */
  isWorking(): boolean {
    return this.due.size + this.polling.size > 0;
  }

  /**
   * Starts (or restarts) polling: after one interval for a new task, within one for a resumed one;
   * never sooner than one interval after the task's last poll, by this process or another (its
   * record's `lastPolledAt`), so a resume at any point of a cycle keeps the service's cadence.
   */
  watch(record: TaskRecord, when: 'interval' | 'soon'): void {
    const now = this.ctx.clock.now();
    const earliest = when === 'interval' ? now + this.ctx.options.pollIntervalMs : now;
    this.schedule(record.localId, this.planner.place(record.localId, earliest));
  }

  /**
   * Back from sleep or offline: every waiting task polls within the next interval, spread out. A
   * request out through the sleep may never be answered (its connection died meanwhile: Node's
   * fetch waits for the time limit, 30 s, then backs off), and a wait held open through it was
   * on such a connection: both end now, and their tasks are placed as the waiting ones are.
   */
  wake(): void {
    const waiting = [...this.due.keys()];
    for (const localId of waiting) this.failures.delete(localId);
    const times = this.planner.placeAll(waiting, this.ctx.clock.now());
    for (const [localId, at] of times) this.schedule(localId, at);
    this.held.interruptAll();
    const now = this.ctx.clock.now();
    for (const [localId, asking] of this.asking) {
      const out = now - (this.sent.get(localId) ?? now);
      if (out >= this.ctx.options.pollIntervalMs) asking.abort();
    }
  }

  forget(localId: string): void {
    const timer = this.timers.get(localId);
    if (timer) this.ctx.clock.clearTimeout(timer);
    this.timers.delete(localId);
    this.due.delete(localId);
    this.failures.delete(localId);
    this.said.delete(localId);
    this.held.end(localId);
    this.planner.release(localId);
    this.sent.release(localId, this.ctx.clock.now());
  }

  /**
   * The task's next poll goes out without a wait held before it (a cancel was asked: its outcome
   * is read now); a wait held now ends, and the poll after it goes out at once (the wait began an
   * interval after the last poll, as every poll does).
   */
  askNext(localId: string): void {
    this.held.interrupt(localId);
  }

  /** Ends the waits held before polls: the engine pauses, and the polls after them do not go. */
  holdNothing(): void {
    this.held.interruptAll();
  }

  stopAll(): void {
    for (const localId of [...this.timers.keys()]) this.forget(localId);
  }

  nextPollAt(localId: string): number | null {
    return this.due.get(localId) ?? null;
  }

  /** True while the task is being checked: a poll out, or the service's wait held before it. */
  isPolling(localId: string): boolean {
    return this.polling.has(localId);
  }

  /** True while a poll request of the task is out (not while only the wait before it is held). */
  isAsking(localId: string): boolean {
    return this.polling.has(localId) && !this.held.isOpen(localId);
  }

  /** How far the task is, as its service last said at its last poll; empty when it said nothing. */
  saidOf(localId: string): ServiceSaid {
    return this.said.get(localId) ?? {};
  }

  /**
   * The earliest time the task may be polled again: one interval after its last poll. A last poll
   * later than now was stamped before the wall clock was set back (NTP, the user, a time zone set
   * wrong and corrected; here or in the process that polled it): it is read as now, so the task
   * waits one interval, not the hours the clock went back.
   */
  private earliestPoll(localId: string, record: TaskRecord | undefined): number {
    const last = Math.max(this.sent.get(localId) ?? -Infinity, record?.lastPolledAt ?? -Infinity);
    return Math.min(last, this.ctx.clock.now()) + this.ctx.options.pollIntervalMs;
  }

  private schedule(localId: string, wanted: number): void {
    const old = this.timers.get(localId);
    if (old) this.ctx.clock.clearTimeout(old);
    const record = this.ctx.get(localId);
    const at = Math.max(wanted, this.earliestPoll(localId, record));
    this.due.set(localId, at);
    this.ctx.watchSleep();
    const deadline = record ? this.deadlineOf(record) : null;
    const fireAt = deadline === null ? at : Math.min(at, deadline);
    const delay = Math.max(0, fireAt - this.ctx.clock.now());
    this.timers.set(
      localId,
      this.ctx.clock.setTimeout(() => this.fire(localId), delay),
    );
  }

  private fire(localId: string): void {
    this.timers.delete(localId);
    // A poll of it is still out: its answer schedules the next one.
    if (this.polling.has(localId)) return;
    const stored = this.ctx.get(localId);
    if (
      !stored ||
      stored.status !== 'processing' ||
      stored.hold !== null ||
      this.ctx.isStopped() ||
      this.ctx.isPaused() ||
      !this.ctx.owns(localId)
    ) {
      this.forget(localId);
      return;
    }
    const now = this.ctx.clock.now();
    const counted = watchCountedFromNow(stored, this.ctx.options.watchTimeoutMs, now);
    const record = counted === null ? stored : this.ctx.commit(counted);
    const deadline = this.deadlineOf(record);
    if (deadline !== null && now >= deadline) {
      this.forget(localId);
      this.ctx.commit({ ...record, hold: 'timed_out' });
      this.ctx.logger.info('watch timed out', { localId, taskId: record.taskId });
      return;
    }
    const due = this.due.get(localId) ?? now;
    if (now - due > this.ctx.options.pollIntervalMs) {
      // Woken far too late (the machine slept): spread out instead of polling in one burst.
      this.schedule(localId, this.planner.place(localId, now));
      return;
    }
    this.ctx.runInBackground(this.poll(record, due));
  }

  private async poll(record: TaskRecord, due: number): Promise<void> {
    const { localId } = record;
    this.due.delete(localId);
    this.polling.add(localId);
    try {
      const found = await credentialsForRecord(this.credentials, record);
      if (!found.ok) return this.hold(record, 'awaiting_key', found.error);
      const { credentials } = found;
      if (!(await this.waitHeld(record, credentials))) return;
      const startedAt = this.ctx.clock.now();
      this.sent.set(localId, startedAt);
      const asking = new AbortController();
      this.asking.set(localId, asking);
      try {
        const task = await this.client.getTask(
          credentials,
          serviceRefOf(record, credentials.baseUrl),
          AbortSignal.any([this.ctx.signal, asking.signal]),
        );
        const current = this.ctx.get(localId);
        if (!current || this.ctx.isStopped()) return this.countStopped(localId, startedAt);
        this.failures.delete(localId);
        const counted = {
          ...withAnswerCost(current, task, this.ctx.logger),
          // What the service says it used, as it last said it (a task may report it late).
          ...(task.reportedModel === undefined ? {} : { reportedModel: task.reportedModel }),
          // The seed the images were made with, where the service says it (a completed answer).
          ...(task.status === 'completed' && task.seed !== undefined ? { seed: task.seed } : {}),
          polls: current.polls + 1,
          lastPolledAt: startedAt,
          error: null,
        };
        if (task.status === 'processing') {
          this.held.stillRunning(localId);
          this.polling.delete(localId);
          this.remember(localId, task);
          // The same phase in the next interval; a phase planned before the clock was set back
          // is read as now (see earliestPoll).
          const now = this.ctx.clock.now();
          this.schedule(
            localId,
            Math.max(now, Math.min(due, now) + this.ctx.options.pollIntervalMs),
          );
          this.ctx.commit(counted);
        } else if (task.status === 'completed') {
          this.forget(localId);
          // A failure here (inline images not kept) is handled as a failed poll: asked again.
          await this.onCompleted(withResultLifetime(counted, this.ctx.clock.now()), task);
        } else {
          this.fail(counted, task);
        }
      } catch (error) {
        if (this.ctx.isStopped()) return this.countStopped(localId, startedAt);
        if (asking.signal.aborted) return this.askAgain(localId, startedAt);
        this.onError(localId, credentials, error, startedAt);
      } finally {
        this.asking.delete(localId);
      }
    } finally {
      this.polling.delete(localId);
    }
  }

  /**
   * A poll ended on waking (it may have reached the service, so it counts): not a failure, the
   * task is placed as the waiting ones, one interval after that poll at the soonest.
   */
  private askAgain(localId: string, startedAt: number): void {
    this.polling.delete(localId);
    this.countStopped(localId, startedAt);
    if (this.ctx.get(localId))
      this.schedule(localId, this.planner.place(localId, this.ctx.clock.now()));
  }

  /**
   * The wait the task's service holds until it ends, before the poll (held-waits.ts); false when
   * the task stopped being one to poll meanwhile (canceled, removed, held, the engine stopped).
   */
  private async waitHeld(record: TaskRecord, credentials: ServiceCredentials): Promise<boolean> {
    await this.held.before(record, credentials, this.deadlineOf(record));
    const current = this.ctx.get(record.localId);
    return (
      current !== undefined &&
      current.status === 'processing' &&
      current.hold === null &&
      !this.ctx.isStopped() &&
      !this.ctx.isPaused() &&
      this.ctx.owns(record.localId)
    );
  }

  /**
   * A poll the engine's stop cut short may have reached the service: its time is recorded all
   * the same (written as the engine stops), so the process that carries on keeps the interval.
   */
  private countStopped(localId: string, startedAt: number): void {
    const record = this.ctx.get(localId);
    if (!record || (record.lastPolledAt ?? -Infinity) >= startedAt) return;
    this.ctx.commit({ ...record, polls: record.polls + 1, lastPolledAt: startedAt });
  }

  /** What a processing task's service said of it this time: what it no longer says is dropped. */
  private remember(localId: string, task: Extract<ServiceTask, { status: 'processing' }>): void {
    const { progress, queuePosition } = task;
    const said: ServiceSaid = {
      ...(progress === undefined ? {} : { progress }),
      ...(queuePosition === undefined ? {} : { queuePosition }),
    };
    if (Object.keys(said).length === 0) this.said.delete(localId);
    else this.said.set(localId, said);
  }

  /** The service ended the task without results: failed, moderated or canceled. */
  private fail(record: TaskRecord, task: Extract<ServiceTask, { status: 'failed' }>): void {
    this.forget(record.localId);
    this.ctx.commit(endedByService(record, task, this.ctx.clock.now()));
    this.ctx.logger.info('task failed', { localId: record.localId, taskId: record.taskId });
  }

  private onError(
    localId: string,
    credentials: ServiceCredentials,
    error: unknown,
    startedAt: number,
  ): void {
    const record = this.ctx.get(localId);
    if (!record) return;
    const reached =
      !(error instanceof ServiceError) ||
      error.httpStatus !== undefined ||
      error.mayHaveReachedService;
    const counted = reached
      ? { ...record, polls: record.polls + 1, lastPolledAt: startedAt }
      : record;
    const ownKey = credentials.keyFingerprint === record.account;
    const kind = error instanceof ServiceError ? error.kind : 'protocol';
    if (kind === 'auth' && ownKey) return this.holdTasksOfKey(counted, toTaskError(error));
    if (kind === 'auth' || (kind === 'not_found' && !ownKey))
      return this.hold(counted, 'awaiting_key', awaitingKey());
    if (kind === 'config') return this.hold(counted, 'awaiting_key', toTaskError(error));
    if (kind === 'not_found') {
      this.forget(localId);
      this.ctx.commit({
        ...counted,
        status: 'not_found',
        finishedAt: this.ctx.clock.now(),
        error: saying('not_found', sentence('error.library.taskNotFound')),
      });
      return;
    }
    const failures = (this.failures.get(localId) ?? 0) + 1;
    this.failures.set(localId, failures);
    const retryAfter = error instanceof ServiceError ? error.retryAfterMs : undefined;
    const at = this.ctx.clock.now() + this.ctx.backoff(failures, retryAfter);
    this.polling.delete(localId);
    this.schedule(localId, this.planner.place(localId, at));
    this.ctx.commit({ ...counted, error: toTaskError(error) });
    this.ctx.logger.warn('poll failed; backing off', { localId, kind, failures });
  }

  private hold(record: TaskRecord, hold: 'awaiting_key' | 'key_rejected', error: TaskError): void {
    this.forget(record.localId);
    this.ctx.commit({ ...record, hold, error });
    this.ctx.logger.info('task on hold', { localId: record.localId, hold });
  }

  /** 401/403 to the key that created the task: every task that key created waits for a new key. */
  private holdTasksOfKey(record: TaskRecord, error: TaskError): void {
    this.hold(record, 'key_rejected', error);
    for (const localId of [...this.due.keys()]) {
      const other = this.ctx.get(localId);
      if (other && other.endpoint === record.endpoint && other.account === record.account) {
        this.hold(other, 'key_rejected', error);
      }
    }
  }

  private deadlineOf(record: TaskRecord): number | null {
    return watchDeadline(record, this.ctx.options.watchTimeoutMs);
  }
}
