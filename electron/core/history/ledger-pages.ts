/**
 * The ledger's tasks read a page at a time (keyset: a page starts after the last task of the one
 * before, by list time then local id), so a page costs its own rows whatever the ledger holds:
 * the Costs screen's list, newest first, and the CSV export and the CLI's listing, oldest first.
 * A task keeps its place while others are added or change cost, so paging on never repeats or
 * skips one.
 *
 * One order with the gallery and the task list: a task lists by its list time (schema v20,
 * ledger-listed-schema.ts: `listed_at` where it lists apart from its date, else its date made),
 * while the dates a query names are the task's date made (`created_at`), as the gallery's date
 * filter asks (made-at.ts). The list-time range a page seeks in is the dates' own, widened to the
 * list times of the few tasks made within them that list apart (read once from their partial
 * index); the date test then keeps exactly the tasks made within the dates.
 */
import type { LedgerEntry, LedgerQuery } from '../../../shared/domain/cost-ledger';
import { DEFAULT_PROVIDER, parseProviderId } from '../../../shared/domain/providers';
import { UNKNOWN_COST, taskCostSchema, type TaskCost } from '../../../shared/domain/task-cost';
import type { HistoryAccess } from './history-access';
import { addValue } from './history-query';
import { accepted } from './ledger-accepted-schema';
import { LEDGER_SERVICE_COLUMNS, serviceTest } from './service-filter';
import type { Row, SqlValue } from './sqlite-connection';
import { isDemoEndpoint } from '../../../shared/domain/submit-target';

/** Where a page starts: after the task listed at `listedAt` with `localId`. */
export interface LedgerCursor {
  readonly listedAt: number;
  readonly localId: string;
}

/** A ledger task as the Costs screen lists it: with the thumbnail it is shown by. */
export interface LedgerListEntry extends LedgerEntry {
  /** Its first saved image (a gallery path) while the history lists it; else null. */
  readonly thumbnail: string | null;
}

/** One page, and where the next starts (null: this was the last). */
export interface LedgerPage<E extends LedgerEntry = LedgerEntry> {
  readonly entries: E[];
  readonly next: LedgerCursor | null;
}

/** Where a task lists (its index: ledger-listed-schema.ts); before v20, its date made. */
const LISTED = 'coalesce(l.listed_at, l.created_at)';
const ENTRY_COLUMNS = `l.local_id, l.task_id, l.provider, l.endpoint, l.model, l.size, l.prompt, l.status, l.created_at,
  l.source, l.unit, l.micros, l.detail, EXISTS (SELECT 1 FROM tasks t WHERE t.local_id = l.local_id) AS in_history`;
/** An image's path as the screen shows it (its thumbnail, else its file). */
const IMAGE_PATH = `NULLIF(COALESCE(i.value ->> '$.thumbnail', i.value ->> '$.file'), '')`;
/**
 * The task's thumbnail: as noted since schema v9 (`''` none), else its record's first saved
 * image (a task not written since), the same rule as ledger-rows.ts firstThumbnail.
 */
const THUMBNAIL = `CASE WHEN l.thumbnail IS NOT NULL THEN NULLIF(l.thumbnail, '') ELSE (
  SELECT ${IMAGE_PATH} FROM tasks t, json_each(t.record, '$.images') i
  WHERE t.local_id = l.local_id AND i.value ->> '$.state' = 'saved' AND ${IMAGE_PATH} IS NOT NULL
  ORDER BY i.key LIMIT 1) END AS thumbnail`;

const num = (value: unknown): number => Number(value ?? 0);
const text = (value: unknown): string | null => (value === null ? null : String(value));

/** The conditions on the ledger's tasks (`ledger_tasks l`) a query names, and their parameters. */
export function queryWhere(query: LedgerQuery): { where: string[]; params: SqlValue[] } {
  // Never a request the service did not accept (ledger-accepted-schema.ts).
  const where = ['l.created_at >= ?', accepted('l')];
  const params: SqlValue[] = [query.since ?? 0];
  addValue('l.created_at < ?', query.until, where, params);
  if (query.provider !== undefined) {
    const test = serviceTest(LEDGER_SERVICE_COLUMNS, query.provider);
    where.push(test.where);
    params.push(...test.params);
  }
  return { where, params };
}

/**
 * The list-time range a query's dates let in (see the module comment): `since` and `until` widened
 * to the list times of the tasks made within them that list apart.
 */
function listedRange(query: LedgerQuery): { where: string[]; params: SqlValue[] } {
  const since = query.since ?? 0;
  const made = ['a.created_at >= ?'];
  const madeParams: SqlValue[] = [since];
  addValue('a.created_at < ?', query.until, made, madeParams);
  const apart = `FROM ledger_tasks a INDEXED BY ledger_tasks_listed_apart
    WHERE a.listed_at IS NOT NULL AND ${made.join(' AND ')}`;
  const where = [`${LISTED} >= min(?, coalesce((SELECT min(a.listed_at) ${apart}), ?))`];
  const params: SqlValue[] = [since, ...madeParams, since];
  if (query.until !== undefined) {
    where.push(`${LISTED} < max(?, coalesce((SELECT max(a.listed_at) + 1 ${apart}), ?))`);
    params.push(query.until, ...madeParams, query.until);
  }
  return { where, params };
}

