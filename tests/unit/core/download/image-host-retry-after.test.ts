/**
 * An image host's `Retry-After` is read by the one reader of the header (service/retry-after.ts),
 * with the download's own cap (a day, where a service's is an hour): the same values are read and
 * the same are refused, whatever a hostile host puts there. The download had a copy of its own
 * that took any text starting with three letters for a date ("abc 2030": a day's wait).
 */
import { describe, expect, it } from 'vitest';
import { expectState, useDownloadFixture } from './download-fixture';
import { IMAGE_MAX_RETRY_AFTER_MS } from '../../../../electron/core/download/image-request';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../../electron/core/service/retry-after';

const f = useDownloadFixture();
const DAY = 24 * 60 * 60 * 1000;

/** Values a host may send, each with what the header means at the gallery's time. */
function values(now: number): readonly string[] {
  const at = (ms: number): string => new Date(now + ms).toUTCString();
  return [
    '7',
    '0',
    '99999999',
    '99999999999999999999999',
    at(60_000),
    at(-60_000),
    at(2 * DAY),
    // Not HTTP-dates: no day name first (Date.parse reads every one of them as some year).
    'abc 2030',
    'Jan 1 2030',
    'soon 99',
    '-5',
    '1.5',
    ' 12 ',
    '',
    'Mon2030',
  ];
}

describe("an image host's Retry-After", () => {
  it('is read by the same reader as a service answer, with the download cap of a day', async () => {
    expect(IMAGE_MAX_RETRY_AFTER_MS).toBe(DAY);
    const now = f.clock.now();
    const date = new Date(now).toUTCString();
    // The HTTP-date has no milliseconds: the host's Date is the base the wait is measured from.
    const base = Date.parse(date);
    for (const [n, value] of values(now).entries()) {
      const url = f.server.route(`/busy-${n}`, (_req, res) =>
        res.writeHead(503, { 'Retry-After': value, Date: date }).end(),
      );
      const outcome = expectState((await f.download(url)).outcome, 'retry');
      const expected = parseRetryAfter(value, base, IMAGE_MAX_RETRY_AFTER_MS);
      expect({ value, wait: outcome.retryAfterMs }).toEqual({ value, wait: expected });
      // Read or refused alike for a service; only the cap differs.
      const service = parseRetryAfter(value, base);
      expect(service === undefined).toBe(expected === undefined);
      if (service !== undefined && expected !== undefined) {
        expect(service).toBe(Math.min(expected, MAX_RETRY_AFTER_MS));
      }
    }
  });

  it('never waits longer than a day, nor for text that is no HTTP-date', async () => {
    const url = f.server.route('/busy-words', (_req, res) =>
      res.writeHead(429, { 'Retry-After': 'abc 2030' }).end(),
    );
    expect(expectState((await f.download(url)).outcome, 'retry').retryAfterMs).toBeUndefined();
    const far = f.server.route('/busy-far', (_req, res) =>
      res.writeHead(429, { 'Retry-After': '99999999' }).end(),
    );
    expect(expectState((await f.download(far)).outcome, 'retry').retryAfterMs).toBe(DAY);
  });
});
