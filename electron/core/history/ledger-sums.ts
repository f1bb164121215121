/**
 * The ledger's sums as SQL aggregates over `ledger_sums` (ledger-sums-schema.ts): the caller
 * (core/costs) cuts the period into pieces, each a span of time that belongs to one local day;
 * here each piece is covered by the fewest aligned blocks of quarter hours (at most about a dozen
 * for a day), read by primary key, and whatever of a piece does not fall on a quarter hour (a
 * period starting mid-quarter, a zone off the quarter-hour grid) is summed from the ledger's
 * tasks themselves. Two aggregates: per day and unit from the sums of all services (`days`:
 * SQLite sorts every row it groups, and all services together are half the rows of each service
 * apart), and per service and unit over the whole span at once (`services`: a service's total
 * does not depend on the zone, and a year is a few dozen large blocks).
 */
import type { LedgerQuery } from '../../../shared/domain/cost-ledger';
import {
  DEFAULT_PROVIDER,
  parseProviderId,
  type ProviderId,
} from '../../../shared/domain/providers';
import { costUnitSchema, type CostUnit } from '../../../shared/domain/task-cost';
import type { HistoryAccess } from './history-access';
import { queryWhere } from './ledger-pages';
import { accepted } from './ledger-accepted-schema';
import { ALL_SERVICES, DAY_LEVELS, QUARTER_MS, SUM_LEVELS } from './ledger-sums-schema';
import type { Row, SqlValue } from './sqlite-connection';

/** A span of time, `from` inclusive to `to` exclusive (ms), that counts on the local day `day`. */
export interface SumPiece {
  /** Days since 1970-01-01 of the local calendar. */
  readonly day: number;
  readonly from: number;
  readonly to: number;
}

/** What tasks cost in one unit (`unit` null: the tasks without an amount). */
export interface UnitSum {
  readonly unit: CostUnit | null;
  readonly micros: number;
  readonly estimatedMicros: number;
  readonly tasks: number;
  readonly unknownTasks: number;
}

/** What a local day's tasks cost in one unit. */
export interface DaySum extends UnitSum {
  readonly day: number;
}

/** What one service's tasks cost in one unit. */
export interface ServiceSum extends UnitSum {
  readonly provider: ProviderId;
}

/** What a sum is per: each piece's day, or each service (the whole span at once). */
type Per = 'day' | 'service';

/** The ledger's version (moves with every change it shows) and how many tasks it holds. */
export interface LedgerMeta {
  readonly version: number;
  readonly tasks: number;
}

const SUM_COLUMNS = `SUM(s.micros) AS micros, SUM(s.estimated_micros) AS estimated,
  SUM(s.tasks) AS tasks, SUM(s.unknown_tasks) AS unknown`;
/**
 * A block look-up packed in one integer (cheaper for SQLite than a JSON array per look-up):
 * `(day · 16 + level) · 2^24 + block`. A block of level 0 is a quarter hour since 1970: below
 * 2^24 until the year 2400, a day below 2^17 until 2328 (the history's dates end in 2200).
 */
const BLOCK_BITS = 24;
const LEVEL_BITS = 4;
const pack = (level: number, block: number, day: number): number =>
  (day * 2 ** LEVEL_BITS + level) * 2 ** BLOCK_BITS + block;
/**
 * Packed block look-ups as a JSON array, each block read by primary key, summed per day (the
 * look-ups are in time order, but SQLite sorts to group: the fewer groups the cheaper) or per
 * service.
 */
const BY_BLOCK = (per: Per, service: string): string => `
  SELECT ${per === 'day' ? `j.value >> ${BLOCK_BITS + LEVEL_BITS}` : 's.provider'} AS per, s.unit,
    ${SUM_COLUMNS}
  FROM json_each(?) j CROSS JOIN ledger_sums s
  WHERE s.level = (j.value >> ${BLOCK_BITS}) & ${2 ** LEVEL_BITS - 1}
    AND s.block = j.value & ${2 ** BLOCK_BITS - 1} ${service}
  GROUP BY 1, 2`;
const COUNTED = 'l.micros IS NOT NULL AND l.unit IS NOT NULL';
/** Pieces as JSON `[from, to, day]`, each a range of the tasks' creation index. */
const BY_ROW = (per: Per, service: string): string => `
  SELECT ${per === 'day' ? 'j.value ->> 2' : 'l.provider'} AS per,
    CASE WHEN ${COUNTED} THEN l.unit ELSE '' END AS unit,
    SUM(CASE WHEN ${COUNTED} THEN l.micros ELSE 0 END) AS micros,
    SUM(CASE WHEN ${COUNTED} AND l.source = 'estimated' THEN l.micros ELSE 0 END) AS estimated,
    COUNT(*) AS tasks, SUM(l.source = 'unknown') AS unknown
  FROM json_each(?) j CROSS JOIN ledger_tasks l
  WHERE l.created_at >= j.value ->> 0 AND l.created_at < j.value ->> 1 AND ${accepted('l')} ${service}
  GROUP BY 1, 2`;

