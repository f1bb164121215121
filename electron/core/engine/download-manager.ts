/**
 * Downloads a completed task's images: all of them at once (URLs may expire), each with its own
 * state, transient failures retried with backoff, a bounded number running across all tasks,
 * those whose links expire soonest first (a service's documented result lifetime: 10 minutes at
 * one, a day at another).
 */
import type { ImageRecord, TaskError, TaskRecord } from '../../../shared/domain/task-record';
import type { CompletedTask } from '../../../shared/service/wire';
import type { TimerHandle } from '../../ports/clock';
import type { CredentialsProvider } from '../../ports/credentials';
import { sentence } from '../../../shared/i18n/sentence';
import type { EngineContext } from './engine-context';
import { lastAttempt, type DownloadOutcome, type FailedOutcome } from '../download';
import type { EngineGallery } from './engine-types';
import { DownloadQueue } from './download-queue';
import type { TaskWork } from './engine-work';
import { ImageAttempts } from './image-attempts';
import { expiredLinks, linksExpired } from './result-expiry';
import { answeredImages, noticeOf, type ImageFailure } from './answer-images';
import type { SidecarRecord } from './sidecar-records';
import { SidecarWriter } from './sidecar-writer';
import { keepInlineResults, sentInline, spoolToDrop } from './inline-results';
import { saying } from './task-transitions';

// Made when needed: its English text would build the catalogue at every start of the CLI.
const noImages = (): TaskError => saying('protocol', sentence('error.library.noImagesListed'));

/** The failure an outcome carries: its sentence goes with its text (text alone when it has none). */
function failureOf(outcome: FailedOutcome): ImageFailure {
  const said = outcome.errorSentence;
  return said === undefined
    ? { error: outcome.error }
    : { error: outcome.error, errorSentence: said };
}

/** `image` with `failed` as its error, the previous error's sentence gone. */
function failedWith(image: ImageRecord, failed: ImageFailure): ImageRecord {
  return { ...withoutError(image), ...failed };
}

/**
 * What a saved image's file alone says (its XMP beside it, its credentials' verdict, what was left
 * out of it for a held key): a retry replaces what an earlier attempt found.
 */
function foundInFile({
  xmpFile,
  contentCredentials,
  keyRemoved,
}: Extract<DownloadOutcome, { state: 'saved' }>) {
  return { xmpFile, contentCredentials, keyRemoved };
}

export class DownloadManager implements TaskWork {
  private readonly busy = new Map<string, Set<number>>();
  private readonly retryTimers = new Map<string, { handle: TimerHandle; run: () => void }>();
  /**
   * Tasks with images whose attempts ran out in this run, left pending: every attempt failed (a
   * network down longer than the backoff's attempts, under a minute) though the link may still
   * work. They waited for the next start or Retry while the app hears the network come back (main
   * wakes the engine on `online`, as on a resume): the wake now asks them again.
   */
  private readonly usedUp = new Set<string>();
  private readonly attempts: ImageAttempts;
  private readonly queue = new DownloadQueue();
  private running = 0;
  private readonly sidecars: SidecarWriter;

  constructor(
    private readonly ctx: EngineContext,
    private readonly gallery: EngineGallery,
    credentials: CredentialsProvider,
    /** The record a sidecar is written from (sidecar-records.ts); absent: the engine's `get`. */
    sidecarRecord: SidecarRecord = (localId) => ctx.get(localId),
  ) {
    this.attempts = new ImageAttempts(ctx, gallery, credentials);
    this.sidecars = new SidecarWriter(
      (record) => gallery.writeSidecar(record),
      sidecarRecord,
      ctx.logger,
      (record) => (gallery.writeTriage ?? gallery.writeSidecar).call(gallery, record),
    );
  }

  /**
   * The service finished the task: record its images and fetch them all. An entry without a
   * usable URL, or whose URL was refused (it carried the key), is `invalid` with the reason.
   * Images it sent inline are kept on disk first (inline-results.ts).
   * @throws InlineNotKeptError when they could not be kept: the task is not recorded completed.
   */
  complete(record: TaskRecord, task: CompletedTask): Promise<void> {
    if (task.inlineImages === undefined) {
      this.recordCompleted(record, task);
      return Promise.resolve();
    }
    return keepInlineResults(this.ctx, this.gallery, record, task).then((placed) => {
      if (placed) this.recordCompleted(placed, task);
    });
  }

  private recordCompleted(record: TaskRecord, task: CompletedTask): void {
    const images = answeredImages(record, task);
    // Busy before the commit, so nobody sees a completed task with nothing on its way.
    const pending = images.filter((image) => image.state === 'pending').map((image) => image.index);
    for (const index of pending) this.markBusy(record.localId, index);
    this.ctx.commit({
      ...record,
      status: 'completed',
      hold: null,
      finishedAt: this.ctx.clock.now(),
      images,
      folder: record.folder ?? this.gallery.folderFor(record),
      error:
        images.length === 0
          ? noImages()
          : task.notice
            ? noticeOf({ ...task, notice: task.notice })
            : null,
    });
    this.ctx.logger.info('task completed', {
      localId: record.localId,
      taskId: record.taskId,
      images: images.length,
    });
    this.sidecars.request(record.localId);
    for (const index of pending) this.enqueue(record.localId, index);
  }

