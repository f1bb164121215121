/**
 * The task engine: submit, poll every 3 s while processing, download results, keep the history.
 *
 * Invariants (DESIGN.md "A task's life"):
 * - the record is stored before the submit request and the service's id the moment it arrives;
 * - nothing is ever submitted twice: an unknown submit outcome is recorded, never retried;
 * - a watch timeout, an error or a restart keeps the id and resumes polling it;
 * - a task is polled only with credentials for its endpoint; another account's refusal holds it.
 */
import { randomUUID } from 'node:crypto';
import { generationRequestSchema } from '../../../shared/service/wire';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isUnfinished, newTaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { CredentialsProvider } from '../../ports/credentials';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import { checkTaskId } from '../service/service-client';
import { ServiceError } from '../service/service-error';
import { BookkeepingWrites } from './bookkeeping-writes';
import { DownloadManager } from './download-manager';
import type {
  EngineGallery,
  EngineHistory,
  EngineServiceClient,
  TaskEngineOptions,
  TaskUpdate,
} from './engine-types';
import { DEFAULT_ENGINE_OPTIONS, EngineInputError } from './engine-types';
import { Poller } from './poller';
import { isSettled, submitFailure, interruptedSubmit } from './task-transitions';

export interface TaskEngineDeps {
  readonly client: EngineServiceClient;
  readonly history: EngineHistory;
  readonly gallery: EngineGallery;
  readonly credentials: CredentialsProvider;
  readonly clock: Clock;
  readonly logger?: Logger;
  readonly random?: () => number;
  readonly newId?: () => string;
  readonly options?: Partial<TaskEngineOptions>;
}

/** What a caller may ask of a tracked task id created elsewhere. */
export interface TrackOptions {
  readonly endpoint?: string;
  readonly prompt?: string;
}

type Listener = (update: TaskUpdate) => void;

export class TaskEngine {
  private readonly settings: { -readonly [K in keyof TaskEngineOptions]: TaskEngineOptions[K] };
  private readonly active = new Map<string, TaskRecord>();
  private readonly listeners = new Set<Listener>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Tasks whose latest change the history refused (a full disk): kept in `active` until written. */
  private readonly unsaved = new Set<string>();
  private readonly aborter = new AbortController();
  private readonly logger: Logger;
  private readonly newId: () => string;
  private readonly poller: Poller;
  private readonly downloads: DownloadManager;
  private readonly bookkeeping = new BookkeepingWrites(() => this.settings.bookkeepingWriteMs);
  private stopped = false;

  constructor(private readonly deps: TaskEngineDeps) {
    this.settings = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
    this.logger = deps.logger ?? silentLogger;
    this.newId = deps.newId ?? randomUUID;
    const random = deps.random ?? Math.random;
    const context = {
      clock: deps.clock,
      logger: this.logger,
      random,
      options: this.settings,
      signal: this.aborter.signal,
      get: (localId: string) => this.get(localId),
      commit: (record: TaskRecord) => this.commit(record),
      track: <T>(work: Promise<T>) => this.trackWork(work),
      isStopped: () => this.stopped,
    };
    this.downloads = new DownloadManager(context, deps.gallery, deps.credentials);
    this.poller = new Poller(context, deps.client, deps.credentials, (record, urls) =>
      this.downloads.complete(record, urls),
    );
  }

  get options(): TaskEngineOptions {
    return this.settings;
  }

  /** A new watch timeout (from Settings) for every watch from now on; `null` watches forever. */
  setWatchTimeout(ms: number | null): void {
    this.settings.watchTimeoutMs = ms;
  }

  /** Recovers interrupted work; with `resume`, continues every unfinished task. */
  start(options: { resume?: boolean } = {}): void {
    for (const stored of this.deps.history.unfinished()) {
      const record =
        stored.status === 'submitting' ? interruptedSubmit(stored, this.now()) : stored;
      if (record !== stored) this.commit(record);
      if (options.resume !== false && isUnfinished(record)) this.activate(record, 'start');
    }
  }

  /** Stores `count` new tasks and submits each once, in the background. Returns them at once. */
  async submit(input: GenerationRequest, count = 1): Promise<TaskRecord[]> {
    const request = parseRequest(input);
    if (!Number.isInteger(count) || count < 1 || count > 100) {
      throw new EngineInputError('The number of images must be a whole number from 1 to 100.');
    }
    const endpoint = this.deps.credentials.currentEndpoint();
    const credentials = await this.deps.credentials.credentialsFor(endpoint);
    if (!credentials)
      throw new EngineInputError('No API key is set. Add one in Settings, then try again.');
    const records = Array.from({ length: count }, () =>
      this.newRecord(request, endpoint, credentials.account, 'submitted', null),
    );
    // On disk before anything is sent, all or none: a request whose task id the history could
    // not keep is never sent (a crash would lose the id, and with it the images).
    try {
      this.deps.history.putMany(records);
    } catch (error) {
      this.logger.error('history write failed before a submit', { reason: errorKind(error) });
      throw new EngineInputError(
        'Pictor could not save the new task to its history, so nothing was sent. Check that the disk has free space, then try again.',
      );
    }
    for (const record of records) {
      this.active.set(record.localId, record);
      this.announce(record);
      this.trackWork(this.runSubmit(record.localId));
    }
    return records;
  }

