/**
 * Sends a stored task's one submit request. The record is already in the history; the service's
 * id is written the moment it arrives and the task is then polled. A submit is never sent again
 * once it may have reached the service: each attempt is marked `sent` on disk before it leaves
 * (send-mark.ts), only a refusal with 429 (nothing created) is retried, after the backoff the
 * service asked for, and any other failure is recorded as it stands.
 */
import { providerOf } from '../../../shared/domain/providers';
import type { LiveState } from '../../../shared/domain/live-state';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { GenerationRequest } from '../../../shared/service/wire';
import { sentence } from '../../../shared/i18n/sentence';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import { profileOf, type SentInputs, ServiceError } from '../service';
import type { EngineContext } from './engine-context';
import {
  EngineInputError,
  type EngineHistory,
  type EngineInputs,
  type EngineServiceClient,
} from './engine-types';
import { errorKind } from './error-kind';
import type { Poller } from './poller';
import { batchNotSent, submitFailure } from './task-transitions';
import { withAnswerCost } from './task-costs';
import { SubmitSlots } from './submit-slots';
import { markSent, type MarkedRecords } from './send-mark';
import { runningAlongside, type RoomRecords } from './submit-room';
import { holderOfId, idOfAnotherTask } from './answered-id';

const NO_KEY = sentence('error.library.noKeyForSubmit');

type SubmitAnswer = Awaited<ReturnType<EngineServiceClient['submit']>>;

/** Refusals of one request's own content: another request of the batch may still be taken. */
const REQUEST_REFUSALS: ReadonlySet<string> = new Set(['moderated', 'bad_request']);

