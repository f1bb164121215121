/**
 * Where new tasks list, newest first. The history orders by the time a task was made, on the
 * wall clock, which can stand behind the library's newest task (set back by NTP or the user, or
 * the other process of the library ahead): a task made then would list below tasks made before
 * it, in the gallery, the task list, the CLI and MCP alike. Such a task gets `listedAt` just above
 * the newest, while `createdAt` keeps the time the clock said. A clock that is right changes nothing: the field stays absent.
 */
import { MAX_DATE_MS } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';

/**
 * The tasks of one submit (made at one time), placed above `newest` (the history's newest list
 * time, if any) when they were made before it: together, a millisecond above, as the tasks of a
 * submit list together (the window orders a batch's own tasks by their place in it).
 */
export function placedInList(made: readonly TaskRecord[], newest: number | null): TaskRecord[] {
  if (newest === null) return [...made];
  // Never past the last date a record may hold: a crafted task dated there (an import) would
  // otherwise make every new record one the history refuses.
  const above = Math.min(newest + 1, MAX_DATE_MS);
  return made.map((record) =>
    record.createdAt >= newest ? record : { ...record, listedAt: above },
  );
}
