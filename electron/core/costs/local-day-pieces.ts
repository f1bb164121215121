/**
 * A span of time cut where the user's local days change (ledger-sums.ts sums each piece on its
 * day). A zone's offset from UTC is constant between its clock changes, so within such a stretch
 * the local day of an instant is `floor((t + offset) / day)`, exactly the calendar date its wall
 * clock shows (local-periods.ts localDay), whatever the zone does: 23- and 25-hour days, a change
 * at midnight that repeats an hour of the day before, an offset off the quarter-hour grid.
 *
 * A zone's clock changes are found once per UTC year and kept: its offset compared a day apart,
 * then the change searched to the second (no zone changes its clocks twice within a day).
 */
import { offsetAt } from './local-periods';

const DAY_MS = 86_400_000;

/** From `at` on (until the next one), the zone's clock is `offset` ms ahead of UTC. */
interface ClockChange {
  readonly at: number;
  readonly offset: number;
}

/** A span of time counted on one local day (days since 1970-01-01 of the local calendar). */
export interface DayPiece {
  readonly day: number;
  readonly from: number;
  readonly to: number;
}

const changesByZone = new Map<string, Map<number, readonly ClockChange[]>>();

/** The first second in `(before, after]` at which the offset is `after`'s (a change lies between). */
function changeBetween(before: number, after: number, timeZone: string): number {
  const target = offsetAt(after, timeZone);
  let low = Math.floor(before / 1000);
  let high = Math.floor(after / 1000);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetAt(middle * 1000, timeZone) === target) high = middle;
    else low = middle;
  }
  return high * 1000;
}

/** The zone's clock changes in `(start of year, start of next year]`, kept per zone and year. */
function changesIn(year: number, timeZone: string): readonly ClockChange[] {
  let years = changesByZone.get(timeZone);
  if (years === undefined) {
    years = new Map();
    changesByZone.set(timeZone, years);
  }
  const known = years.get(year);
  if (known !== undefined) return known;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const changes: ClockChange[] = [];
  let before = start;
  let offset = offsetAt(start, timeZone);
  while (before < end) {
    const after = Math.min(before + DAY_MS, end);
    const next = offsetAt(after, timeZone);
    if (next !== offset) {
      changes.push({ at: changeBetween(before, after, timeZone), offset: next });
      offset = next;
    }
    before = after;
  }
  years.set(year, changes);
  return changes;
}

/** `[from, to)` cut where the zone's offset changes, each stretch with its offset. */
function stretches(from: number, to: number, timeZone: string) {
  const found: { from: number; to: number; offset: number }[] = [];
  let at = from;
  let offset = offsetAt(from, timeZone);
  const last = new Date(to).getUTCFullYear();
  for (let year = new Date(from).getUTCFullYear(); year <= last; year += 1) {
    for (const change of changesIn(year, timeZone)) {
      if (change.at <= at || change.at >= to) continue;
      found.push({ from: at, to: change.at, offset });
      at = change.at;
      offset = change.offset;
    }
  }
  found.push({ from: at, to, offset });
  return found;
}

/**
 * `[from, to)` as pieces of local days in `timeZone`, in time order: within each stretch of one
 * offset, one piece per local day it touches.
 */
export function dayPieces(from: number, to: number, timeZone: string): DayPiece[] {
  const pieces: DayPiece[] = [];
  if (from >= to) return pieces;
  for (const stretch of stretches(from, to, timeZone)) {
    const { offset } = stretch;
    for (let day = Math.floor((stretch.from + offset) / DAY_MS); ; day += 1) {
      const start = Math.max(stretch.from, day * DAY_MS - offset);
      const end = Math.min(stretch.to, (day + 1) * DAY_MS - offset);
      if (start >= stretch.to) break;
      if (start < end) pieces.push({ day, from: start, to: end });
    }
  }
  return pieces;
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** A local day number as `YYYY-MM-DD` (as local-periods.ts localDay writes it). */
export function dayName(day: number): string {
  const date = new Date(day * DAY_MS);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}