/** The WHERE clause and parameters of a query, and of a page's start, and the order key. */
function whereOf(
  query: LedgerQuery,
  after: LedgerCursor | undefined,
  newest: boolean,
  listed: boolean,
) {
  const { where, params } = queryWhere(query);
  const key = listed ? LISTED : 'l.created_at';
  if (listed) {
    const range = listedRange(query);
    where.push(...range.where);
    params.push(...range.params);
  }
  if (after !== undefined) {
    // The index range on the list time, then the tie broken by local id.
    const [edge, beyond] = newest ? ['<=', '<'] : ['>=', '>'];
    where.push(`${key} ${edge} ? AND (${key} ${beyond} ? OR l.local_id ${beyond} ?)`);
    params.push(after.listedAt, after.listedAt, after.localId);
  }
  return { where: where.join(' AND '), params, key };
}

export class LedgerPages {
  constructor(
    private readonly access: HistoryAccess,
    /** Lists by list time (schema v20; a test's older file lists by the date made). */
    private readonly listed: boolean,
  ) {}

  /** Up to `limit` tasks of `query`, newest first, after `after`; with their thumbnails. */
  newest(query: LedgerQuery, limit: number, after?: LedgerCursor): LedgerPage<LedgerListEntry> {
    const { where, params, key } = whereOf(query, after, true, this.listed);
    const sql = `SELECT ${ENTRY_COLUMNS}, ${key} AS listed, ${THUMBNAIL} FROM ledger_tasks l
      WHERE ${where} ORDER BY ${key} DESC, l.local_id DESC LIMIT ?`;
    const rows = this.access.rows(sql, [...params, limit + 1]);
    return pageOf(rows, limit, (row) => {
      const entry = entryOf(row);
      return { ...entry, thumbnail: entry.inHistory ? text(row['thumbnail']) : null };
    });
  }

  /** Up to `limit` tasks of `query`, oldest first, after `after` (the CSV's pages). */
  oldest(query: LedgerQuery, limit: number, after?: LedgerCursor): LedgerPage {
    const { where, params, key } = whereOf(query, after, false, this.listed);
    const sql = `SELECT ${ENTRY_COLUMNS}, ${key} AS listed FROM ledger_tasks l WHERE ${where}
      ORDER BY ${key}, l.local_id LIMIT ?`;
    return pageOf(this.access.rows(sql, [...params, limit + 1]), limit, entryOf);
  }

  /** Every task of `query`, oldest first (the CLI's listing). */
  all(query: LedgerQuery): LedgerEntry[] {
    const { where, params, key } = whereOf(query, undefined, false, this.listed);
    const sql = `SELECT ${ENTRY_COLUMNS} FROM ledger_tasks l WHERE ${where}
      ORDER BY ${key}, l.local_id`;
    return this.access.rows(sql, params).map(entryOf);
  }
}

/** The first `limit` rows as entries; one row more (asked for) says a next page exists. */
function pageOf<E extends LedgerEntry>(
  rows: readonly Row[],
  limit: number,
  read: (row: Row) => E,
): LedgerPage<E> {
  const entries = rows.slice(0, limit).map(read);
  const last = rows[limit - 1];
  const next =
    rows.length > limit && last
      ? { listedAt: num(last['listed']), localId: String(last['local_id']) }
      : null;
  return { entries, next };
}

function costOf(row: Row): TaskCost {
  const source = row['source'];
  const detail = row['detail'];
  const parsed = taskCostSchema().safeParse({
    source,
    ...(row['unit'] === null ? {} : { unit: row['unit'] }),
    ...(row['micros'] === null ? {} : { micros: num(row['micros']) }),
    ...(source === 'reported' && detail !== null ? { field: detail } : {}),
    ...(source === 'estimated' && detail !== null ? { basis: detail } : {}),
  });
  return parsed.success ? parsed.data : UNKNOWN_COST;
}

function entryOf(row: Row): LedgerEntry {
  return {
    localId: String(row['local_id']),
    taskId: text(row['task_id']),
    provider: parseProviderId(row['provider']) ?? DEFAULT_PROVIDER,
    model: text(row['model']),
    size: text(row['size']),
    prompt: String(row['prompt'] ?? ''),
    status: String(row['status']),
    createdAt: num(row['created_at']),
    cost: costOf(row),
    inHistory: num(row['in_history']) === 1,
    ...(isDemoEndpoint(String(row['endpoint'])) ? { demo: true as const } : {}),
  };
}
