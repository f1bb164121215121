/**
 * The task engine: submit, poll every 3 s while processing, download results, keep the history.
 *
 * Invariants (DESIGN.md "A task's life"):
 * - the record is stored before the submit request and the service's id the moment it arrives;
 * - nothing is ever submitted twice: an unknown submit outcome is recorded, never retried; a
 *   task stored but never sent is sent after a restart (send-mark.ts, stored-tasks.ts);
 * - a watch timeout, an error or a restart keeps the id and resumes polling it;
 * - a task is polled only with credentials for its endpoint; another account's refusal holds it;
 * - with a shared history, a task is worked on only by the process owning its lease (see
 *   task-leases.ts); another process's changes are announced like this engine's own.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { NewTaskRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { LiveState } from '../../../shared/domain/live-state';
import { newTaskRecord } from '../../../shared/domain/task-record';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { ServiceCredentials } from '../../ports/credentials';
import type { Disposable } from '../../ports/disposable';
import { Emitter, type Event } from '../../ports/event';
import { type Logger, silentLogger } from '../../ports/logger';
import { DownloadManager } from './download-manager';
import { ElsewhereTimers } from './elsewhere-timers';
import { withRetryTiming } from './engine-context';
import { EngineRecords } from './engine-records';
import type { EngineHistoryChanges, TaskEngineOptions, TaskUpdate } from './engine-types';
import { DEFAULT_ENGINE_OPTIONS, EngineInputError, type TaskEngineDeps } from './engine-types';
import { UserEdits } from './user-edits';
import { applyExternalChanges } from './external-changes';
import { ServiceCancel } from './service-cancel';
import { Poller } from './poller';
import { Submitter } from './submitter';
import { batchFields, batchRecords, type SubmitBatch } from './submit-batch';
import { pageItem } from './request-workflow';
import { consentedCaps } from './hard-cap-consent';
import { askedByFront, storeNewTasks, trackedTask } from './new-tasks';
import type { SpendingCap } from '../../../shared/domain/cost-ledger';

/** How a stored batch goes out: the first alone (runBatch), or side by side (runEach). */
type Send = (records: TaskRecord[]) => Promise<void>;
import { groupRecords, type GroupItem } from './group-submit';
import { letGoHooks, TaskLeases } from './task-leases';
import { learnTrackedModel, trackedRequest, typedTaskId, type TrackOptions } from './request-check';
import { isSettled } from './task-transitions';
import { StoredTasks } from './stored-tasks';
import { sendUnsent } from './unsent-tasks';
import { whenSettled } from './when-settled';
import { RemovedTasks } from './removed-tasks';
import { BackgroundWork } from './background-work';
import { sidecarRecords } from './sidecar-records';
import { EngineWork } from './engine-work';

export type { TaskEngineDeps } from './engine-types';

export class TaskEngine {
  private readonly ownOptions: { -readonly [K in keyof TaskEngineOptions]: TaskEngineOptions[K] };
  private readonly updated: Emitter<TaskUpdate>;
  private readonly background: BackgroundWork;
  private readonly aborter = new AbortController();
  private readonly logger: Logger;
  private readonly newId: () => string;
  private readonly poller: Poller;
  private readonly downloads: DownloadManager;
  private readonly work: EngineWork;
  private readonly records: EngineRecords;
  private readonly userEdits: UserEdits;
  private readonly submitter: Submitter;
  private readonly cancels: ServiceCancel;
  private readonly removed: RemovedTasks;
  private readonly leases: TaskLeases;
  /** Tasks found in the history: at start, after a pause, left by another process. */
  private readonly stored: StoredTasks;
  /** Tasks another live process works on, each with a timer for when its lease ends. */
  private readonly elsewhere: ElsewhereTimers;
  /** Whether tasks other processes leave behind are taken over (the app; not a CLI command). */
  private adopting = false;
  private watching: Disposable | null = null;
  private stopped = false;
  /** Paused ({@link pause}): no poll or download starts; leases and records are kept. */
  private paused = false;

