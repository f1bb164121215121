/**
 * The engine's records: the live copy of every task it is working on, written to the history
 * on every change that matters. A change the history refuses (a full disk) is kept in memory and
 * written again with a later change or at stop; a change that only moves the poll count may wait
 * (see bookkeeping-writes.ts). A task the engine no longer needs, and the history has, is let
 * go, so memory follows the work in progress, not the size of the history.
 */
import { type TaskTriageDelta, withTriageDelta } from '../../../shared/domain/triage-delta';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isUnfinished } from '../../../shared/domain/task-record';
import type { Logger } from '../../ports/logger';
import { BookkeepingWrites } from './bookkeeping-writes';
import { errorKind } from './error-kind';
import type { EngineHistory, EngineWatchedRemovals } from './engine-types';
import { settledCost } from './task-costs';
import { removedBeforeSent } from './task-transitions';
import { withUserEditsOf } from './user-edits-of';

export interface EngineRecordsDeps {
  readonly history: EngineHistory;
  /** Where the changes of a task removed while its service works on it go; absent: nowhere. */
  readonly removals?: EngineWatchedRemovals;
  readonly logger: Logger;
  readonly now: () => number;
  readonly bookkeepingWriteMs: () => number;
  /** True while a task still has images to download (its record stays live until then). */
  readonly isBusy: (localId: string) => boolean;
  /** Tells the engine's listeners about a change. */
  readonly announce: (record: TaskRecord) => void;
  /**
   * The engine no longer works on the task (finished and written, or forgotten). `leaseEnded`:
   * its lease already ended in the write just committed ({@link letGoWithin}).
   */
  readonly letGo?: (localId: string, leaseEnded?: boolean) => void;
  /**
   * Run inside the history's write transaction of a task's last write (the one after which it is
   * let go): its lease ends in that write's commit, not in a transaction of its own; true when it
   * did. Only where the leases are kept in the same history store, on the same connection.
   */
  readonly letGoWithin?: ((localId: string) => boolean) | undefined;
  /**
   * The history holds a newer record of a task than the engine's live one (another process
   * wrote it): the live copy is gone and the lease let go; the engine carries on from the
   * history's, or leaves the task to its owner.
   */
  readonly stale?: (localId: string) => void;
}

export class EngineRecords {
  private readonly live = new Map<string, TaskRecord>();
  /** Tasks whose latest change the history refused: kept live until written. */
  private readonly unsaved = new Set<string>();
  /** Tasks whose lease ended in the write just committed, until their {@link release}. */
  private readonly leaseEnded = new Set<string>();
  private readonly bookkeeping: BookkeepingWrites;
  /**
   * Tasks the user removed from the history while their service still works on them: watched
   * for the cost ledger only (written there, never announced, never downloaded), until they end.
   */
  private readonly detached = new Set<string>();
  /**
   * Removed tasks being put back by another thread (the history worker's attach, an Undo): their
   * changes wait in memory until it has answered ({@link holdWhile}); `changed` once one came.
   */
  private readonly holds = new Map<string, { changed: boolean; done: Promise<void> }>();

  constructor(private readonly deps: EngineRecordsDeps) {
    this.bookkeeping = new BookkeepingWrites(deps.bookkeepingWriteMs);
  }

  /** The live record, else the history's. */
  get(localId: string): TaskRecord | undefined {
    return this.live.get(localId) ?? this.deps.history.get(localId);
  }

  /** The live record only (a task the engine is working on). */
  liveRecord(localId: string): TaskRecord | undefined {
    return this.live.get(localId);
  }

  /** Every live record, as of now. */
  liveRecords(): TaskRecord[] {
    return [...this.live.values()];
  }

  /** Keeps `record` live without writing it (it was just written, or is about to be). */
  keepLive(record: TaskRecord): void {
    this.live.set(record.localId, record);
  }

