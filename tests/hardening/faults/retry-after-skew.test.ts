/**
 * A `Retry-After` date from a service whose clock is not this machine's: set an hour back, ten
 * minutes, an hour ahead. The service means "2 s from now" on its own clock, which its answer's
 * `Date` tells; the app must wait about that long, not the skew (an hour behind waited the hour
 * believed at most) and not nothing. Real core and demo service on loopback, on one manual clock
 * that the service reads shifted by the skew; the demo dates its answers from its own clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { FetchLike } from '../../../electron/ports/http';
import {
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retryAfterNow,
} from '../../../electron/core/service/retry-after';
import { ManualClock } from '../../fakes/manual-clock';
import { until } from '../support/clock-driver';
import { KEY, openCoreRun, type CoreRun } from './fault-harness';

const INTERVAL = 3_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The service's clock minus this machine's. */
const SKEWS = [0, 10 * MINUTE, HOUR, -10 * MINUTE, -HOUR];
/** The wait after the 429: its date (2-3 s on), a little jitter, then a place in the next interval. */
const LONGEST_WAIT = 3_000 + 300 + INTERVAL;

let service: DemoService | undefined;
let run: CoreRun | undefined;

afterEach(async () => {
  await run?.dispose();
  await service?.close();
  [service, run] = [undefined, undefined];
});

describe('Retry-After dated by a service whose clock is off', () => {
  it.each(SKEWS)(
    'service clock %i ms off: the poll after a 429 waits what it meant',
    async (skew) => {
      const clock = new ManualClock();
      let inFlight = 0;
      const counted: FetchLike = async (url, init) => {
        inFlight += 1;
        try {
          return await fetch(url, init);
        } finally {
          inFlight -= 1;
        }
      };
      service = await startDemoService({
        accounts: [{ account: 'skewed', key: KEY }],
        durationMs: { min: HOUR, max: HOUR },
        imagesPerTask: 1,
        now: () => clock.now() + skew,
      });
      run = await openCoreRun({
        baseUrl: service.url,
        fetch: counted,
        clock,
        requestTimeoutMs: 30_000,
        engine: { pollIntervalMs: INTERVAL },
      });
      const engine = run.core.engine;
      engine.start();
      const [record] = await engine.submit({ prompt: 'skewed', size: '64x64' }, run.target, 1);
      const id = record!.localId;
      const settle = () => until(() => inFlight === 0 && !engine.live(id).polling);
      await until(() => engine.get(id)?.status === 'processing');
      service.addFault({
        route: 'poll',
        effect: { type: 'status', status: 429, retryAfter: 'http-date' },
      });
      const polls = () => service!.log.polls;
      // Timer by timer, until the poll after the 429 has come (or far past any sane wait).
      const refused = async (): Promise<[number, number]> => {
        for (let step = 0; step < 10_000; step += 1) {
          await settle();
          const at = polls().findIndex((entry) => entry.status === 429);
          if (at >= 0 && polls().length > at + 1) return [polls()[at]!.at, polls()[at + 1]!.at];
          const next = clock.nextDue();
          if (next === null || next - clock.now() > 2 * HOUR) break;
          await clock.advance(next - clock.now());
        }
        return [0, Infinity];
      };
      const [refusedAt, nextAt] = await refused();
      expect(nextAt - refusedAt, 'ms from the 429 to the next poll').toBeGreaterThanOrEqual(2_000);
      expect(nextAt - refusedAt, 'ms from the 429 to the next poll').toBeLessThanOrEqual(
        LONGEST_WAIT,
      );
    },
  );
});

describe('retryAfterNow: the time a Retry-After date is read from', () => {
  const NOW = Date.parse('2026-03-29T01:30:00Z');
  it.each<[string | null, number]>([
    ['Sun, 29 Mar 2026 02:30:00 GMT', Date.parse('2026-03-29T02:30:00Z')],
    ['Sunday, 29-Mar-26 00:30:00 GMT', Date.parse('2026-03-29T00:30:00Z')],
    ['Sun Mar 29 01:30:05 2026', Date.parse('2026-03-29T01:30:05Z')],
    [null, NOW],
    ['', NOW],
    ['garbage', NOW],
    ['1774747800000', NOW],
    ['Sun, 99 Foo 2026 99:99:99 GMT', NOW],
  ])('Date %j → %i', (date, expected) => {
    expect(retryAfterNow(date, NOW)).toBe(expected);
  });

  it('a Date far off cannot make the wait longer than the cap, nor negative', () => {
    for (const date of ['Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT']) {
      const wait = parseRetryAfter('Sun, 29 Mar 2026 01:30:02 GMT', retryAfterNow(date, NOW));
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
    }
  });
});