  constructor(private readonly deps: TaskEngineDeps) {
    this.ownOptions = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
    this.logger = deps.logger ?? silentLogger;
    this.newId = deps.newId ?? randomUUID;
    this.updated = new Emitter({ name: 'task updated', logger: this.logger });
    this.background = new BackgroundWork(this.logger);
    // Every request of every task listens on this one signal, so hundreds at once is normal;
    // fetch lets go of its listener when the request is collected, not when it ends.
    setMaxListeners(0, this.aborter.signal);
    this.records = new EngineRecords({
      history: deps.history,
      ...(deps.removals ? { removals: deps.removals } : {}),
      logger: this.logger,
      now: () => this.now(),
      bookkeepingWriteMs: () => this.ownOptions.bookkeepingWriteMs,
      isBusy: (localId) => this.downloads.isBusy(localId),
      announce: (record) => this.announce(record),
      ...letGoHooks(() => this.leases, deps),
      stale: (localId) => this.onLeasesLost([localId]),
    });
    this.leases = new TaskLeases(
      { clock: deps.clock, logger: this.logger, options: this.ownOptions },
      deps.sharing,
      (lost) => this.onLeasesLost(lost),
    );
    this.elsewhere = new ElsewhereTimers({
      clock: deps.clock,
      options: this.ownOptions,
      sharing: deps.sharing,
      leases: this.leases,
      isStopped: () => this.stopped,
      onLeaseEnd: (localId) => this.stored.takeOver(localId),
    });
    const context = withRetryTiming({
      clock: deps.clock,
      logger: this.logger,
      random: deps.random ?? Math.random,
      options: this.ownOptions,
      signal: this.aborter.signal,
      get: (localId: string) => this.get(localId),
      commit: (record: TaskRecord) => this.records.commit(record),
      announceLive: (localId: string) => this.announce(this.get(localId)),
      runInBackground: <T>(work: Promise<T>) => this.background.run(work),
      isStopped: () => this.stopped,
      isPaused: () => this.paused,
      owns: (localId: string) => this.leases.owns(localId),
      watchSleep: () => this.work.keepWatching(),
    });
    const sidecarRecord = sidecarRecords(this.records, deps.userWrites);
    this.downloads = new DownloadManager(context, deps.gallery, deps.credentials, sidecarRecord);
    this.userEdits = new UserEdits(this.records, this.downloads, deps);
    this.removed = this.removedTasks();
    this.poller = new Poller(context, deps.client, deps.credentials, (record, task) =>
      this.removed.completed(record, () => this.downloads.complete(record, task)),
    );
    this.work = new EngineWork(context, [this.poller, this.downloads]);
    this.submitter = new Submitter(context, deps, this.poller, this.records);
    this.cancels = new ServiceCancel(context, deps.client, deps.credentials, (record) =>
      this.activate(record, 'now'),
    );
    this.stored = this.storedTasks();
  }

  get options(): TaskEngineOptions {
    return this.ownOptions;
  }

  /** A new watch timeout (from Settings) for every watch from now on; `null` watches forever. */
  setWatchTimeout(ms: number | null): void {
    this.ownOptions.watchTimeoutMs = ms;
  }

  /**
   * Recovers interrupted work (stored-tasks.ts); with `resume`, continues every unfinished task,
   * sends those stored but never sent, and later takes over the tasks other processes leave. A
   * task another live process works on is left to it. Once stopped, it does nothing.
   */
  start(options: { resume?: boolean } = {}): void {
    // Stopped (the core closing): a front that starts it then (an agent's call) finds it so,
    // nothing taken up or watched again after the stop let go of its tasks.
    if (this.stopped) return;
    const resume = options.resume !== false;
    this.adopting = resume;
    const stored = this.deps.history
      .unfinished()
      .filter((record) => resume || record.status === 'submitting');
    // Removed tasks their service still worked on: watched for the ledger until they end.
    this.stored.takeUp([...stored, ...this.removed.takeUp()], resume);
    if (this.deps.sharing && this.watching === null) {
      this.watching = this.deps.sharing.onDidChangeElsewhere((changes) => this.onExternal(changes));
    }
  }

