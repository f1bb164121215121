/**
 * `Retry-After` (RFC 9110 §10.2.3): either delta-seconds or an HTTP-date. A service may send
 * anything here, so whatever cannot be read is ignored rather than trusted.
 */

/** A longer wait than this is not believed: the engine would look stuck for no good reason. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const DELTA_SECONDS = /^\d+$/;
/** IMF-fixdate, RFC 850 and asctime all start with a day name; `Date.parse` alone would accept "1". */
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * Parses a `Retry-After` value into a delay in milliseconds (≥ 0, at most one hour).
 * @param value the header value, or `null` when absent.
 * @param now the current time in ms since the epoch (for the HTTP-date form).
 * @returns the delay, or `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELTA_SECONDS.test(text)) {
    return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  }
  if (!HTTP_DATE_START.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
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
