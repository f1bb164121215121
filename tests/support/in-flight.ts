/**
 * A test that moves a manual clock itself over real loopback HTTP holds the clock still while
 * work is in flight: a request sent and not yet answered takes no clock time, however slow a
 * loaded machine makes it. A clock that ran on meanwhile reached the service later than the
 * engine sent it, by as much as the machine was slow (a poll cadence read under its interval).
 */
import { performance } from 'node:perf_hooks';
import { flushPromises } from '../fakes/manual-clock';

/** Real time work may hold the clock still: longer is a hung answer, which time must pass. */
const ANSWER_HOLD_MS = 2_000;

/** Resolves once `busy` is false (at most {@link ANSWER_HOLD_MS} of real time). */
export async function answered(busy: () => boolean): Promise<void> {
  const started = performance.now();
  while (busy() && performance.now() - started < ANSWER_HOLD_MS) {
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
  await flushPromises();
}

/** `transport` counting its calls until each is answered; `busy` while one is out. */
export function countedTransport<A extends unknown[], R>(
  transport: (...args: A) => Promise<R>,
): { transport: (...args: A) => Promise<R>; busy: () => boolean } {
  let out = 0;
  return {
    transport: async (...args) => {
      out += 1;
      try {
        return await transport(...args);
      } finally {
        out -= 1;
      }
    },
    busy: () => out > 0,
  };
}