  /**
   * Stores `count` new tasks of `input` on the service `target` names (carried with the request,
   * never read from the settings; checked: target-check.ts) and submits each once, in the
   * background. Returns them at once. With `board` (a path: "Generate into", checkInto), their
   * images join that board as they arrive; the library makes it now when it has none.
   * @throws EngineInputError for a request, count, board or target nothing can be sent for; the
   *   library's refusal of a new board (too many); SpendingCapError when a hard cap refuses them;
   *   the closing gate's refusal once the core's close has begun (nothing stored or sent).
   */
  async submit(input: GenerationRequest, target: SubmitTarget, count = 1, board?: string) {
    return this.submitBatch({ requests: [input], count, board }, target);
  }

  /**
   * Each request of `batch` `count` times, stored as one batch as {@link submit} does (a hard cap
   * passed only with the user's consent, `batch.overHardCaps`), then sent the first alone.
   * @throws as {@link submit}; EngineInputError for more tasks than one submit may make.
   */
  async submitBatch(batch: SubmitBatch, target: SubmitTarget): Promise<TaskRecord[]> {
    const { requests, credentials, fields } = await batchFields(batch, target, this.deps);
    const made = batchRecords(requests, batch.count, (request) =>
      this.newRecord(credentials, { ...fields, request }),
    );
    const passing = consentedCaps(batch.overHardCaps);
    return this.storeAndSend(made, (records) => this.submitter.runBatch(records), passing);
  }

  /**
   * The tasks of a compare (group-submit.ts): every request checked and stored at once (priced,
   * under the caps, all or none), then each sent on its own, side by side. Returns them at once.
   */
  async submitGroup(items: readonly GroupItem[]): Promise<TaskRecord[]> {
    const batch = await groupRecords(items, this.deps, (c, f) => this.newRecord(c, f));
    return this.storeAndSend(batch, (records) => this.submitter.runEach(records));
  }

  /** On disk (priced, under the spending caps: `passing` consented to) before anything is sent. */
  private storeAndSend(batch: TaskRecord[], send: Send, passing?: readonly SpendingCap[]) {
    const deps = { ...this.deps, leases: this.leases, logger: this.logger };
    const records = storeNewTasks(deps, batch, passing);
    for (const record of records) {
      this.records.keepLive(record);
      this.announce(record);
    }
    this.background.run(send(records));
    return records;
  }

  /**
   * Adds a task id created elsewhere and polls it like our own. Existing ids are resumed (their
   * record learns `options.model` when it names none). An id that carries a key the process
   * holds is refused before anything is read or written.
   * @throws EngineInputError for an id that is no task id or carries a key (typedTaskId), or one
   *   its service cannot find from the id alone (fal without a model); the closing gate's refusal
   *   once the core's close has begun (new-tasks.ts).
   */
  async track(rawTaskId: string, options: TrackOptions = {}): Promise<TaskRecord> {
    const taskId = await typedTaskId(rawTaskId, this.deps.credentials);
    const endpoint = options.endpoint ?? this.deps.credentials.currentEndpoint();
    const existing = this.deps.history.getByTaskId(endpoint, taskId);
    // Known already: resumed as Resume is (the model it learns written only once let in).
    if (existing) {
      const learnt = () => learnTrackedModel(existing, options, this);
      return askedByFront(this.deps, () => this.stored.resume(learnt()));
    }
    const credentials = await this.deps.credentials.credentialsFor(endpoint);
    if (!credentials) throw new EngineInputError(sentence('error.library.noKey'));
    const request = trackedRequest(taskId, options, credentials.provider);
    const record = this.newRecord(credentials, { request, endpoint, origin: 'tracked', taskId });
    this.records.commit(trackedTask(this.deps, { ...record, watchStartedAt: this.now() }));
    this.activate(this.records.liveRecord(record.localId) ?? record, 'now');
    return this.get(record.localId) ?? record;
  }

