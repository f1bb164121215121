/**
 * Moves a manual clock shared by the core and the demo service only while the two are quiet:
 * no request open but those the service holds on purpose (a `delay` fault, waiting on the same
 * clock). A request so never meets its time limit while an answer is on its way in real time:
 * only the fault's delay brings it there, as on a real clock with an idle machine. The run is
 * bounded by the clock's steps and the requests, not by wall time (a stall guard aside).
 * Not ClockDriver (../support/clock-driver.ts): it moves time only with no request in flight,
 * and a request a fault holds on this clock is ended only by moving it.
 */
import type { FetchLike } from '../../../electron/ports/http';
import type { DemoService, RequestLogEntry } from '../../../electron/demo-service/types';
import type { ManualClock } from '../../fakes/manual-clock';

/** The app's fetch with a count of the requests whose answer (its headers) has not come yet. */
export function waitingFetch(inner: FetchLike): { fetch: FetchLike; waiting: () => number } {
  let waiting = 0;
  const fetch: FetchLike = async (url, init) => {
    waiting += 1;
    try {
      return await inner(url, init);
    } finally {
      waiting -= 1;
    }
  };
  return { fetch, waiting: () => waiting };
}

/** What the driver watches. */
export interface QuietWatch {
  readonly clock: ManualClock;
  readonly service: DemoService;
  /** The service's requests so far (a collector's: the service trims its own log). */
  readonly log: () => readonly RequestLogEntry[];
  /** Service-route requests the app's fetch still waits for. */
  readonly appWaiting: () => number;
  /** How long the client waits for a held service-route request: its time limit. */
  readonly requestLimitMs: number;
  /** How long the service holds a `delay`: an image download waits it out (its limit is longer). */
  readonly delayMs: number;
  /** Real time without any change before the driver gives up (a hang's guard, not a deadline). */
  readonly stallMs: number;
}

/** The `delay` faults still held: [service routes, image downloads]. */
export function held(watch: QuietWatch): [number, number] {
  const now = watch.clock.now();
  let service = 0;
  let images = 0;
  for (const entry of watch.log()) {
    if (entry.fault !== 'delay') continue;
    if (entry.route === 'image') images += Number(now - entry.at < watch.delayMs);
    else service += Number(now - entry.at < watch.requestLimitMs);
  }
  return [service, images];
}

function quiet(watch: QuietWatch): boolean {
  const [service, images] = held(watch);
  return watch.appWaiting() === service && watch.service.answering() === service + images;
}

/** Waits (turn by turn of the event loop) until quiet; fails after `stallMs` with nothing moving. */
async function untilQuiet(watch: QuietWatch): Promise<void> {
  const state = (): string =>
    `${watch.appWaiting()} ${watch.service.answering()} ${watch.log().length}`;
  let seen = state();
  let since = performance.now();
  while (!quiet(watch)) {
    await new Promise((resolve) => setImmediate(resolve));
    if (state() !== seen) {
      seen = state();
      since = performance.now();
    } else if (performance.now() - since > watch.stallMs) {
      throw new Error(`no request moved in ${watch.stallMs} ms (waiting, open, logged: ${seen})`);
    }
  }
}

/**
 * Moves the clock a step at a time (`stepMs()`, asked before each), each step once quiet, until
 * `done` (checked between steps) or `maxMs` of clock time have passed.
 * @returns the clock time it moved.
 */
export async function driveQuietly(
  watch: QuietWatch,
  stepMs: () => number,
  done: () => boolean,
  maxMs: number,
): Promise<number> {
  const start = watch.clock.now();
  while (!done() && watch.clock.now() - start < maxMs) {
    await untilQuiet(watch);
    await watch.clock.advance(stepMs());
  }
  await untilQuiet(watch);
  return watch.clock.now() - start;
}
