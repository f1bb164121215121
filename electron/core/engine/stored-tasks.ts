/**
 * Tasks the engine finds in the history instead of making them: every unfinished one at start
 * (and after a pause) that it is not already working on, and one another process leaves when its
 * lease ends. Each is claimed first (a task another live process works on is left to it) and read
 * again under the lease, then:
 * - a task stored but never sent (send-mark.ts `neverSent`) is sent now when resuming
 *   (unsent-tasks.ts); a process that does not resume (a CLI command) leaves it queued, its lease
 *   let go, for one that does;
 * - a submit its process ended during, that may have left, is recorded (task-transitions.ts
 *   `interruptedSubmit`) and never sent again;
 * - anything else unfinished is worked on again.
 *
 * A task the user continues (Resume, Retry: {@link StoredTasks.resume}) is one found so too.
 */
import { isUnfinished, type TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { Logger } from '../../ports/logger';
import type { ElsewhereTimers } from './elsewhere-timers';
import type { EngineRecords } from './engine-records';
import { EngineInputError, type EngineHistory } from './engine-types';
import { neverSent } from './send-mark';
import type { TaskLeases } from './task-leases';
import { interruptedSubmit, needsWork } from './task-transitions';

export interface StoredTasksDeps {
  readonly history: EngineHistory;
  readonly leases: Pick<TaskLeases, 'claim' | 'release'>;
  readonly records: Pick<
    EngineRecords,
    'commit' | 'get' | 'keepLive' | 'liveRecord' | 'isDetached'
  >;
  readonly elsewhere: Pick<ElsewhereTimers, 'watch'>;
  readonly logger: Logger;
  readonly now: () => number;
  readonly isStopped: () => boolean;
  /** Works on the task (TaskEngine.activate), its lease held. */
  readonly activate: (record: TaskRecord, when: 'start' | 'now') => void;
  /** Sends tasks never sent, already active (unsent-tasks.ts). */
  readonly send: (records: readonly TaskRecord[]) => void;
  /** Works on the task once its lease is claimed (TaskEngine.activate), else waits for it. */
  readonly activateClaiming: (record: TaskRecord) => void;
  /** Retries the images of a completed task that can still work (DownloadManager.retry). */
  readonly retryDownloads: (localId: string) => void;
}

export class StoredTasks {
  constructor(private readonly deps: StoredTasksDeps) {}

  /**
   * Claims the stored tasks and deals with each as the file's header says; with `resume`, each
   * unfinished one is worked on, or waited for when another process has it.
   */
  takeUp(stored: readonly TaskRecord[], resume: boolean): void {
    const { history, leases, records } = this.deps;
    // A task this engine works on is its own, not one found (a start again while its submits are
    // out: an MCP agent's calls side by side, a pause's resume): never a submit its process ended
    // during, never worked on twice. A removed task watched for the ledger is live too, but only
    // because start's RemovedTasks.takeUp has just detached it into the live records: found, not
    // worked on yet, it is taken up as before.
    const left = stored.filter(
      (record) =>
        records.liveRecord(record.localId) === undefined || records.isDetached(record.localId),
    );
    const claimed = new Set(leases.claim(left.map((record) => record.localId)));
    const unsent: TaskRecord[] = [];
    for (const found of left) {
      if (!claimed.has(found.localId)) {
        if (resume) this.deps.elsewhere.watch(found.localId);
        continue;
      }
      // Read again under the lease: the previous owner may have written since the list.
      const fresh = history.get(found.localId) ?? found;
      // A removed task is watched for the ledger only: one never sent is not sent now.
      if (neverSent(fresh) && !records.isDetached(fresh.localId)) {
        if (resume) unsent.push(fresh);
        else leases.release(fresh.localId);
        continue;
      }
      const record = fresh.status === 'submitting' ? interruptedSubmit(fresh, this.now()) : fresh;
      if (record !== fresh) records.commit(record);
      if (resume && isUnfinished(record)) this.deps.activate(record, 'start');
      else if (!records.liveRecord(record.localId)) leases.release(record.localId);
    }
    this.send(unsent);
  }

  /** The lease of a task another process worked on ended: carry on with the task if it needs it. */
  takeOver(localId: string): void {
    const { history, leases, records } = this.deps;
    if (this.deps.isStopped() || records.liveRecord(localId)) return;
    const before = history.get(localId);
    if (!before || !needsWork(before)) return;
    if (leases.claim([localId]).length === 0) return this.deps.elsewhere.watch(localId);
    // The previous owner's last write is in: read the task again under the lease.
    const record = history.get(localId);
    if (!record || !needsWork(record)) return leases.release(localId);
    this.deps.logger.info('took over a task another Pictor process left', { localId });
    if (neverSent(record)) return this.send([record]);
    if (record.status === 'submitting') {
      // Its process ended before the service answered: recorded, never sent again.
      records.commit(interruptedSubmit(record, this.now()));
      leases.release(localId);
      return;
    }
    this.deps.activate(record, 'now');
  }

  /**
   * Continues a task (TaskEngine.resumeTask, the engine's wake): polls a processing one again
   * (new watch), retries images that can still work, sends one a process that ended had stored
   * but never sent. Returns the task as it is now.
   * @throws EngineInputError for a task the history lacks, or one with nothing to resume.
   */
  resume(localId: string): TaskRecord {
    const { records, leases } = this.deps;
    const record = records.get(localId);
    if (!record) throw new EngineInputError(sentence('error.library.taskNotInHistory'));
    if (record.status === 'processing') {
      this.deps.activateClaiming({ ...record, hold: null, watchStartedAt: this.now() });
    } else if (record.status === 'completed') {
      if (leases.claim([localId]).length === 0) {
        this.deps.elsewhere.watch(localId);
        return record;
      }
      records.keepLive(record);
      this.deps.retryDownloads(localId);
    } else if (record.status === 'submitting') {
      // Under way here, or left by a process that ended: sent if it never was, else recorded.
      this.takeOver(localId);
    } else if (record.status === 'submit_unknown' || record.status === 'submit_failed') {
      throw new EngineInputError(sentence('error.library.nothingToResume'));
    }
    return records.get(localId) ?? record;
  }

  private send(unsent: readonly TaskRecord[]): void {
    if (unsent.length === 0) return;
    for (const record of unsent) this.deps.activate(record, 'now');
    this.deps.send(unsent);
  }

  private now(): number {
    return this.deps.now();
  }
}
