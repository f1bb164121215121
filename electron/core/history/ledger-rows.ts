/**
 * The cost ledger's rows (history-schema.ts v8): every cost event of every task, appended and
 * never changed, and per task what it was and what it costs now. The history's record writes
 * note each task's cost here in the same transaction, so the ledger follows every change, from
 * the engine, an import or a rebuild; removing a task from the history leaves its rows alone (the
 * schema's triggers refuse a delete). From v9 each task's first saved image is noted too (the
 * Costs screen shows it; schema triggers move the ledger's sums and version with each change:
 * ledger-sums-schema.ts). Sums for the spending caps count a task in a cap's unit by its report
 * in that unit, else by the estimate it was admitted with in that unit; the Costs screen's are
 * read in ledger-sums.ts and its pages in ledger-pages.ts.
 */
import {
  DEFAULT_PROVIDER,
  parseProviderId,
  providerOf,
  type ProviderId,
} from '../../../shared/domain/providers';
import { countedCost, type CostUnit, type TaskCost } from '../../../shared/domain/task-cost';
import { listedAt, type TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryAccess } from './history-access';
import { recordsFromRows } from './history-rows';
import { accepted } from './ledger-accepted-schema';
import type { Row, SqlValue } from './sqlite-connection';

/** One event as stored: what kind, and its amount where it has one. */
interface LedgerEvent {
  readonly kind: string;
  readonly unit: CostUnit | null;
  readonly micros: number | null;
  readonly detail: string | null;
}

/** Tasks of a cap's scope that have no amount in its unit, grouped by what prices them. */
export interface UnpricedGroup {
  readonly provider: ProviderId;
  readonly model: string | null;
  readonly size: string | null;
  readonly tasks: number;
}

/** What a cap's period has spent in one unit, and the tasks it could not count in that unit. */
export interface CountedSpend {
  readonly micros: number;
  readonly unpriced: readonly UnpricedGroup[];
}

