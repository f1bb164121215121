/**
 * The cost ledger's rows (history-schema.ts v8): every cost event of every task, appended and
 * never changed, and per task what it was and what it costs now. The history's record writes
 * note each task's cost here in the same transaction, so the ledger follows every change, from
 * the engine, an import or a rebuild; removing a task from the history leaves its rows alone (the
 * schema's triggers refuse a delete). Sums for the spending caps count a task in a cap's unit by
 * its report in that unit, else by the estimate it was admitted with in that unit.
 */
import type { LedgerEntry, LedgerQuery } from '../../../shared/domain/cost-ledger';
import {
  DEFAULT_PROVIDER,
  parseProviderId,
  providerOf,
  type ProviderId,
} from '../../../shared/domain/providers';
import {
  UNKNOWN_COST,
  countedCost,
  taskCostSchema,
  type CostUnit,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryAccess } from './history-access';
import { recordsFromRows } from './history-rows';
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
const ENTRY_COLUMNS = `l.local_id, l.task_id, l.provider, l.model, l.prompt, l.status, l.created_at,
  l.source, l.unit, l.micros, l.detail, EXISTS (SELECT 1 FROM tasks t WHERE t.local_id = l.local_id) AS in_history`;
const LATEST_IN_UNIT = (kind: string): string =>
  `(SELECT e.micros FROM ledger_events e WHERE e.local_id = l.local_id AND e.kind = '${kind}'
    AND e.unit = ? ORDER BY e.seq DESC LIMIT 1)`;
/** A cap's sum: the priced tasks in one row (provider null), the others grouped. */
const COUNTED = `
  WITH counted AS (
    SELECT l.provider, l.model, l.size,
      COALESCE(${LATEST_IN_UNIT('reported')}, ${LATEST_IN_UNIT('estimated')}) AS micros
    FROM ledger_tasks l
    WHERE l.created_at >= ? AND (? = '' OR l.provider = ?) AND l.source NOT IN ('not_billed', 'free'))
  SELECT CASE WHEN micros IS NULL THEN provider END AS provider,
    CASE WHEN micros IS NULL THEN model END AS model,
    CASE WHEN micros IS NULL THEN size END AS size,
    COALESCE(SUM(micros), 0) AS micros, COUNT(*) AS tasks
  FROM counted GROUP BY 1, 2, 3`;

const num = (value: unknown): number => Number(value ?? 0);
const text = (value: unknown): string | null => (value === null ? null : String(value));

export class LedgerRows {
  constructor(private readonly access: HistoryAccess) {}

  /**
   * Notes a record being written (inside its write transaction): a task with a cost joins the
   * ledger, a new cost is appended as an event, and the task's status follows. A record without
   * a cost (from before costs, or tracked and never reported) changes nothing but that status.
   */
  note(record: TaskRecord): void {
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

  /** The ledger's tasks, oldest first, whether or not the history still lists them. */
  entries(query: LedgerQuery = {}): LedgerEntry[] {
    const where = ['l.created_at >= ?'];
    const params: SqlValue[] = [query.since ?? 0];
    if (query.until !== undefined) {
      where.push('l.created_at < ?');
      params.push(query.until);
    }
    if (query.provider !== undefined) {
      where.push('l.provider = ?');
      params.push(query.provider);
    }
    const sql = `SELECT ${ENTRY_COLUMNS} FROM ledger_tasks l WHERE ${where.join(' AND ')}
      ORDER BY l.created_at, l.local_id`;
    return this.access.rows(sql, params).map(entryOf);
  }

  /** How many tasks the ledger holds in all (the Costs screen tells a first run from an empty period). */
  size(): number {
    const [row] = this.access.rows('SELECT COUNT(*) AS tasks FROM ledger_tasks', []);
    return num(row?.['tasks'] ?? 0);
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
    return recordsFromRows(rows, this.access.logger).sort((a, b) => a.createdAt - b.createdAt);
  }

  private append(localId: string, at: number, event: LedgerEvent): void {
    this.access.connection.run(INSERT_EVENT, [localId, at, ...eventColumns(event)]);
  }
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

function sameEvent(row: Row, event: LedgerEvent): boolean {
  return (
    row['source'] === event.kind &&
    text(row['unit']) === event.unit &&
    (row['micros'] === null ? null : num(row['micros'])) === event.micros &&
    text(row['detail']) === event.detail
  );
}

function costOf(row: Row): TaskCost {
  const source = row['source'];
  const detail = row['detail'];
  const parsed = taskCostSchema.safeParse({
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
    prompt: String(row['prompt'] ?? ''),
    status: String(row['status']),
    createdAt: num(row['created_at']),
    cost: costOf(row),
    inHistory: num(row['in_history']) === 1,
  };
}
