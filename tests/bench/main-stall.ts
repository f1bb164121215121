/**
 * How long main's event loop is held while work runs. Three figures: the longest stall (the most
 * time the loop was busy between two ticks of a 1 ms timer, by performance.eventLoopUtilization:
 * main's own work, not the time it waited for the CPU while idle), how long the loop was busy in
 * all during the run, and the longest delay of the 1 ms timer (perf_hooks' histogram), which on a
 * loaded machine also counts the time the OS gave main's thread to others. Work done synchronously on main is busy for all of its time. Work done in the history
 * worker holds main only for what main itself does (posting the arguments, reading the reply).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full collection of this process's heap, now. The bench's fixtures (history-fixture.ts) build
 * a million records (about 2 GB) before a suite's timed runs: unreachable then, but still in the
 * heap until V8 next compacts it, which at that size it may not do for minutes; the collector's
 * pauses over it (scavenges of 200-300 ms, seen with --trace-gc) were then the longest stalls
 * timed, the harness's and not the product's (whose main never holds those records).
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export interface Stalled<T> {
  readonly value: T;
  /** Wall time of the run, in ms. */
  readonly ms: number;
  /** How long main's loop was busy during it, in ms (a bound on its longest stall). */
  readonly busyMs: number;
  /** The longest main's loop was busy between two ticks of a 1 ms timer, in ms. */
  readonly stallMs: number;
  /** The longest delay of a 1 ms timer during it, in ms. */
  readonly delayMs: number;
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function stalled<T>(work: () => Promise<T> | T): Promise<Stalled<T>> {
  // A turn of the loop first, so neither figure sees the set-up before it.
  await turn();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await turn();
  const used = performance.eventLoopUtilization();
  let tick = used;
  let stallMs = 0;
  const probe = setInterval(() => {
    const now = performance.eventLoopUtilization();
    stallMs = Math.max(stallMs, performance.eventLoopUtilization(now, tick).active);
    tick = now;
  }, 1);
  const start = performance.now();
  const value = await work();
  const ms = performance.now() - start;
  const busyMs = performance.eventLoopUtilization(used).active;
  stallMs = Math.max(stallMs, performance.eventLoopUtilization(tick).active);
  clearInterval(probe);
  // A turn after it, so the timer's delay at the very end is sampled.
  await turn();
  delay.disable();
  return { value, ms, busyMs, stallMs, delayMs: delay.max / 1e6 };
}
