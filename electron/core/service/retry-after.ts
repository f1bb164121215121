/**
 * `Retry-After` (RFC 9110 §10.2.3): either delta-seconds or an HTTP-date. A service may send
 * anything here, so whatever cannot be read is ignored rather than trusted.
 */

/**
 * A longer wait than this is not believed from a service: the engine would look stuck for no
 * good reason. An image host's own cap is passed by the download (a day: its links may say so).
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const DELTA_SECONDS = /^\d+$/;
/** IMF-fixdate, RFC 850 and asctime all start with a day name; `Date.parse` alone would accept "1". */
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * Parses a `Retry-After` value into a delay in milliseconds (≥ 0, at most `maxMs`): the one
 * reader of the header, for services and image hosts alike.
 * @param value the header value, or `null` when absent.
 * @param now the current time in ms since the epoch (for the HTTP-date form).
 * @param maxMs the longest wait believed (default: a service's, one hour).
 * @returns the delay, or `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number,
  maxMs = MAX_RETRY_AFTER_MS,
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELTA_SECONDS.test(text)) {
    return Math.min(Number(text) * 1000, maxMs);
  }
  if (!HTTP_DATE_START.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), maxMs);
}

/**
 * What a `Retry-After` date is measured from: the answer's own `Date` (RFC 9110 §6.6.1), the
 * clock of the server that wrote both, so a machine clock set wrong does not change the wait (an
 * hour behind: the longest wait believed, an hour, for a date meant 2 s ahead); `now` when the
 * answer has no readable `Date`. A server lying in it gains nothing: the wait stays capped.
 */
export function retryAfterNow(dateHeader: string | null, now: number): number {
  const text = dateHeader?.trim() ?? '';
  const at = HTTP_DATE_START.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? now : at;
}

/** A wait as a sentence's values: whole seconds under 90, else whole minutes (never exact). */
export function waitAmount(ms: number): { unit: 'seconds' | 'minutes'; amount: number } {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 90
    ? { unit: 'seconds', amount: seconds }
    : { unit: 'minutes', amount: Math.round(seconds / 60) };
}
