/** What lease-takeover.test.ts and its worker agree on. */

/**
 * A worker's lease: a day, longer than any run, so no lease ends while the test runs. A killed
 * worker's tasks are taken over at once because its pid is gone (task-leases.ts), and a worker
 * already waiting for a killed one's lease sees it gone within a second (elsewhere-timers.ts):
 * every takeover the test sees is one from a killed holder, never a lease's end, and with that
 * takeover broken the last process waits for an end that never comes (its stall guard fails the
 * run). A live worker descheduled for any time keeps its tasks. Lease expiry is tested on the
 * manual clock (lease-owner.test.ts). It was the product's 45 s, at which a broken takeover only
 * made the run slower (every task waited out its lease), and before that 900 ms, 30 s and 5 s of
 * wall time, which a loaded machine could overrun (two polls of one task at once).
 */
export const LEASE_MS = 24 * 60 * 60_000;
export const POLL_MS = 100;

export function promptOf(task: number): string {
  return `lease task ${String(task).padStart(4, '0')}`;
}