  /**
   * Continues a task (StoredTasks.resume): a front's ask (Resume, Retry, a known id tracked
   * again), refused once the core's close has begun, the task as it was.
   * @throws EngineInputError for a task the history lacks, or one with nothing to resume; the
   *   closing gate's refusal once the core's close has begun.
   */
  resumeTask = (localId: string): TaskRecord =>
    askedByFront(this.deps, () => this.stored.resume(localId));

  /**
   * The key changed: every task waiting for a key is tried again with the new one, on a new
   * watch: the time it waited for a key was no watching, so the watch timeout never turns a
   * wait for another account's key into "stopped watching".
   */
  keyChanged(): void {
    for (const record of this.records.liveRecords()) {
      if (record.hold !== 'awaiting_key' && record.hold !== 'key_rejected') continue;
      this.activate({ ...record, hold: null, error: null, watchStartedAt: this.now() }, 'now');
    }
  }

  /**
   * Back from sleep or offline (the app's powerMonitor and network; the sleep watch where no
   * system tells): poll every watched task soon, spread over one interval; downloads out through
   * it start again, and those waiting to retry go now. A completed task whose images' attempts ran
   * out meanwhile (the network was down for all of them) is resumed, as Retry does: it waited for
   * the next start.
   */
  wake(): void {
    this.work.wake();
    for (const localId of this.downloads.takeUsedUp()) this.stored.resume(localId);
  }

  /**
   * Removes the task from the history. Its files stay in the gallery; the cost ledger keeps what
   * it cost. A task its service still works on (and may still bill) is watched on, for the ledger
   * only, until the service ends it (never downloaded, never shown); another is forgotten.
   */
  remove = (localId: string): Promise<boolean> => this.removed.remove(localId);

  /** {@link remove} written at once on this thread (a submit refused for the account). */
  removeNow = (localId: string): boolean => this.removed.removeNow(localId);

  /** Puts back a task removed a moment ago (Undo); see {@link RemovedTasks.reinstate}. */
  reinstate = (record: TaskRecord): Promise<TaskRecord> => this.removed.reinstate(record);

  /**
   * The trash's change of one image: its files and state (`deleted`, or `saved` where they are
   * placed back), written by the history worker, its sidecar written after. Returns the record.
   * @throws EngineInputError when the history has no such task.
   */
  readonly editImageFiles: UserEdits['editImageFiles'] = (...edit) =>
    this.userEdits.editImageFiles(...edit);

  /**
   * A user's change to a stored task (favourite, image deleted…), written and announced the same
   * way as the engine's own changes so the two never overwrite each other.
   */
  edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord {
    return this.userEdits.edit(localId, change);
  }

  /**
   * Many user changes at once (a selection's triage), all or none: one history transaction, each
   * task read under its lock (see EngineRecords.editMany), with `alongside`'s writes. Unknown
   * tasks, and those `change` leaves as they were (the same object), are not written. Returns
   * the records written.
   */
  readonly editMany: UserEdits['editMany'] = (...edit) => this.userEdits.editMany(...edit);

  /**
   * Changes of triage the history worker wrote (a triage commit), as their deltas: each task's
   * live copy takes its delta and is announced whole ({@link onDidUpdate}); the delta of any
   * other task is announced as it is ({@link onDidTriage}), its record never read; each task's
   * XMP sidecars are brought up to date.
   */
  readonly tookTriage: UserEdits['tookTriage'] = (d) => this.userEdits.tookTriage(d);

  get(localId: string): TaskRecord | undefined {
    return this.records.get(localId);
  }

  /**
   * Called with every change of a task, until the result is disposed. A listener that throws is
   * logged and skipped: it never stops the engine's own work or the other listeners.
   */
  readonly onDidUpdate: Event<TaskUpdate> = (listener) => this.updated.event(listener);