  /**
   * Stores a changed record: stamped, written (or deferred, or kept for a later write when the
   * history refuses it), announced, and let go when nothing more is needed of it.
   */
  commit(record: TaskRecord): TaskRecord {
    const next = { ...settledCost(record), updatedAt: this.deps.now() };
    const hold = this.holds.get(next.localId);
    if (hold) {
      // Written once the task is back in the history, or is known to stay out of it.
      hold.changed = true;
      this.live.set(next.localId, next);
      return next;
    }
    if (this.detached.has(next.localId)) return this.commitDetached(next);
    const previous = this.live.get(next.localId);
    if (
      previous &&
      !this.unsaved.has(next.localId) &&
      this.bookkeeping.mayDefer(previous, next, next.updatedAt)
    ) {
      // Only the poll count moved: kept and announced now, written with the next real change.
      this.live.set(next.localId, next);
      this.deps.announce(next);
      return next;
    }
    return this.write(next);
  }

  /** {@link commit}'s write of `next` to the history, then the live copy kept or let go. */
  private write(next: TaskRecord): TaskRecord {
    const saved = this.save(next);
    const current = saved ?? next;
    // A record the history could not take stays in memory (even a finished one) until it can.
    if (
      !saved ||
      isUnfinished(current) ||
      this.deps.isBusy(current.localId) ||
      this.live.has(current.localId)
    ) {
      this.live.set(current.localId, current);
    }
    if (saved && this.unsaved.size > 0) this.saveUnsaved();
    this.deps.announce(current);
    this.release(current.localId);
    return current;
  }

  /**
   * Writes `next` now, in one history transaction that reads the stored record under the write
   * lock and writes only when `stillSo` holds of it: the write that must be on disk before a
   * submit leaves (send-mark.ts). A removed task (watched for the ledger) is this engine's alone
   * and written unchecked. When the check fails the history's record is the newer one: the live
   * copy goes and `deps.stale` is told.
   * @returns the record written, or null when the check failed.
   * @throws the history's refusal: nothing written, nothing kept for a later write.
   */
  commitBeforeSend(next: TaskRecord, stillSo: (stored: TaskRecord) => boolean): TaskRecord | null {
    const stamped = { ...settledCost(next), updatedAt: this.deps.now() };
    const { localId } = stamped;
    if (this.detached.has(localId)) {
      // Removed while its request was out, and the service took nothing (a 429): the user's
      // removal ends it here, never sent again; its watch ends, nothing of it at the service.
      this.deps.removals?.putWatched(removedBeforeSent(this.live.get(localId) ?? next, stamped));
      this.forget(localId);
      return null;
    }
    const [written] = this.deps.history.editMany([localId], (s) => (stillSo(s) ? stamped : null));
    if (written === undefined) {
      this.live.delete(localId);
      this.unsaved.delete(localId);
      this.bookkeeping.forget(localId);
      this.deps.letGo?.(localId);
      this.deps.stale?.(localId);
      return null;
    }
    this.live.set(localId, written);
    this.unsaved.delete(localId);
    this.bookkeeping.written(localId);
    this.deps.announce(written);
    return written;
  }

  /**
   * Many user changes at once, all or none: one history transaction in which each task is read
   * under the write lock (the live copy when the engine holds one), changed and written; a kill
   * or a refusal leaves every record as it was (the refusal is thrown, nothing is kept for a
   * later write). Then each is announced. `alongside` writes in the same transaction, first.
   */
  editMany(
    localIds: Iterable<string>,
    change: (record: TaskRecord) => TaskRecord,
    alongside?: () => void,
  ): TaskRecord[] {
    const now = this.deps.now();
    const written = this.deps.history.editMany(
      localIds,
      (stored) => {
        if (this.detached.has(stored.localId)) return null;
        const live = this.live.get(stored.localId);
        const base = live ? withUserEditsOf(live, stored) : stored;
        const next = change(base);
        return next === base || next.localId !== base.localId
          ? null
          : { ...settledCost(next), updatedAt: now };
      },
      alongside,
    );
    for (const record of written) {
      if (this.live.has(record.localId)) this.live.set(record.localId, record);
      this.unsaved.delete(record.localId);
      this.bookkeeping.written(record.localId);
      this.deps.announce(record);
      this.release(record.localId);
    }
    return written;
  }

