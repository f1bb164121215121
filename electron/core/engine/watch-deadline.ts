/**
 * The end of a task's watch (the user's polling timeout, the CLI's --timeout), counted on the
 * wall clock from the record's `watchStartedAt` so that it holds across restarts. The wall clock
 * can be set back (NTP, the user): a watch then seems to start in the future, and would run the
 * hours the clock went back on top of its length.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';

/** When the task's watch ends; null when watches never end or this one has not started. */
export function watchDeadline(record: TaskRecord, timeoutMs: number | null): number | null {
  if (timeoutMs === null || record.watchStartedAt === null) return null;
  return record.watchStartedAt + timeoutMs;
}

/**
 * The record with its watch counted from now when it started later than now (the clock was set
 * back since), so a set-back lengthens a watch by the time it had already run, never by more; null
 * when it needs no change. A clock set forward ends a watch early: a sleep counts as time watched.
 */
export function watchCountedFromNow(
  record: TaskRecord,
  timeoutMs: number | null,
  now: number,
): TaskRecord | null {
  const { watchStartedAt } = record;
  if (timeoutMs === null || watchStartedAt === null || watchStartedAt <= now) return null;
  return { ...record, watchStartedAt: now };
}
