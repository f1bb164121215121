/**
 * The user's local days and months in a named time zone (IANA, `Europe/Berlin`): the ledger sums by
 * them and a cap's period starts at the local midnight. The zone is always a parameter (the host's
 * by default), never the process's own setting, so a test can use two.
 */
import type { CapPeriod } from '../../../shared/domain/cost-ledger';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The host's time zone. */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** True when `timeZone` names a zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function wallClock(ms: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts['year'] ?? 1970,
    month: parts['month'] ?? 1,
    day: parts['day'] ?? 1,
    hour: parts['hour'] ?? 0,
    minute: parts['minute'] ?? 0,
    second: parts['second'] ?? 0,
  };
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** The local day of `ms`: `YYYY-MM-DD`. */
export function localDay(ms: number, timeZone: string): string {
  const { year, month, day } = wallClock(ms, timeZone);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** How far the zone's clock is ahead of UTC at `ms` (whole seconds). */
export function offsetAt(ms: number, timeZone: string): number {
  const at = Math.floor(ms / 1000) * 1000;
  const { year, month, day, hour, minute, second } = wallClock(at, timeZone);
  return Date.UTC(year, month - 1, day, hour, minute, second) - at;
}

/**
 * The instant the local date `year-month-day` begins in the zone (its first moment, when a clock
 * change skips midnight).
 */
function localMidnight(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - offsetAt(wall, timeZone);
  // Twice: the offset at the first guess may differ from the one at midnight (a clock change).
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

/** When the cap period holding `now` began: the local midnight of its day, or of its month's first. */
export function periodStart(period: CapPeriod, now: number, timeZone: string): number {
  const { year, month, day } = wallClock(now, timeZone);
  return localMidnight(year, month, period === 'day' ? day : 1, timeZone);
}

/** A date the user typed (`YYYY-MM-DD`) as its local midnight; undefined when it is not one. */
export function parseLocalDate(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return localMidnight(year, month, day, timeZone);
}
