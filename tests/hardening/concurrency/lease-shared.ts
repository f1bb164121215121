/** What lease-takeover.test.ts and its worker agree on. */

/** A worker's lease: a killed worker's tasks are taken over about this long after the kill. */
export const LEASE_MS = 900;
export const POLL_MS = 100;

export function promptOf(task: number): string {
  return `lease task ${String(task).padStart(4, '0')}`;
}