  /** Downloads every pending image of the task that is not already on its way. */
  start(localId: string): void {
    const record = this.ctx.get(localId);
    if (!record) return;
    const pending = record.images.filter(
      (image) => image.state === 'pending' && !this.busy.get(localId)?.has(image.index),
    );
    // A kill may have come before the task's first sidecar was written (see attempt()).
    if (pending.length > 0) this.sidecars.request(localId);
    for (const image of pending) {
      this.markBusy(localId, image.index);
      this.enqueue(localId, image.index);
    }
  }

  /** "Retry" from the user or a resume: pending and expired images get a fresh set of attempts. */
  retry(localId: string): void {
    const record = this.ctx.get(localId);
    if (!record || record.status !== 'completed') return;
    const images = record.images.map((image): ImageRecord =>
      image.state === 'pending' || image.state === 'expired'
        ? withoutError({ ...image, state: 'pending', attempts: 0 })
        : image,
    );
    for (const [key, timer] of this.retryTimers) {
      if (key.startsWith(`${localId}:`)) this.runNow(key, timer);
    }
    this.ctx.commit({ ...record, images });
    this.start(localId);
  }

  /** Back from sleep or offline: attempts out since before it start again, retries go now. */
  wake(): void {
    this.attempts.wake();
    for (const [key, timer] of [...this.retryTimers]) this.runNow(key, timer);
  }

  /**
   * The tasks, still completed, with images whose attempts ran out since the last call ({@link
   * usedUp}): TaskEngine.wake asks them again.
   */
  takeUsedUp(): string[] {
    const tasks = [...this.usedUp].filter((id) => this.ctx.get(id)?.status === 'completed');
    this.usedUp.clear();
    return tasks;
  }

  /**
   * Whether an image is on its way, queued or out: the sleep watch ticks. Not one only waiting to
   * retry: it has no request out that a sleep could cut, and its timer stands still through a
   * sleep and runs on after it (the retry comes that much later, or at once on the app's wake);
   * ticking every second through a wait of up to a day (a host's Retry-After) is not worth that.
   */
  isWorking(): boolean {
    for (const [localId, indices] of this.busy) {
      for (const index of indices) if (!this.retryTimers.has(`${localId}:${index}`)) return true;
    }
    return false;
  }

  isBusy(localId: string): boolean {
    return this.busyCount(localId) > 0;
  }

  busyCount(localId: string): number {
    return this.busy.get(localId)?.size ?? 0;
  }

  forget(localId: string): void {
    this.usedUp.delete(localId);
    for (const [key, timer] of [...this.retryTimers]) {
      if (key.startsWith(`${localId}:`)) {
        this.ctx.clock.clearTimeout(timer.handle);
        this.retryTimers.delete(key);
      }
    }
    this.busy.delete(localId);
  }

  stopAll(): void {
    for (const timer of this.retryTimers.values()) this.ctx.clock.clearTimeout(timer.handle);
    this.retryTimers.clear();
    this.usedUp.clear();
    this.queue.clear();
  }

  /** Brings the task's sidecar up to date (after a user's edit; `triage`: of triage alone). */
  writeSidecar(localId: string, scope: 'record' | 'triage' = 'record'): void {
    this.sidecars.request(localId, scope);
  }

  /**
   * Sidecar writes asked for from now on wait for {@link releaseSidecars} (engine paused);
   * resolves when those under way are written.
   */
  holdSidecars(): Promise<void> {
    this.sidecars.hold();
    return this.sidecars.flush();
  }

  releaseSidecars(): void {
    this.sidecars.release();
  }

  /** The tasks' sidecar writes done (SidecarWriter.written: bounded, on the engine's clock). */
  written(localIds: readonly string[]): Promise<boolean> {
    return this.sidecars.written(localIds, this.ctx.clock);
  }

  /** Waits for sidecar writes still under way. */
  flush(): Promise<void> {
    return this.sidecars.flush();
  }

  private runNow(key: string, timer: { handle: TimerHandle; run: () => void }): void {
    this.ctx.clock.clearTimeout(timer.handle);
    this.retryTimers.delete(key);
    timer.run();
  }

  private enqueue(localId: string, index: number): void {
    const expiresAt = this.ctx.get(localId)?.resultsExpireAt;
    this.queue.add(() => this.attempt(localId, index), expiresAt);
    this.ctx.watchSleep();
    this.pump();
  }