  /** Called with every change of triage alone of a task the engine does not work on. */
  readonly onDidTriage: UserEdits['onDidTriage'] = (l) => this.userEdits.onDidTriage(l);

  /**
   * Resolves with the records once every given task needs nothing more from this run, its files
   * on disk ({@link whenWritten}).
   */
  whenSettled(localIds: readonly string[]): Promise<TaskRecord[]> {
    const done = (record: TaskRecord) =>
      isSettled(record, this.live(record.localId)) && !this.elsewhere.has(record.localId);
    const view = { get: this.get.bind(this), isSettled: done, subscribe: this.onDidUpdate };
    return whenSettled({ ...view, written: this.whenWritten }, localIds);
  }

  /**
   * Resolves once the tasks' sidecar writes asked for so far are on disk (at most 30 s: a write
   * that hangs is logged and left); true when it waited for writes that ended. A removal or delete
   * waits for it, so that no late write lands in a folder it empties.
   */
  readonly whenWritten = (localIds: readonly string[]) => this.downloads.written(localIds);

  /**
   * Quiets the engine while its gallery changes folder: no poll, download or sidecar write
   * starts; the work under way finishes (into the gallery as it was); pending sidecars are
   * written. Everything else is kept: leases (renewed as usual, so no other process takes a
   * task over), live records, task ids. Submits go on (they touch no gallery). Undo with
   * {@link resume}.
   */
  async pause(): Promise<void> {
    if (this.stopped) return;
    this.paused = true;
    this.poller.holdNothing();
    await this.background.drain();
    await this.downloads.holdSidecars();
  }

  /**
   * Carries on after {@link pause}, with the same tasks, never submitting one again: every
   * watched task polls again soon, every pending image is downloaded (into the gallery as it is
   * now), the sidecars asked for meanwhile are written; tasks that joined the history meanwhile
   * (a library opened elsewhere) are taken up as {@link start} would.
   */
  resume(): void {
    if (!this.paused || this.stopped) return;
    this.paused = false;
    this.downloads.releaseSidecars();
    for (const record of this.records.liveRecords()) {
      if (record.status === 'processing' && record.hold === null) this.poller.watch(record, 'soon');
      else if (record.status === 'completed') this.downloads.start(record.localId);
    }
    // Tasks that joined the history meanwhile (a library opened elsewhere); the live ones (a
    // submit under way) are this engine's own, left to finish (StoredTasks.takeUp).
    if (!this.adopting) return;
    this.stored.takeUp(this.deps.history.unfinished(), true);
  }

  /** Cancels timers and requests, waits for running work, writes pending sidecars. */
  async stop(): Promise<void> {
    this.stopped = true;
    // Sidecars held by a pause are written before the history closes.
    this.downloads.releaseSidecars();
    this.watching?.dispose();
    this.watching = null;
    this.elsewhere.stopAll();
    this.work.stopAll();
    this.aborter.abort(new Error('Pictor is shutting down.'));
    await this.background.drain();
    await this.downloads.flush();
    this.records.flush();
    // Last, after every write: a process taking a task over reads its latest record.
    this.leases.releaseAll();
  }

  /** Works on the task when this process owns (or now gets) its lease; else waits for it. */
  private activate(record: TaskRecord, when: 'start' | 'now', leased = false): void {
    if (!leased && this.leases.claim([record.localId]).length === 0) {
      this.records.dropLive(record.localId);
      this.elsewhere.watch(record.localId);
      return;
    }
    this.elsewhere.stop(record.localId);
    this.records.keepLive(record);
    if (record.status === 'processing') {
      const watched =
        when === 'start' ? { ...record, hold: null, watchStartedAt: this.now() } : record;
      this.records.commit(watched);
      // Asked now (a cancel, a resume, a retry): its state is read at once, no wait held first.
      if (when === 'now') this.poller.askNext(record.localId);
      this.poller.watch(watched, this.leases.mayHaveUnwrittenPoll(record) ? 'interval' : 'soon');
    } else if (record.status === 'completed') {
      this.downloads.start(record.localId);
    }
  }