function sameRequest(a: GenerationRequest, b: GenerationRequest): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class Submitter {
  constructor(
    private readonly ctx: EngineContext,
    /**
     * The service's client, whose keys, what makes a task's input images ready to travel
     * (absent: a task with inputs is not sent), and the history (which task holds an id).
     */
    private readonly service: {
      readonly client: EngineServiceClient;
      readonly credentials: CredentialsProvider;
      readonly inputs?: EngineInputs | undefined;
      readonly history: Pick<EngineHistory, 'getByTaskId'>;
    },
    /** Polls an accepted task. */
    private readonly poller: Pick<Poller, 'watch'>,
    /** The engine's live records (a task's is undefined once it was removed). */
    private readonly records: MarkedRecords & RoomRecords,
  ) {}

  /** Submits under way, by local id. */
  private readonly sending = new Set<string>();
  /** Tasks waiting for room at their service: how many of their key's tasks run there. */
  private readonly waiting = new Map<string, number>();
  /** At most a few submit requests out to one address at once (submit-slots.ts). */
  private readonly slots = new SubmitSlots();
  /** Each task's submit under way (see {@link run}). */
  private readonly runs = new Map<string, Promise<TaskRecord | undefined>>();

  private liveRecord(localId: string): TaskRecord | undefined {
    return this.records.liveRecord(localId);
  }

  /**
   * Waits while the service already runs as many of this key's tasks as its provider allows at
   * once (BFL: 24), so a large batch queues here instead of being refused with 429s. Counted
   * (submit-room.ts): this key's tasks at that service this engine still polls, and submits under
   * way; a removed or held task, never polled again, gives its place up. While it waits, the
   * task's live view says how many run ({@link roomOf}).
   */
  private async waitForRoom(record: TaskRecord): Promise<void> {
    const cap = profileOf(record.provider).maxInFlight;
    if (cap === null) return;
    for (;;) {
      const running = runningAlongside(record, this.records, this.sending);
      // A task removed meanwhile gives its turn up: its mark finds it gone and sends nothing.
      if (running < cap || this.ctx.isStopped() || !this.liveRecord(record.localId)) {
        if (this.waiting.delete(record.localId)) this.ctx.announceLive(record.localId);
        // Counted and taken in one step: a concurrent submit sees this one as under way.
        this.sending.add(record.localId);
        return;
      }
      if (this.waiting.get(record.localId) !== running) {
        this.waiting.set(record.localId, running);
        this.ctx.announceLive(record.localId);
      }
      await this.ctx.sleep(this.ctx.options.pollIntervalMs);
    }
  }

  /**
   * While the task waits for room at its service (its provider's limit reached), how many of its
   * key's tasks run there; nothing otherwise.
   */
  roomOf(localId: string): Pick<LiveState, 'runningAtLimit'> {
    const running = this.waiting.get(localId);
    return running === undefined ? {} : { runningAtLimit: running };
  }

  /**
   * Sends a batch: its first request alone, the others only once the service took it. When it
   * did not (a refused key, no credits, an invalid request, no clear answer), the others would
   * fare the same: none is sent, each says why.
   */
  async runBatch(records: readonly TaskRecord[]): Promise<void> {
    const [first, ...rest] = records;
    if (first === undefined) return;
    const answered = await this.run(first.localId);
    // Not sent (the engine stopped): the others stay queued for the next start to send.
    if (rest.length === 0 || answered?.status === 'submitting') return;
    if (answered?.status === 'processing') {
      for (const record of rest) void this.ctx.runInBackground(this.run(record.localId));
      return;
    }
    // Refused for what it asked (moderation, a bad request): the batch's other requests (a
    // template's other prompts) are still sent, the first of them alone again; copies of the
    // refused request are not. Anything else is the account's or the network's: none is sent.
    const own = answered?.error?.kind !== undefined && REQUEST_REFUSALS.has(answered.error.kind);
    const same = (record: TaskRecord) => sameRequest(record.request, first.request);
    const others = own ? rest.filter((record) => !same(record)) : [];
    for (const record of rest) {
      const current = this.liveRecord(record.localId);
      if (current?.status === 'submitting' && !others.includes(record))
        this.ctx.commit(batchNotSent(current, answered, this.now()));
    }
    if (others.length > 0) await this.runBatch(others);
  }

  /**
   * Sends each task's submit side by side, each on its own (a compare): one refused (no credits,
   * moderation, no answer) leaves the others going.
   */
  async runEach(records: readonly TaskRecord[]): Promise<void> {
    await Promise.all(records.map((record) => this.run(record.localId)));
  }

  /**
   * Sends the task's submit; resolves with its record as the submit left it. A task whose submit
   * is already under way here (waiting for room or after a 429, when an Undo of its removal sends
   * it again) joins that one: two would race for its mark, and the loser would let the task go.
   */
  run(localId: string): Promise<TaskRecord | undefined> {
    const running = this.runs.get(localId);
    if (running) return running;
    const run = this.attempts(localId).finally(() => this.runs.delete(localId));
    this.runs.set(localId, run);
    return run;
  }

  private async attempts(localId: string): Promise<TaskRecord | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const record = this.liveRecord(localId);
      if (!record || this.ctx.isStopped()) return record;
      const credentials = await this.service.credentials.credentialsFor(record.endpoint);
      const refusal = !credentials
        ? NO_KEY
        : providerOf(credentials) !== providerOf(record)
          ? sentence('error.service.wrongProviderKey')
          : null;
      if (!credentials || refusal) {
        return this.ctx.commit(
          submitFailure(record, new EngineInputError(refusal ?? NO_KEY), this.now()),
        );
      }
      await this.waitForRoom(record);
      if (this.ctx.isStopped()) {
        this.sending.delete(localId);
        return this.liveRecord(localId);
      }
      this.sending.add(localId);
      try {
        const answer = await this.slots.around(record.endpoint, () =>
          this.send(localId, credentials),
        );
        this.sending.delete(localId);
        return answer === null ? this.liveRecord(localId) : this.accept(localId, answer);
      } catch (error) {
        this.sending.delete(localId);
        if (this.ctx.isStopped()) return this.liveRecord(localId);
        const retryable = error instanceof ServiceError && error.kind === 'rate_limited';
        if (!retryable || attempt >= this.ctx.options.maxSubmitAttempts) {
          const failed = this.ctx.commit(
            submitFailure(this.liveRecord(localId) ?? record, error, this.now()),
          );
          this.ctx.logger.warn('submit refused', { localId, kind: errorKind(error) });
          return failed;
        }
        // The service took nothing: queued again, so a restart during the wait sends it.
        const waiting = this.liveRecord(localId) ?? record;
        this.ctx.commit({ ...waiting, sendState: 'queued', error: error.toTaskError() });
        await this.ctx.sleep(this.ctx.backoff(attempt, error.retryAfterMs));
      }
    }
  }

  /**
   * Hands the request to the network once the task is marked `sent` on disk (send-mark.ts);
   * null when it is not to be sent (the engine stopped, another process has it). A task's input
   * images are made ready to travel first, uploads made, before the mark, so an upload is not a
   * submit (a crash after it leaves the task queued, and the next start uploads again); they are
   * held until the service answered, a few tasks at once (InputSender).
   * @throws EngineInputError with no sender, or when the history refused the mark (nothing sent);
   *   the sender's refusal (nothing sent); the request's own failure.
   */
  private async send(
    localId: string,
    credentials: ServiceCredentials,
  ): Promise<SubmitAnswer | null> {
    const record = this.liveRecord(localId);
    if (!record?.request.inputs) return this.submit(localId, credentials);
    const { inputs } = this.service;
    if (!inputs) throw new EngineInputError(sentence('error.inputs.noSender'));
    const task = {
      provider: providerOf(record),
      request: record.request,
      credentials,
      signal: this.ctx.signal,
    };
    return inputs.send(task, (sent) => this.submit(localId, credentials, sent));
  }

  private async submit(
    localId: string,
    credentials: ServiceCredentials,
    sent?: SentInputs,
  ): Promise<SubmitAnswer | null> {
    await this.records.whenWritable(localId);
    const turn = markSent(this.ctx, this.records, localId);
    if ('notSent' in turn) return null;
    if ('refused' in turn) {
      this.ctx.logger.error('history write failed before a submit', {
        localId,
        reason: errorKind(turn.refused),
      });
      throw new EngineInputError(sentence('error.library.historyWriteBeforeSubmit'));
    }
    return this.service.client.submit(credentials, turn.marked.request, this.ctx.signal, sent);
  }

  private accept(localId: string, answer: SubmitAnswer): TaskRecord | undefined {
    const { id: taskId, reportedModel, handles } = answer;
    const live = this.liveRecord(localId);
    if (!live) return undefined;
    const holder = holderOfId(live, taskId, {
      history: this.service.history,
      records: this.records,
    });
    if (holder) {
      // Another task's id (answered-id.ts): this one is not polled, the holder is untouched.
      this.ctx.logger.warn('submit answered with a held task id', {
        localId,
        holder: holder.localId,
      });
      return this.ctx.commit(submitFailure(live, idOfAnotherTask(holder), this.now()));
    }
    // The service has the task: whether its request left is settled for good.
    const { sendState: _sent, ...record } = live;
    const now = this.now();
    const accepted: TaskRecord = {
      ...withAnswerCost(record, answer, this.ctx.logger),
      ...(reportedModel === undefined ? {} : { reportedModel }),
      ...(handles === undefined ? {} : { handles }),
      taskId,
      status: 'processing',
      submittedAt: now,
      watchStartedAt: now,
      error: null,
    };
    const committed = this.ctx.commit(accepted);
    this.ctx.logger.info('task accepted', { localId, taskId });
    this.poller.watch(accepted, 'interval');
    return committed;
  }

  private now(): number {
    return this.ctx.clock.now();
  }
}
