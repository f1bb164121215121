/**
 * How long a test waits on a condition (`vi.waitFor`, `expect.poll`) before it gives up. A wait
 * ends when its condition holds; the deadline only ends one that never would, so it sits far
 * above what a loaded machine makes of any wait that ends. Vitest's own default (1 s) is a
 * deadline a saturated 2-core machine reaches: a wait on an HTTP round trip, a timer or a file
 * then fails for the load, not the code.
 */
export const UNTIL = { timeout: 30_000, interval: 20 } as const;
