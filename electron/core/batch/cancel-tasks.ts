/**
 * "Cancel on the service" for one task or a selection, and "Stop watching" where a service cannot
 * cancel: the window's and the CLI's. The requests go one at a time (a selection of hundreds is
 * never a burst at the service), each reported as it is answered; then every task's next answer
 * from the service is awaited together (the engine polls each at once, whatever the service said
 * to the cancel), and that answer says how it went: canceled, still stopping, finished first (its
 * images are kept), or refused with the service's reason.
 */
import type { CancelOutcomeKind } from '../../../shared/domain/cancel-outcome';
import { canCancel } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { Clock, TimerHandle } from '../../ports/clock';
import type { Disposable } from '../../ports/disposable';
import { EngineInputError, type TaskEngine } from '../engine';
import { ServiceError } from '../service';
import type { ClosingGate } from '../base';
import { UserFacingError } from '../errors';

/** Why a task was not canceled, as the user reads it. */
export interface CancelReason {
  readonly message: string;
  readonly sentence?: Sentence;
  readonly detail?: string;
}

export interface CancelOutcome {
  readonly kind: CancelOutcomeKind;
  readonly localId: string;
  /** The task as it stands after the service's answer; absent for an id the history lacks. */
  readonly record?: TaskRecord;
  readonly reason?: CancelReason;
}

/** The engine's parts a cancel uses. */
export type CancelEngine = Pick<
  TaskEngine,
  'get' | 'cancelOnService' | 'onDidUpdate' | 'live' | 'edit' | 'isAsking'
>;

export interface CancelOptions {
  /** Told after each request: how many of the distinct ids were asked so far, of how many. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Longest wait for a task's next answer after its cancel (the engine polls it at once; a poll
 * that cannot be made, a paused engine, ends the wait here). The task goes on either way.
 */
export const CANCEL_ANSWER_WAIT_MS = 30_000;

/** A cancel asked, waiting for the service's next word on the task. */
interface Asked {
  readonly localId: string;
  readonly accepted: boolean;
  readonly reason?: CancelReason;
  readonly answer: Promise<TaskRecord>;
}

function distinct(localIds: readonly string[]): string[] {
  return [...new Set(localIds)];
}

/** What the user reads of an error (or of a sentence of Pictor's own). */
function reasonOf(said: UserFacingError | Sentence): CancelReason {
  const error = said instanceof UserFacingError ? said : new UserFacingError(said);
  return {
    message: error.message,
    ...(error.sentence ? { sentence: error.sentence } : {}),
    ...(error.detail ? { detail: error.detail } : {}),
  };
}

const NOT_IN_HISTORY = sentence('error.library.taskNotInHistory');
const NOT_NOW = sentence('error.service.cancelNotNow');

export class TaskCancels {
  constructor(
    private readonly engine: CancelEngine,
    private readonly clock: Clock,
    /**
     * The core's closing gate: a cancel or a "Stop watching" asked once the close has begun is
     * refused with its sentence, nothing asked or changed; absent: never refused.
     */
    private readonly gate?: Pick<ClosingGate, 'askNow'>,
  ) {}

  /**
   * Asks the service to cancel each task, one at a time, then waits for each one's next answer.
   * Outcomes come in the order of the distinct ids. Never throws for one task: its outcome says.
   */
  async cancel(localIds: readonly string[], options: CancelOptions = {}): Promise<CancelOutcome[]> {
    const ids = this.asked(() => distinct(localIds));
    const results: (CancelOutcome | Asked)[] = [];
    for (const [index, localId] of ids.entries()) {
      results.push(await this.ask(localId));
      options.onProgress?.(index + 1, ids.length);
    }
    return Promise.all(results.map((result) => ('answer' in result ? settle(result) : result)));
  }

  /**
   * Stops watching each processing task: held as a watch timeout holds it, the id kept for
   * Resume (a service without cancel runs it to its end regardless). Others are skipped.
   */
  stopWatching(localIds: readonly string[]): { records: TaskRecord[]; skipped: number } {
    const ids = this.asked(() => distinct(localIds));
    const records: TaskRecord[] = [];
    for (const localId of ids) {
      const record = this.engine.get(localId);
      if (!record || record.status !== 'processing') continue;
      const at = this.clock.now();
      records.push(
        this.engine.edit(localId, (current) =>
          current.status === 'processing'
            ? { ...current, hold: 'timed_out', stoppedWatchingAt: at }
            : current,
        ),
      );
    }
    return { records, skipped: ids.length - records.length };
  }

