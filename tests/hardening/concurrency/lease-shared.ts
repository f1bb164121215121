/** What lease-takeover.test.ts and its worker agree on. */

/**
 * A worker's lease. A killed worker's tasks are taken over at once whatever its length (its pid
 * is gone, task-leases.ts); the length only says how long a live worker may go without renewing.
 * It was 900 ms of wall time: on a loaded machine a live worker descheduled past it kept a poll
 * in flight while another took the task over (two requests for one task at once), a stall the
 * product's 45 s lease does not meet. At 30 s the runs stalled: some of the work still moves only
 * at a lease's end (a minute with no request), so the lease is 5 s: a stall past 3 s is needed.
 */
export const LEASE_MS = 5_000;
export const POLL_MS = 100;

export function promptOf(task: number): string {
  return `lease task ${String(task).padStart(4, '0')}`;
}