  /** Adds a task id created elsewhere and polls it like our own. Existing ids are resumed. */
  async track(rawTaskId: string, options: TrackOptions = {}): Promise<TaskRecord> {
    const taskId = checkTaskId(rawTaskId);
    const endpoint = options.endpoint ?? this.deps.credentials.currentEndpoint();
    const existing = this.deps.history.getByTaskId(endpoint, taskId);
    if (existing) return this.resume(existing.localId);
    const credentials = await this.deps.credentials.credentialsFor(endpoint);
    if (!credentials)
      throw new EngineInputError('No API key is set. Add one in Settings, then try again.');
    const prompt = options.prompt?.trim() || `Task ${taskId} (created outside Pictor)`;
    const record = this.newRecord({ prompt }, endpoint, credentials.account, 'tracked', taskId);
    this.commit({ ...record, status: 'processing', watchStartedAt: this.now() });
    this.activate(this.active.get(record.localId) ?? record, 'now');
    return this.get(record.localId) ?? record;
  }

  /** Continues a task: polls a processing one again (new watch), retries images that can still work. */
  resume(localId: string): TaskRecord {
    const record = this.get(localId);
    if (!record) throw new EngineInputError('That task is not in the history.');
    if (record.status === 'processing') {
      this.activate({ ...record, hold: null, watchStartedAt: this.now() }, 'now');
    } else if (record.status === 'completed') {
      this.active.set(localId, record);
      this.downloads.retry(localId);
    } else if (record.status === 'submitting') {
      return record;
    } else if (record.status === 'submit_unknown' || record.status === 'submit_failed') {
      throw new EngineInputError(
        'This task never got an id from the service, so there is nothing to resume. Submit it again.',
      );
    }
    return this.get(localId) ?? record;
  }

  /** The key changed: every task waiting for a key is tried again with the new one. */
  keyChanged(): void {
    for (const record of [...this.active.values()]) {
      if (record.hold === 'awaiting_key' || record.hold === 'key_rejected') {
        this.activate({ ...record, hold: null, error: null }, 'now');
      }
    }
  }

  /** Back from sleep or offline: poll every watched task soon, spread over one interval. */
  wake(): void {
    this.poller.wake();
    this.downloads.wake();
  }

  /** Stops watching and forgets the task. Its files stay in the gallery. */
  remove(localId: string): boolean {
    this.poller.forget(localId);
    this.downloads.forget(localId);
    this.active.delete(localId);
    this.unsaved.delete(localId);
    this.bookkeeping.forget(localId);
    return this.deps.history.delete(localId);
  }

  /**
   * A user's change to a stored task (favourite, image deleted…), written and announced the same
   * way as the engine's own changes so the two never overwrite each other.
   */
  edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord {
    const record = this.get(localId);
    if (!record) throw new EngineInputError('That task is not in the history.');
    const next = change(record);
    if (next.localId !== localId) throw new Error('An edit cannot change the task id.');
    const committed = this.commit(next);
    this.downloads.writeSidecar(localId);
    return committed;
  }

  /** The engine's live view of a task (next poll, downloads) for the UI. */
  live(localId: string): TaskUpdate['live'] {
    return this.liveOf(localId);
  }

