/** What lease-takeover.test.ts and its worker agree on. */

/**
 * A worker's lease: the product's (DEFAULT_ENGINE_OPTIONS.leaseMs). A killed worker's tasks are
 * taken over at once whatever its length (its pid is gone, task-leases.ts), and a worker already
 * waiting for a killed one's lease sees it gone within a second (elsewhere-timers.ts), so no work
 * waits for a lease's end. It was 900 ms of wall time: on a loaded machine a live worker
 * descheduled past it kept a poll in flight while another took the task over (two requests for
 * one task at once). At 30 s the runs stalled, since a worker waiting on a killed one's lease
 * moved only at its end; then 5 s, which a stall past 3 s could still meet. At 45 s it cannot.
 */
export const LEASE_MS = 45_000;
export const POLL_MS = 100;

export function promptOf(task: number): string {
  return `lease task ${String(task).padStart(4, '0')}`;
}