const SELECT_CURRENT = 'SELECT source, unit, micros, detail FROM ledger_tasks WHERE local_id = ?';
const INSERT_TASK = `INSERT INTO ledger_tasks (local_id, task_id, provider, endpoint, model, prompt,
  size, created_at, status, source, unit, micros, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_EVENT =
  'INSERT INTO ledger_events (local_id, at, kind, unit, micros, detail) VALUES (?, ?, ?, ?, ?, ?)';
const SET_CURRENT = `UPDATE ledger_tasks SET task_id = ?, status = ?, source = ?, unit = ?, micros = ?,
  detail = ? WHERE local_id = ?`;
const SET_STATUS = `UPDATE ledger_tasks SET task_id = ?, status = ? WHERE local_id = ?
  AND (task_id IS NOT ? OR status IS NOT ?)`;
/** v20: where the task lists now (a task written again may list elsewhere: made-at.ts). */
const SET_LISTED =
  'UPDATE ledger_tasks SET listed_at = ? WHERE local_id = ? AND listed_at IS NOT ?';
/** v9: the task's first saved image, noted when it changes (ledger-sums-schema.ts). */
const SET_THUMBNAIL =
  'UPDATE ledger_tasks SET thumbnail = ? WHERE local_id = ? AND thumbnail IS NOT ?';
const LATEST_IN_UNIT = (kind: string): string =>
  `(SELECT e.micros FROM ledger_events e WHERE e.local_id = l.local_id AND e.kind = '${kind}'
    AND e.unit = ? ORDER BY e.seq DESC LIMIT 1)`;
/** A cap's sum: the priced tasks in one row (provider null), the others grouped. */
const COUNTED = `
  WITH counted AS (
    SELECT l.provider, l.model, l.size,
      COALESCE(${LATEST_IN_UNIT('reported')}, ${LATEST_IN_UNIT('estimated')}) AS micros
    FROM ledger_tasks l
    WHERE l.created_at >= ? AND (? = '' OR l.provider = ?) AND l.source NOT IN ('not_billed', 'free')
      AND ${accepted('l')})
  SELECT CASE WHEN micros IS NULL THEN provider END AS provider,
    CASE WHEN micros IS NULL THEN model END AS model,
    CASE WHEN micros IS NULL THEN size END AS size,
    COALESCE(SUM(micros), 0) AS micros, COUNT(*) AS tasks
  FROM counted GROUP BY 1, 2, 3`;

const num = (value: unknown): number => Number(value ?? 0);
const text = (value: unknown): string | null => (value === null ? null : String(value));

export class LedgerRows {
  constructor(
    private readonly access: HistoryAccess,
    /** Notes each task's first saved image (schema v9; a test's older file does not). */
    private readonly withThumbnails: boolean,
    /** Notes where each task lists apart from its date (schema v20; an older file does not). */
    private readonly withListTimes: boolean,
  ) {}

  /**
   * Notes a record being written (inside its write transaction): a task with a cost joins the
   * ledger, a new cost is appended as an event, and the task's status follows. A record without
   * a cost (from before costs, or tracked and never reported) changes nothing but that status.
   */
  note(record: TaskRecord): void {
    this.noteCost(record);
    if (this.withListTimes) {
      const listed = listedApart(record);
      this.access.connection.run(SET_LISTED, [listed, record.localId, listed]);
    }
    if (!this.withThumbnails) return;
    const thumbnail = firstThumbnail(record);
    this.access.connection.run(SET_THUMBNAIL, [thumbnail, record.localId, thumbnail]);
  }

  private noteCost(record: TaskRecord): void {
    const { connection } = this.access;
    const { localId, taskId, status } = record;
    if (record.cost === undefined) {
      connection.run(SET_STATUS, [taskId, status, localId, taskId, status]);
      return;
    }
    const event = eventOf(record.cost);
    const current = connection.get(SELECT_CURRENT, [localId]);
    if (current === null) {
      connection.run(INSERT_TASK, [...taskColumns(record), ...eventColumns(event)]);
      this.append(localId, record.updatedAt, event);
      return;
    }
    if (!sameEvent(current, event)) {
      // A cost reported and then not billed after all is a refund of what was reported.
      const refund = event.kind === 'not_billed' && current['source'] === 'reported';
      this.append(localId, record.updatedAt, refund ? { ...event, kind: 'refunded' } : event);
      connection.run(SET_CURRENT, [taskId, status, ...eventColumns(event), localId]);
      return;
    }
    connection.run(SET_STATUS, [taskId, status, localId, taskId, status]);
  }

  /**
   * The estimates a task was admitted with in the units other than its own cost's (a service
   * priced in money and in credits): what a cap in such a unit counts until the service reports
   * in it. Inside the admitting transaction.
   */
  addEstimates(localId: string, at: number, estimates: readonly TaskCost[]): void {
    for (const estimate of estimates) this.append(localId, at, eventOf(estimate));
  }

  /**
   * What the tasks created from `since` (on `provider`, or every one for null) cost in `unit`:
   * each by its latest report in that unit, else by the estimate it was admitted with in it.
   * Tasks not billed or free count nothing; the rest are returned grouped for pricing.
   */
  counted(unit: CostUnit, provider: ProviderId | null, since: number): CountedSpend {
    const scope = provider ?? '';
    const rows = this.access.rows(COUNTED, [unit, unit, since, scope, scope]);
    let micros = 0;
    const unpriced: UnpricedGroup[] = [];
    for (const row of rows) {
      if (row['provider'] === null) {
        micros += num(row['micros']);
        continue;
      }
      unpriced.push({
        provider: parseProviderId(row['provider']) ?? DEFAULT_PROVIDER,
        model: text(row['model']),
        size: text(row['size']),
        tasks: num(row['tasks']),
      });
    }
    return { micros, unpriced };
  }

  /** Keeps a task removed from the history while its service still works on it. */
  watch(record: TaskRecord): void {
    this.access.connection.run(
      'INSERT OR REPLACE INTO ledger_watch (local_id, record) VALUES (?, ?)',
      [record.localId, JSON.stringify(record)],
    );
  }

  /** The task needs no more watching (it ended, or it is back in the history). */
  unwatch(localId: string): void {
    this.access.connection.run('DELETE FROM ledger_watch WHERE local_id = ?', [localId]);
  }

  /** The tasks removed from the history that the engine still watches, oldest first. */
  watched(): TaskRecord[] {
    const rows = this.access.rows(
      'SELECT local_id, record FROM ledger_watch ORDER BY local_id',
      [],
    );
    return recordsFromRows(rows, this.access).sort((a, b) => a.createdAt - b.createdAt);
  }

  private append(localId: string, at: number, event: LedgerEvent): void {
    this.access.connection.run(INSERT_EVENT, [localId, at, ...eventColumns(event)]);
  }
}

/**
 * The gallery path the Costs screen shows a task by: its first saved image's thumbnail, else that
 * image's file; `''` when no image is saved.
 */
function firstThumbnail(record: Pick<TaskRecord, 'images'>): string {
  const image = record.images.find((one) => one.state === 'saved' && (one.thumbnail ?? one.file));
  return image?.thumbnail ?? image?.file ?? '';
}

function eventOf(cost: TaskCost): LedgerEvent {
  const counted = countedCost(cost);
  const detail =
    cost.source === 'reported' ? cost.field : cost.source === 'estimated' ? cost.basis : null;
  return {
    kind: cost.source,
    unit: counted?.unit ?? null,
    micros: counted?.micros ?? null,
    detail,
  };
}

function eventColumns(event: LedgerEvent): SqlValue[] {
  return [event.kind, event.unit, event.micros, event.detail];
}

function taskColumns(record: TaskRecord): SqlValue[] {
  return [
    record.localId,
    record.taskId,
    providerOf(record),
    record.endpoint,
    record.request.model ?? null,
    record.request.prompt,
    record.request.size ?? null,
    record.createdAt,
    record.status,
  ];
}

/**
 * Where the task lists, newest first, when not by its date made (its `listedAt`: a clock that
 * stood behind, or an import), else NULL (the usual task: no write): the list time the gallery
 * orders it by (ledger-listed-schema.ts).
 */
function listedApart(record: TaskRecord): number | null {
  const at = listedAt(record);
  return at === record.createdAt ? null : at;
}

function sameEvent(row: Row, event: LedgerEvent): boolean {
  return (
    row['source'] === event.kind &&
    text(row['unit']) === event.unit &&
    (row['micros'] === null ? null : num(row['micros'])) === event.micros &&
    text(row['detail']) === event.detail
  );
}
