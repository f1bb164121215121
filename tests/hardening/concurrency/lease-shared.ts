/** What lease-takeover.test.ts and its worker agree on. */

/**
 * A worker's lease. A killed worker's tasks are taken over at once whatever its length (its pid
 * is gone, task-leases.ts); the length only says how long a live worker may go without renewing.
 * It was 900 ms of wall time: on a loaded machine a live worker descheduled past it kept a poll
 * in flight while another took the task over (two requests for one task at once), a stall the
 * product's 45 s lease does not meet. Long enough that no scheduling stall reaches it.
 */
export const LEASE_MS = 30_000;
export const POLL_MS = 100;

export function promptOf(task: number): string {
  return `lease task ${String(task).padStart(4, '0')}`;
}
