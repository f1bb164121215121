/**
 * Which record changes may wait before they reach the history. Every history write is a durable
 * (fsynced) SQLite write on the main thread, and most of a task's changes are a poll counting
 * itself while the task stays `processing`. Those only move `polls`, `lastPolledAt` and
 * `updatedAt`; they are kept in memory (and announced) and written with the task's next real
 * change, at the latest after `bookkeepingWriteMs`, or when the engine stops (a task's first poll
 * is written at once). A crash loses at most that poll count and the time of the last poll (a
 * process taking a polled task over from a crashed one waits one interval before its first
 * poll), never an id, a status, an image state, a hold or an error.
 */
import { isDeepStrictEqual } from 'node:util';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isUnfinished } from '../../../shared/domain/task-record';

/**
 * Whether `next` differs from `previous` only in the poll bookkeeping (also what the page is sent
 * of such a change: electron/ipc/task-updates.ts).
 */
export function isBookkeepingOnly(previous: TaskRecord, next: TaskRecord): boolean {
  return isDeepStrictEqual(withoutBookkeeping(previous), withoutBookkeeping(next));
}

function withoutBookkeeping(
  record: TaskRecord,
): Omit<TaskRecord, 'polls' | 'lastPolledAt' | 'updatedAt'> {
  const { polls: _polls, lastPolledAt: _lastPolledAt, updatedAt: _updatedAt, ...rest } = record;
  return rest;
}

/** Remembers the tasks whose in-memory record is ahead of the history only in bookkeeping. */
export class BookkeepingWrites {
  /** Task → when its first unwritten bookkeeping change was made. */
  private readonly since = new Map<string, number>();

  constructor(private readonly maxDelayMs: () => number) {}

  /**
   * Whether the change from `previous` (what the history holds, give or take bookkeeping) to
   * `next` may skip the write now. It may not when anything else changed, when the task is
   * finished, when its oldest unwritten change is `maxDelayMs` old, or when `maxDelayMs` is 0
   * (every change written at once).
   */
  mayDefer(previous: TaskRecord, next: TaskRecord, now: number): boolean {
    if (this.maxDelayMs() <= 0) return false;
    if (!isUnfinished(next) || !isBookkeepingOnly(previous, next)) return false;
    // A task's first poll is written at once: a process taking it over after a crash then knows
    // whether it was ever polled (task-leases.ts, mayHaveUnwrittenPoll).
    if (previous.lastPolledAt === null && next.lastPolledAt !== null) return false;
    const since = this.since.get(next.localId);
    if (since === undefined) {
      this.since.set(next.localId, now);
      return true;
    }
    return now - since < this.maxDelayMs();
  }

  /** The task's record reached the history. */
  written(localId: string): void {
    this.since.delete(localId);
  }

  /** The task left the history: nothing of it is to be written. */
  forget(localId: string): void {
    this.since.delete(localId);
  }

  /** Tasks with bookkeeping not yet written. */
  pending(): string[] {
    return [...this.since.keys()];
  }
}