  /**
   * A change of triage another thread wrote (the history worker's triage commit), as its delta:
   * a live copy takes it (the engine's next write keeps it) and is announced whole (true); of a
   * task the engine does not work on, nothing (false: the caller announces the delta alone).
   */
  tookTriage(delta: TaskTriageDelta): boolean {
    const live = this.live.get(delta.localId);
    if (!live) return false;
    const current = { ...withTriageDelta(live, delta), updatedAt: live.updatedAt };
    this.live.set(delta.localId, current);
    this.deps.announce(current);
    return true;
  }

  /**
   * A user's change of one task another thread wrote (the trash's, in the history worker):
   * `change` made to the live copy too, so the engine's next write keeps it; then announced.
   * Returns the record as the engine holds it now.
   */
  tookRecord(written: TaskRecord, change: (record: TaskRecord) => TaskRecord): TaskRecord {
    const live = this.live.get(written.localId);
    const current = live ? change(live) : written;
    if (live) this.live.set(written.localId, current);
    this.deps.announce(current);
    this.release(written.localId);
    return current;
  }

  /** True when the engine's own copy of the task is what gets written (see {@link edit}). */
  keepsOwnCopy(localId: string): boolean {
    return this.detached.has(localId) || this.unsaved.has(localId);
  }

  /** What the history's write of `record` touched (EngineHistory.touched). */
  touched(record: TaskRecord): 'triage' | 'record' {
    return this.deps.history.touched?.(record) ?? 'record';
  }

  /** True for a task removed from the history that is watched for the ledger only. */
  isDetached(localId: string): boolean {
    return this.detached.has(localId);
  }

  /** The task left the history but is watched for the ledger until its service ends it. */
  detach(record: TaskRecord): void {
    this.detached.add(record.localId);
    this.live.set(record.localId, record);
  }

  /**
   * A removed task is being put back by another thread (the history worker attaches it on its
   * own connection while main waits for its answer, `attached`). Until that answer, a change of
   * the task (a poll answered) is kept in memory, neither written nor announced: written to the
   * ledger's watch, it would land after the worker took the task off the watch, and the next
   * start would take the task for a removed one again (never downloaded). Once answered, the
   * task is attached (when `attached` is true) and its latest change written: to the history, or
   * to the watch when the Undo was refused. Resolves then.
   */
  holdWhile(localId: string, attached: Promise<boolean>): Promise<void> {
    const done = attached.then((back) => {
      const { changed } = this.holds.get(localId) ?? { changed: false };
      this.holds.delete(localId);
      if (back) this.detached.delete(localId);
      const live = this.live.get(localId);
      if (!changed || !live) return;
      if (this.detached.has(localId)) this.commitDetached(live);
      else this.write(live);
    });
    this.holds.set(localId, { changed: false, done });
    return done;
  }

  /** Resolves once the task's changes are written again (see {@link holdWhile}). */
  async whenWritable(localId: string): Promise<void> {
    await this.holds.get(localId)?.done;
  }

  /** The task left the history: nothing of it is kept or written. */
  forget(localId: string): void {
    this.leaseEnded.delete(localId);
    this.detached.delete(localId);
    this.live.delete(localId);
    this.unsaved.delete(localId);
    this.bookkeeping.forget(localId);
    this.deps.letGo?.(localId);
  }

  /**
   * Another process changed a task this engine works on: the user's edits there (stars and the
   * rest of triage, an image moved to the trash) are taken into the live copy, so the engine's next write keeps
   * them. Everything else is the engine's own to decide.
   */
  takeUserEdits(stored: TaskRecord): void {
    const live = this.live.get(stored.localId);
    if (!live) return;
    const merged = withUserEditsOf(live, stored);
    if (merged !== live) this.live.set(stored.localId, merged);
  }

  /**
   * One user edit of a task (a star, an image's state, its thumbnail): read under the history's
   * write lock and written in one transaction, like {@link editMany}, so the edit lands on the
   * stored record and nothing another process wrote in between is lost. A task the history does
   * not hold (removed and watched for the ledger, or a change the history refused still to be
   * written) is changed in the live copy and committed as the engine's own change.
   */
  edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord | undefined {
    if (this.keepsOwnCopy(localId)) {
      const live = this.live.get(localId);
      return live && this.commit(change(live));
    }
    const [written] = this.editMany([localId], change);
    return written;
  }