  private newRecord(
    { keyFingerprint: account, provider }: Pick<ServiceCredentials, 'keyFingerprint' | 'provider'>,
    fields: Omit<NewTaskRecord, 'localId' | 'account' | 'provider'>,
  ): TaskRecord {
    return newTaskRecord({ ...fields, localId: this.newId(), account, provider }, this.now());
  }

  /** This engine lost leases (it was suspended past their end): the new owner carries on. */
  private onLeasesLost(localIds: readonly string[]): void {
    for (const localId of localIds) {
      this.work.forget(localId);
      this.records.dropLive(localId);
      if (!this.stopped) this.elsewhere.watch(localId);
    }
  }

  /** Other processes changed tasks: shown like this engine's own changes, taken over if left. */
  private onExternal(changes: EngineHistoryChanges): void {
    if (this.stopped) return;
    applyExternalChanges(changes, {
      history: this.deps.history,
      records: this.records,
      elsewhere: this.elsewhere,
      leases: this.leases,
      logger: this.logger,
      forgetWork: (localId) => this.work.forget(localId),
      announce: (record) => this.announce(record),
      adopting: this.adopting,
    });
  }

  /**
   * The user's "Cancel on the service" (service-cancel.ts): never automatic.
   * @throws EngineInputError, or the service's refusal as a ServiceError.
   */
  cancelOnService = (localId: string): Promise<TaskRecord> =>
    this.cancels.cancel(this.userEdits.find(localId));

  private storedTasks(): StoredTasks {
    return new StoredTasks({
      history: this.deps.history,
      leases: this.leases,
      records: this.records,
      elsewhere: this.elsewhere,
      logger: this.logger,
      now: () => this.now(),
      isStopped: () => this.stopped,
      activate: (record, when) => this.activate(record, when, true),
      send: (records) => void this.background.run(sendUnsent(this.submitter, records)),
      activateClaiming: (record) => this.activate(record, 'now'),
      retryDownloads: (localId) => this.downloads.retry(localId),
    });
  }

  private removedTasks(): RemovedTasks {
    return new RemovedTasks({
      records: this.records,
      removals: this.deps.removals,
      history: this.deps.history,
      userWrites: this.deps.userWrites,
      now: () => this.now(),
      logger: this.logger,
      announce: (record) => this.announce(record),
      forgetWork: (localId) => {
        this.elsewhere.stop(localId);
        this.work.forget(localId);
      },
      activate: (record) => this.activate(record, 'now'),
      send: (record) => void this.background.run(sendUnsent(this.submitter, [record])),
      isStopped: () => this.stopped,
    });
  }

  private announce(record: TaskRecord | undefined): void {
    if (record) this.updated.fire({ record, live: this.live(record.localId) });
  }

  /** True while a poll request of the task is out (see Poller.isAsking). */
  isAsking = (localId: string): boolean => this.poller.isAsking(localId);

  /** The engine's live view of a task (next poll, downloads, progress, queue) for the UI. */
  live(localId: string): TaskUpdate['live'] {
    return {
      ...this.submitter.roomOf(localId),
      nextPollAt: this.poller.nextPollAt(localId),
      polling: this.poller.isPolling(localId),
      downloads: this.downloads.busyCount(localId),
      ...this.poller.saidOf(localId),
    };
  }

  /**
   * A task as the fronts show it: its record as the engine holds it now (`record` when it holds
   * none), and its live view while unfinished, `null` once it has ended.
   */
  /** A task as the page gets it (request-workflow.ts pageItem: no ComfyUI graph). */
  item(record: TaskRecord): { readonly record: TaskRecord; readonly live: LiveState | null } {
    return pageItem(this.get(record.localId) ?? record, (localId) => this.live(localId));
  }

  private readonly now = (): number => this.deps.clock.now();
}