const num = (value: unknown): number => Number(value ?? 0);

/**
 * Covers the quarters `[from, to)` with aligned blocks below level `levels`, largest first where
 * they fit: each block is `[level, block]`, block `b` of level `k` being quarters `b·2^k` to
 * `(b+1)·2^k`.
 */
export function blocksOf(from: number, to: number, levels = SUM_LEVELS): [number, number][] {
  const blocks: [number, number][] = [];
  let at = from;
  while (at < to) {
    let level = 0;
    while (level + 1 < levels) {
      const size = 2 ** (level + 1);
      if (at % size !== 0 || at + size > to) break;
      level += 1;
    }
    blocks.push([level, at / 2 ** level]);
    at += 2 ** level;
  }
  return blocks;
}

/**
 * The pieces as block look-ups (below level `levels`) and, for their parts off the quarter-hour
 * grid, task ranges.
 */
function plan(pieces: readonly SumPiece[], levels: number) {
  const blocks: number[] = [];
  const ranges: [number, number, number][] = [];
  for (const { day, from, to } of pieces) {
    const first = Math.ceil(from / QUARTER_MS);
    const last = Math.floor(to / QUARTER_MS);
    if (first >= last) {
      ranges.push([from, to, day]);
      continue;
    }
    for (const [level, block] of blocksOf(first, last, levels))
      blocks.push(pack(level, block, day));
    if (from < first * QUARTER_MS) ranges.push([from, first * QUARTER_MS, day]);
    if (last * QUARTER_MS < to) ranges.push([last * QUARTER_MS, to, day]);
  }
  return { blocks, ranges };
}

export class LedgerSums {
  constructor(private readonly access: HistoryAccess) {}

  /** What the tasks of each piece cost, per day and unit (on `provider` only, if given). */
  days(pieces: readonly SumPiece[], provider?: ProviderId): DaySum[] {
    return this.sums('day', pieces, provider).map((row) => ({
      ...unitSumOf(row),
      day: num(row['per']),
    }));
  }

  /** What the tasks created in `[from, to)` cost, per service and unit. */
  services(from: number, to: number, provider?: ProviderId): ServiceSum[] {
    return this.sums('service', [{ day: 0, from, to }], provider).map((row) => ({
      ...unitSumOf(row),
      provider: parseProviderId(row['per']) ?? DEFAULT_PROVIDER,
    }));
  }

  /** The creation times of the query's first and last task (null: it has none). */
  span(query: LedgerQuery): { first: number; last: number } | null {
    const { where, params } = queryWhere(query);
    // Two single-aggregate queries: SQLite answers each from one end of an index.
    const of = (aggregate: 'min' | 'max'): number | null => {
      const sql = `SELECT ${aggregate}(l.created_at) AS at FROM ledger_tasks l WHERE ${where.join(' AND ')}`;
      const value = this.access.row(sql, params)?.['at'];
      return value === null || value === undefined ? null : num(value);
    };
    const first = of('min');
    const last = of('max');
    return first === null || last === null ? null : { first, last };
  }

  /** The ledger's version and size (one row). */
  meta(): LedgerMeta {
    const row = this.access.row('SELECT version, tasks FROM ledger_meta WHERE id = 1', []);
    return { version: num(row?.['version']), tasks: num(row?.['tasks']) };
  }

  /**
   * Days read the sums of all services (or of the one asked for), services each service's at
   * any level; the tasks' own rows name a service each.
   */
  private sums(per: Per, pieces: readonly SumPiece[], provider?: ProviderId): Row[] {
    const { blocks, ranges } = plan(pieces, per === 'day' ? DAY_LEVELS : SUM_LEVELS);
    const extra: SqlValue[] = provider === undefined ? [] : [provider];
    const rows: Row[] = [];
    if (blocks.length > 0) {
      const all = per === 'day' ? `= '${ALL_SERVICES}'` : `<> '${ALL_SERVICES}'`;
      const sql = BY_BLOCK(per, `AND s.provider ${provider === undefined ? all : '= ?'}`);
      rows.push(...this.access.rows(sql, [JSON.stringify(blocks), ...extra]));
    }
    if (ranges.length > 0) {
      const sql = BY_ROW(per, provider === undefined ? '' : 'AND l.provider = ?');
      rows.push(...this.access.rows(sql, [JSON.stringify(ranges), ...extra]));
    }
    return rows;
  }
}

/** Units the ledger does not know (a row no Pictor wrote) count as tasks without an amount. */
function unitSumOf(row: Row): UnitSum {
  const unit = costUnitSchema().safeParse(row['unit']);
  return {
    unit: unit.success ? unit.data : null,
    micros: num(row['micros']),
    estimatedMicros: num(row['estimated']),
    tasks: num(row['tasks']),
    unknownTasks: num(row['unknown']),
  };
}