  /** `start`, unless the core's close has begun: then the gate's refusal, nothing started. */
  private asked<T>(start: () => T): T {
    return this.gate ? this.gate.askNow(start) : start();
  }

  private async ask(localId: string): Promise<CancelOutcome | Asked> {
    const record = this.engine.get(localId);
    if (!record) return { kind: 'not_running', localId, reason: reasonOf(NOT_IN_HISTORY) };
    if (!canCancel(record))
      return { kind: 'not_running', localId, record, reason: reasonOf(NOT_NOW) };
    const waiting = this.nextAnswer(record);
    try {
      await this.engine.cancelOnService(localId);
      waiting.unlessWatched();
      return { localId, accepted: true, answer: waiting.answer };
    } catch (error) {
      if (error instanceof ServiceError) {
        waiting.unlessWatched();
        return { localId, accepted: false, reason: reasonOf(error), answer: waiting.answer };
      }
      waiting.dispose();
      if (!(error instanceof EngineInputError)) throw error;
      const current = this.engine.get(localId) ?? record;
      return { kind: kindOfLocal(error), localId, record: current, reason: reasonOf(error) };
    }
  }

  /**
   * The task's next answer from the service once it is asked: a poll begun since (counted, or
   * the error it brought), the end of the task, or a hold. `unlessWatched`, called once the
   * service answered the cancel, ends the wait with the record as it is when this engine will not
   * poll the task (another process works on it); so does {@link CANCEL_ANSWER_WAIT_MS}.
   */
  private nextAnswer(before: TaskRecord): AnswerWait {
    const { localId } = before;
    const since = this.clock.now();
    let subscription: Disposable | null = null;
    let timer: TimerHandle | null = null;
    let finish: (record: TaskRecord) => void = () => undefined;
    const dispose = (): void => {
      subscription?.dispose();
      subscription = null;
      if (timer !== null) this.clock.clearTimeout(timer);
      timer = null;
    };
    const answer = new Promise<TaskRecord>((resolve) => {
      finish = (record) => {
        dispose();
        resolve(record);
      };
    });
    // A poll already in flight was sent before the cancel: its answer says nothing of it. (A wait
    // the service holds before a poll is not one: the cancel ends it, and the poll goes out after.)
    const stale = this.engine.isAsking(localId) ? 1 : 0;
    subscription = this.engine.onDidUpdate(({ record }) => {
      if (record.localId === localId && answered(before, record, since, stale)) finish(record);
    });
    const current = (): TaskRecord => this.engine.get(localId) ?? before;
    timer = this.clock.setTimeout(() => finish(current()), CANCEL_ANSWER_WAIT_MS);
    const unlessWatched = (): void => {
      const live = this.engine.live(localId);
      if (subscription && live.nextPollAt === null && !live.polling) finish(current());
    };
    return { answer, dispose, unlessWatched };
  }
}

/** Waiting for a task's next answer (see TaskCancels.nextAnswer). */
interface AnswerWait {
  readonly answer: Promise<TaskRecord>;
  readonly dispose: () => void;
  readonly unlessWatched: () => void;
}

/**
 * The service answered about the task since `before` was read: a poll begun at `since` or later
 * and not the `stale` one already in flight then (an answer to a poll sent before the cancel
 * says nothing of it, even when the clock has not moved since), the task's end, a hold or a
 * failed poll.
 */
function answered(before: TaskRecord, record: TaskRecord, since: number, stale: number): boolean {
  return (
    record.status !== 'processing' ||
    (record.polls > before.polls + stale && (record.lastPolledAt ?? 0) >= since) ||
    (record.hold !== null && record.hold !== before.hold) ||
    (record.error !== null && record.error !== before.error)
  );
}

/** A cancel Pictor did not send: the service has none, the task ended, or no key for it. */
function kindOfLocal(error: EngineInputError): CancelOutcomeKind {
  const key = error.sentence?.key;
  if (key === 'error.service.noCancel') return 'unsupported';
  if (key === 'error.service.cancelNotNow' || key === 'error.library.taskNotInHistory') {
    return 'not_running';
  }
  return 'not_asked';
}

/** How an asked cancel went, from the task's next answer. */
async function settle(asked: Asked): Promise<CancelOutcome> {
  const record = await asked.answer;
  const { localId, reason } = asked;
  const canceled = record.status === 'failed' && record.error?.kind === 'canceled';
  if (canceled) return { kind: 'canceled', localId, record };
  if (record.status !== 'processing') return { kind: 'finished', localId, record };
  if (asked.accepted) return { kind: 'stopping', localId, record };
  return { kind: 'refused', localId, record, ...(reason ? { reason } : {}) };
}