  get(localId: string): TaskRecord | undefined {
    return this.active.get(localId) ?? this.deps.history.get(localId);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the records once every given task needs nothing more from this run. */
  whenSettled(localIds: readonly string[]): Promise<TaskRecord[]> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const records = localIds.map((id) => this.get(id));
        if (!records.every((record) => record && isSettled(record, this.liveOf(record.localId)))) {
          return false;
        }
        resolve(records as TaskRecord[]);
        return true;
      };
      if (check()) return;
      const unsubscribe = this.subscribe(() => {
        if (check()) unsubscribe();
      });
    });
  }

  /** Cancels timers and requests, waits for running work, writes pending sidecars. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poller.stopAll();
    this.downloads.stopAll();
    this.aborter.abort(new Error('Pictor is shutting down.'));
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.downloads.flush();
    this.saveUnsaved();
    this.saveBookkeeping();
  }

  private async runSubmit(localId: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const record = this.active.get(localId);
      if (!record || this.stopped) return;
      const credentials = await this.deps.credentials.credentialsFor(record.endpoint);
      if (!credentials) {
        this.commit(submitFailure(record, new EngineInputError('No API key is set.'), this.now()));
        return;
      }
      this.commit({ ...record, error: null });
      try {
        const { id } = await this.deps.client.submit(
          credentials,
          record.request,
          this.aborter.signal,
        );
        this.accept(localId, id);
        return;
      } catch (error) {
        if (this.stopped) return;
        const retryable = error instanceof ServiceError && error.kind === 'rate_limited';
        if (!retryable || attempt >= this.settings.maxSubmitAttempts) {
          this.commit(submitFailure(this.active.get(localId) ?? record, error, this.now()));
          this.logger.warn('submit refused', { localId, kind: errorKind(error) });
          return;
        }
        this.commit({ ...record, error: (error as ServiceError).toTaskError() });
        await this.poller.sleep(this.poller.backoff(attempt, (error as ServiceError).retryAfterMs));
      }
    }
  }

  private accept(localId: string, taskId: string): void {
    const record = this.active.get(localId);
    if (!record) return;
    const now = this.now();
    const accepted: TaskRecord = {
      ...record,
      taskId,
      status: 'processing',
      submittedAt: now,
      watchStartedAt: now,
      error: null,
    };
    this.commit(accepted);
    this.logger.info('task accepted', { localId, taskId });
    this.poller.watch(accepted, 'interval');
  }

  private activate(record: TaskRecord, when: 'start' | 'now'): void {
    this.active.set(record.localId, record);
    if (record.status === 'processing') {
      const watched =
        when === 'start' ? { ...record, hold: null, watchStartedAt: this.now() } : record;
      this.commit(watched);
      this.poller.watch(watched, 'soon');
    } else if (record.status === 'completed') {
      this.downloads.start(record.localId);
    }
  }

  private newRecord(
    request: GenerationRequest,
    endpoint: string,
    account: string,
    origin: TaskRecord['origin'],
    taskId: string | null,
  ): TaskRecord {
    return newTaskRecord(
      { localId: this.newId(), taskId, origin, endpoint, account, request },
      this.now(),
    );
  }

  private commit(record: TaskRecord): TaskRecord {
    const next = { ...record, updatedAt: this.now() };
    const previous = this.active.get(next.localId);
    if (
      previous &&
      !this.unsaved.has(next.localId) &&
      this.bookkeeping.mayDefer(previous, next, next.updatedAt)
    ) {
      // Only the poll count moved: kept and announced now, written with the next real change.
      this.active.set(next.localId, next);
      this.announce(next);
      return next;
    }
    const saved = this.save(next);
    // A record the history could not take stays in memory (even a finished one) until it can.
    if (
      !saved ||
      isUnfinished(next) ||
      this.downloads.isBusy(next.localId) ||
      this.active.has(next.localId)
    ) {
      this.active.set(next.localId, next);
    }
    if (saved && this.unsaved.size > 0) this.saveUnsaved();
    this.announce(next);
    this.release(next.localId);
    return next;
  }

  private announce(record: TaskRecord): void {
    const update = { record, live: this.liveOf(record.localId) };
    for (const listener of this.listeners) listener(update);
  }

  /** Writes the poll counts still held in memory (at stop). */
  private saveBookkeeping(): void {
    for (const localId of this.bookkeeping.pending()) {
      const record = this.active.get(localId);
      if (record) this.save(record);
      else this.bookkeeping.written(localId);
    }
  }

  /** Writes the record; on failure remembers it, to be written again with a later change. */
  private save(record: TaskRecord): boolean {
    try {
      this.deps.history.put(record);
      this.unsaved.delete(record.localId);
      this.bookkeeping.written(record.localId);
      return true;
    } catch (error) {
      this.unsaved.add(record.localId);
      this.logger.error('history write failed', {
        localId: record.localId,
        reason: errorKind(error),
      });
      return false;
    }
  }

  /** The history takes writes again (a disk had no space): catch up on the ones it refused. */
  private saveUnsaved(): void {
    for (const localId of [...this.unsaved]) {
      const record = this.active.get(localId);
      if (!record) this.unsaved.delete(localId);
      else if (!this.save(record)) return;
      else this.release(localId);
    }
  }

  /** Forgets a task that needs nothing more and is safely in the history. */
  private release(localId: string): void {
    const record = this.active.get(localId);
    if (!record || isUnfinished(record) || this.downloads.isBusy(localId)) return;
    if (!this.unsaved.has(localId)) this.active.delete(localId);
  }

  private liveOf(localId: string): TaskUpdate['live'] {
    return {
      nextPollAt: this.poller.nextPollAt(localId),
      polling: this.poller.isPolling(localId),
      downloads: this.downloads.busyCount(localId),
    };
  }

  private trackWork<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = (): void => {
      this.inFlight.delete(work);
    };
    work.then(done, (error: unknown) => {
      done();
      this.logger.error('engine work failed', { reason: errorKind(error) });
    });
    return work;
  }

  private now(): number {
    return this.deps.clock.now();
  }
}

function parseRequest(input: GenerationRequest): GenerationRequest {
  const parsed = generationRequestSchema.safeParse(input);
  if (!parsed.success) {
    throw new EngineInputError(parsed.error.issues[0]?.message ?? 'The request is not valid.');
  }
  return parsed.data;
}

function errorKind(error: unknown): string {
  if (error instanceof ServiceError) return error.kind;
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.name;
  return typeof error;
}
