/**
 * Tasks the user removed from the history while their service still works on them (and may still
 * bill them). A removal tidies a list, never the cost ledger (docs/COSTS.md): such a task leaves
 * the history at once but stays watched, for the ledger only, until its service ends it. Its
 * changes go to the ledger's watch, it is never shown again or downloaded, it is taken up again
 * after a restart, and an Undo puts it back in the history as it is now.
 */
import { isUnfinished, type TaskRecord } from '../../../shared/domain/task-record';
import type { Logger } from '../../ports/logger';
import type { EngineRecords } from './engine-records';
import type { EngineHistory, EngineWatchedRemovals } from './engine-types';
import { neverSent } from './send-mark';
import { interruptedSubmit } from './task-transitions';
import { userWritesOn } from './user-writes';
import type { UserWrites } from '../../ports/user-writes';

export interface RemovedTasksDeps {
  readonly records: EngineRecords;
  readonly history: EngineHistory;
  /** The history's watch of removed tasks; absent: a removed task is simply forgotten. */
  readonly removals: EngineWatchedRemovals | undefined;
  /** Where a removal and its Undo are written (the history worker); absent: on `history`. */
  readonly userWrites: UserWrites | undefined;
  readonly now: () => number;
  readonly logger: Logger;
  readonly announce: (record: TaskRecord) => void;
  /** Stops every poll, download and wait of the task. */
  readonly forgetWork: (localId: string) => void;
  /** Works on an unfinished task again. */
  readonly activate: (record: TaskRecord) => void;
  /** Sends a task whose request never left, once activated (as StoredTasks does at start). */
  readonly send: (record: TaskRecord) => void;
  readonly isStopped: () => boolean;
}

/**
 * The service has the task, or its request may have left: it may still bill it. A task still
 * marked `queued` has not left (send-mark.ts: the mark is written before any request goes), so its
 * removal is its end: the submit waiting for its turn finds it gone and sends nothing.
 */
function atService(record: TaskRecord): boolean {
  return (
    record.status === 'processing' ||
    (record.status === 'submitting' && record.sendState !== 'queued')
  );
}

export class RemovedTasks {
  private readonly writes: Pick<UserWrites, 'remove' | 'reinstate'>;

  constructor(private readonly deps: RemovedTasksDeps) {
    this.writes = deps.userWrites ?? userWritesOn(deps.history, deps.removals);
  }

  private isWatched(localId: string): boolean {
    return this.deps.records.isDetached(localId);
  }

  /**
   * Removes the task from the history; false when it had none. A task its service still works
   * on stays watched; another is forgotten.
   */
  remove(localId: string): Promise<boolean> {
    return this.removeWith(localId, this.writes.remove);
  }

  /**
   * {@link remove} written on this thread, at once: the engine's own removal of a task its service
   * refused for the account (account-refusal.ts), which the page hears of as soon as it is gone.
   */
  removeNow(localId: string): boolean {
    const { history, removals } = this.deps;
    return this.removeWith(localId, (id, watch) =>
      watch && removals ? removals.detach(watch) : history.delete(id),
    );
  }

  /** {@link remove} with `write` writing the removal (`watch`: the record, detached). */
  private removeWith<T extends boolean | Promise<boolean>>(
    localId: string,
    write: (localId: string, watch?: TaskRecord) => T,
  ): T {
    const { removals, records } = this.deps;
    const record = records.get(localId);
    if (record && removals && atService(record) && !records.isDetached(localId)) {
      const detached = (removed: boolean): boolean => {
        if (removed) records.detach(record);
        return removed;
      };
      const written = write(localId, record);
      return (typeof written === 'boolean' ? detached(written) : written.then(detached)) as T;
    }
    this.deps.forgetWork(localId);
    records.forget(localId);
    return write(localId);
  }

  /**
   * Puts back a task removed a moment ago (Undo): a watched one as it is now, another as it was,
   * written first (a history that refuses it throws), then worked on again when unfinished. A
   * task the history has is kept.
   */
  async reinstate(record: TaskRecord): Promise<TaskRecord> {
    const { removals, records } = this.deps;
    const { writes } = this;
    const watched = records.isDetached(record.localId)
      ? records.liveRecord(record.localId)
      : undefined;
    if (watched && removals) return this.reattach(watched);
    const existing = records.get(record.localId);
    if (existing) return existing;
    // One removed before its request left is sent now, as it would have been; one whose request
    // may have left is never sent again.
    const unsent = neverSent(record);
    const back =
      record.status === 'submitting' && !unsent
        ? interruptedSubmit(record, this.deps.now())
        : record;
    await writes.reinstate(back, false);
    this.deps.announce(back);
    if (this.deps.isStopped()) return records.get(back.localId) ?? back;
    if (isUnfinished(back)) this.deps.activate(back);
    if (unsent) this.deps.send(back);
    return records.get(back.localId) ?? back;
  }

  /**
   * Puts a watched task back, as it is now: the history worker attaches it, and the task's
   * changes meanwhile wait for its answer (EngineRecords.holdWhile), then go to the history.
   * @throws the history's refusal: the task stays removed and watched.
   */
  private async reattach(watched: TaskRecord): Promise<TaskRecord> {
    const { records } = this.deps;
    const written = this.writes.reinstate(watched, true);
    await records.holdWhile(
      watched.localId,
      written.then(
        () => true,
        () => false,
      ),
    );
    await written;
    const back = records.liveRecord(watched.localId) ?? records.get(watched.localId) ?? watched;
    this.deps.announce(back);
    return back;
  }

  /**
   * The service finished the task: its images are fetched (`complete`), unless it is removed and
   * watched ({@link end}). An Undo under way decides first: a task it put back is downloaded.
   */
  async completed(record: TaskRecord, complete: () => Promise<void>): Promise<void> {
    await this.deps.records.whenWritable(record.localId);
    return this.isWatched(record.localId) ? this.end(record) : complete();
  }

  /** The removed tasks still watched, marked so again (at start, after a restart). */
  takeUp(): TaskRecord[] {
    const watched = this.deps.removals?.watched() ?? [];
    for (const record of watched) this.deps.records.detach(record);
    return watched;
  }

  /**
   * The service finished a removed task: what it cost is in the answer (the poller counted it);
   * its images are not fetched (the user removed it). The ledger notes it and it is let go.
   */
  private async end(record: TaskRecord): Promise<void> {
    const finishedAt = this.deps.now();
    this.deps.records.commit({
      ...record,
      status: 'completed',
      hold: null,
      finishedAt,
      images: [],
    });
    this.deps.logger.info('a removed task ended at its service', { localId: record.localId });
  }
}
