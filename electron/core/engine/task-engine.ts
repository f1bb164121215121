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
import { setMaxListeners } from 'node:events';
import { generationRequestSchema } from '../../../shared/service/wire';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isUnfinished, newTaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { CredentialsProvider } from '../../ports/credentials';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import { checkTaskId } from '../service/service-client';
import { DownloadManager } from './download-manager';
import { EngineRecords } from './engine-records';
import type {
  EngineGallery,
  EngineHistory,
  EngineServiceClient,
  TaskEngineOptions,
  TaskUpdate,
} from './engine-types';
import { DEFAULT_ENGINE_OPTIONS, EngineInputError } from './engine-types';
import { errorKind } from './error-kind';
import { Poller } from './poller';
import { Submitter } from './submitter';
import { isSettled, interruptedSubmit } from './task-transitions';

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
  private readonly listeners = new Set<Listener>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly aborter = new AbortController();
  private readonly logger: Logger;
  private readonly newId: () => string;
  private readonly poller: Poller;
  private readonly downloads: DownloadManager;
  private readonly records: EngineRecords;
  private readonly submitter: Submitter;
  private stopped = false;

  constructor(private readonly deps: TaskEngineDeps) {
    this.settings = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
    this.logger = deps.logger ?? silentLogger;
    this.newId = deps.newId ?? randomUUID;
    // Every request of every task listens on this one signal, so hundreds at once is normal;
    // fetch lets go of its listener when the request is collected, not when it ends.
    setMaxListeners(0, this.aborter.signal);
    const random = deps.random ?? Math.random;
    this.records = new EngineRecords({
      history: deps.history,
      logger: this.logger,
      now: () => this.now(),
      bookkeepingWriteMs: () => this.settings.bookkeepingWriteMs,
      isBusy: (localId) => this.downloads.isBusy(localId),
      announce: (record) => this.announce(record),
    });
    const context = {
      clock: deps.clock,
      logger: this.logger,
      random,
      options: this.settings,
      signal: this.aborter.signal,
      get: (localId: string) => this.get(localId),
      commit: (record: TaskRecord) => this.records.commit(record),
      track: <T>(work: Promise<T>) => this.trackWork(work),
      isStopped: () => this.stopped,
    };
    this.downloads = new DownloadManager(context, deps.gallery, deps.credentials);
    this.poller = new Poller(context, deps.client, deps.credentials, (record, urls) =>
      this.downloads.complete(record, urls),
    );
    this.submitter = new Submitter(context, deps.client, deps.credentials, this.poller, (id) =>
      this.records.held(id),
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
      if (record !== stored) this.records.commit(record);
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
      this.records.hold(record);
      this.announce(record);
      this.trackWork(this.submitter.run(record.localId));
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
    this.records.commit({ ...record, status: 'processing', watchStartedAt: this.now() });
    this.activate(this.records.held(record.localId) ?? record, 'now');
    return this.get(record.localId) ?? record;
  }

  /** Continues a task: polls a processing one again (new watch), retries images that can still work. */
  resume(localId: string): TaskRecord {
    const record = this.get(localId);
    if (!record) throw new EngineInputError('That task is not in the history.');
    if (record.status === 'processing') {
      this.activate({ ...record, hold: null, watchStartedAt: this.now() }, 'now');
    } else if (record.status === 'completed') {
      this.records.hold(record);
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
    for (const record of this.records.heldRecords()) {
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
    this.records.forget(localId);
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
    const committed = this.records.commit(next);
    this.downloads.writeSidecar(localId);
    return committed;
  }

  /** The engine's live view of a task (next poll, downloads) for the UI. */
  live(localId: string): TaskUpdate['live'] {
    return this.liveOf(localId);
  }

  get(localId: string): TaskRecord | undefined {
    return this.records.get(localId);
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
    this.records.flush();
  }

  private activate(record: TaskRecord, when: 'start' | 'now'): void {
    this.records.hold(record);
    if (record.status === 'processing') {
      const watched =
        when === 'start' ? { ...record, hold: null, watchStartedAt: this.now() } : record;
      this.records.commit(watched);
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

  private announce(record: TaskRecord): void {
    const update = { record, live: this.liveOf(record.localId) };
    for (const listener of this.listeners) listener(update);
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