  /**
   * Another process works on the task: the live copy goes (the history's is the newer), unless
   * it has a change the history refused, which is still to be written.
   */
  dropLive(localId: string): void {
    if (this.unsaved.has(localId)) return;
    this.live.delete(localId);
    this.bookkeeping.forget(localId);
  }

  /** At stop: writes the changes the history refused and the poll counts not yet written. */
  flush(): void {
    this.saveUnsaved();
    for (const localId of this.bookkeeping.pending()) {
      if (this.holds.has(localId)) continue;
      const record = this.live.get(localId);
      if (record) this.save(record);
      else this.bookkeeping.written(localId);
    }
  }

  /**
   * A removed task's change: written to the ledger's watch (kept in memory when that fails, as
   * any change), never announced (the history no longer lists it); let go once it has ended.
   */
  private commitDetached(next: TaskRecord): TaskRecord {
    this.live.set(next.localId, next);
    if (!this.save(next)) return next;
    if (next.status !== 'submitting' && next.status !== 'processing') this.forget(next.localId);
    return next;
  }

  /**
   * Writes the record; on failure remembers it, to be written again with a later change. The
   * engine's record is written over the stored one in one transaction that reads it under the
   * write lock and keeps the user's edits there (withUserEditsOf): a star set in another process
   * a moment ago, not yet seen here, is never written back. Returns the record as written.
   */
  private save(record: TaskRecord): TaskRecord | null {
    try {
      const { removals } = this.deps;
      let written = record;
      if (removals && this.detached.has(record.localId)) removals.putWatched(record);
      else written = this.putKeepingUserEdits(record);
      this.unsaved.delete(record.localId);
      this.bookkeeping.written(record.localId);
      return written;
    } catch (error) {
      this.unsaved.add(record.localId);
      this.deps.logger.error('history write failed', {
        localId: record.localId,
        reason: errorKind(error),
      });
      return null;
    }
  }

  private putKeepingUserEdits(record: TaskRecord): TaskRecord {
    // Not in the history yet (a new task), or removed there: written whole, in the same
    // transaction (one write lock per engine write, never two).
    const merge = (stored: TaskRecord) => withUserEditsOf(record, stored);
    const { letGoWithin } = this.deps;
    // The task's last write ends its lease in the same commit (one commit and sync, not two); a
    // write that fails ends nothing (rolled back with it), and its release deletes the row later.
    let ended = false;
    const alongside =
      letGoWithin && this.letGoAfter(record)
        ? () => (ended = letGoWithin(record.localId))
        : undefined;
    const [written] = this.deps.history.editMany([record.localId], merge, alongside, record);
    if (ended) this.leaseEnded.add(record.localId);
    return written ?? record;
  }

  /** Whether a successful write of `record` lets its task go ({@link release}'s own test). */
  private letGoAfter(record: TaskRecord): boolean {
    const { localId } = record;
    return this.live.has(localId) && !isUnfinished(record) && !this.deps.isBusy(localId);
  }

  /** The history takes writes again (a disk had no space): catch up on the ones it refused. */
  private saveUnsaved(): void {
    for (const localId of [...this.unsaved]) {
      if (this.holds.has(localId)) continue;
      const record = this.live.get(localId);
      if (!record) {
        this.unsaved.delete(localId);
        continue;
      }
      const written = this.save(record);
      if (!written) return;
      this.live.set(localId, written);
      this.release(localId);
    }
  }

  /** Lets go of a task that needs nothing more and is safely in the history ({@link letGoAfter}). */
  private release(localId: string): void {
    const leaseEnded = this.leaseEnded.delete(localId);
    const record = this.live.get(localId);
    if (!record || !this.letGoAfter(record)) return;
    if (this.unsaved.has(localId)) return;
    this.live.delete(localId);
    this.detached.delete(localId);
    this.deps.letGo?.(localId, leaseEnded);
  }
}