  private pump(): void {
    while (this.running < this.ctx.options.maxConcurrentDownloads) {
      const job = this.queue.next();
      if (!job) break;
      this.running += 1;
      void this.ctx.runInBackground(job()).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async attempt(localId: string, index: number): Promise<void> {
    const record = this.ctx.get(localId);
    const image = record?.images[index];
    if (
      !record ||
      !image ||
      image.state !== 'pending' ||
      this.ctx.isStopped() ||
      this.ctx.isPaused()
    ) {
      if (this.unmarkBusy(localId, index) === 0) this.ctx.announceLive(localId);
      return;
    }
    // The sidecar is on disk before any image can be recorded saved, so a task the history
    // holds as finished always has one, even when the process was killed in between.
    await this.sidecars.settled(localId);
    const outcome = await this.attempts.run(record, index);
    if (this.ctx.isStopped()) return;
    // Ended by a wake (image-attempts.ts): asked again now, its attempts as they were.
    if (outcome === 'woken') return this.enqueue(localId, index);
    this.apply(localId, index, outcome);
  }

  private apply(localId: string, index: number, outcome: DownloadOutcome): void {
    const record = this.ctx.get(localId);
    const image = record?.images[index];
    if (!record || !image || !this.busy.get(localId)?.has(index)) return;
    const attempts = image.attempts + 1;
    let next: ImageRecord;
    let retryIn: number | null = null;
    if (outcome.state === 'saved') {
      const { state, file, thumbnail, thumbnailPending, width, height, bytes, mime } = outcome;
      const { thumbnail: _old, thumbnailPending: _pending, ...earlier } = image;
      next = withoutError({
        ...earlier,
        state,
        file,
        ...(thumbnail === undefined ? {} : { thumbnail }),
        ...(thumbnailPending ? { thumbnailPending } : {}),
        width,
        height,
        bytes,
        mime,
        attempts,
        savedAt: this.ctx.clock.now(),
        ...foundInFile(outcome),
      });
    } else if (!sentInline(image) && this.expiredNow(record, outcome, attempts)) {
      // Past the service's documented lifetime, a dead link, or one that failed every attempt,
      // is a link that expired: said as such, with when, never left as a passing fault.
      next = failedWith({ ...image, state: 'expired', attempts }, expiredLinks(record, outcome));
      next = { ...next, expiredAt: this.ctx.clock.now() };
    } else if (outcome.state === 'retry') {
      const failed = failureOf(outcome);
      next = failedWith({ ...image, attempts }, failed);
      if (attempts < this.ctx.options.maxDownloadAttempts) {
        retryIn = this.ctx.backoff(attempts, outcome.retryAfterMs);
      } else {
        this.usedUp.add(localId);
        const last = lastAttempt(outcome);
        next = failedWith(
          next,
          last.errorSentence
            ? last
            : {
                error: `${outcome.error} Pictor will try again at the next start, or when you choose Retry.`,
              },
        );
      }
    } else {
      next = failedWith({ ...image, state: outcome.state, attempts }, failureOf(outcome));
      if (outcome.state === 'expired') next = { ...next, expiredAt: this.ctx.clock.now() };
    }
    if (retryIn === null) this.unmarkBusy(localId, index);
    const committed = this.ctx.commit({
      ...record,
      images: record.images.map((item) => (item.index === index ? next : item)),
    });
    this.sidecars.request(localId);
    // Once the history says saved (or refused), the spool of an inline image has served.
    const spool = spoolToDrop(committed, index);
    if (spool !== null) void this.ctx.runInBackground(this.gallery.dropInline(committed, spool));
    this.ctx.logger.info('image download', { localId, index, state: next.state, attempts });
    if (retryIn !== null) this.scheduleRetry(localId, index, retryIn);
  }

  private expiredNow(record: TaskRecord, outcome: DownloadOutcome, attempts: number): boolean {
    const dead =
      outcome.state === 'expired' ||
      (outcome.state === 'retry' && attempts >= this.ctx.options.maxDownloadAttempts);
    return dead && linksExpired(record, this.ctx.clock.now());
  }

  private scheduleRetry(localId: string, index: number, delay: number): void {
    const key = `${localId}:${index}`;
    const run = (): void => this.enqueue(localId, index);
    const handle = this.ctx.clock.setTimeout(() => {
      this.retryTimers.delete(key);
      run();
    }, delay);
    this.retryTimers.set(key, { handle, run });
  }

  private markBusy(localId: string, index: number): void {
    const set = this.busy.get(localId) ?? new Set<number>();
    set.add(index);
    this.busy.set(localId, set);
  }

  private unmarkBusy(localId: string, index: number): number {
    const set = this.busy.get(localId);
    if (set?.delete(index) && set.size === 0) this.busy.delete(localId);
    return set?.size ?? 0;
  }
}

function withoutError(image: ImageRecord): ImageRecord {
  const { error: _error, errorSentence: _sentence, expiredAt: _expired, ...rest } = image;
  return rest;
}
