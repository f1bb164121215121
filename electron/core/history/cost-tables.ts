/**
 * The history's cost tables (history-schema.ts v7): the user's prices and spending caps, the
 * ledger's entries read from the task rows' cost columns, and the sums a cap check needs. Rows
 * read back pass their schema; one that does not is skipped (logged without its content).
 */
import {
  costPriceSchema,
  spendingCapSchema,
  type CostPrice,
  type LedgerEntry,
  type LedgerQuery,
  type SpendingCap,
} from '../../../shared/domain/cost-ledger';
import {
  DEFAULT_PROVIDER,
  parseProviderId,
  type ProviderId,
} from '../../../shared/domain/providers';
import {
  UNKNOWN_COST,
  taskCostSchema,
  type CostUnit,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import type { HistoryAccess } from './history-access';
import type { Row, SqlValue } from './sqlite-connection';

const SELECT_PRICES =
  'SELECT provider, model, unit, basis, micros FROM cost_prices ORDER BY provider, model';
const SET_PRICE =
  'INSERT OR REPLACE INTO cost_prices (provider, model, unit, basis, micros) VALUES (?, ?, ?, ?, ?)';
const CLEAR_PRICE = 'DELETE FROM cost_prices WHERE provider = ? AND model = ?';
const SELECT_CAPS =
  'SELECT period, unit, provider, kind, micros FROM cost_caps ORDER BY period, unit, provider, kind';
const SET_CAP =
  'INSERT OR REPLACE INTO cost_caps (period, unit, provider, kind, micros) VALUES (?, ?, ?, ?, ?)';
const LEDGER_COLUMNS = `local_id, task_id, provider, model, status, created_at, cost_source, cost_unit,
  cost_micros, json_extract(record, '$.cost.field') AS cost_field,
  json_extract(record, '$.cost.basis') AS cost_basis`;

const CAP_COLUMNS = ['period', 'unit', 'provider', 'kind'] as const;

/** What a cap clears: every cap matching the fields given. */
export type CapMatch = Partial<Pick<SpendingCap, 'period' | 'unit' | 'provider' | 'kind'>>;

const num = (value: unknown): number => Number(value ?? 0);

export class CostTables {
  constructor(private readonly access: HistoryAccess) {}

  prices(): CostPrice[] {
    return this.parsed(this.access.rows(SELECT_PRICES, []), (row) =>
      costPriceSchema.safeParse({ ...row, micros: num(row['micros']) }),
    );
  }

  setPrice(price: CostPrice): void {
    const valid = costPriceSchema.parse(price);
    this.access.write(() =>
      this.access.connection.run(SET_PRICE, [
        valid.provider,
        valid.model,
        valid.unit,
        valid.basis,
        valid.micros,
      ]),
    );
  }

  /** Removes the price of `provider` and `model` ('' : its every-model price); false when none. */
  clearPrice(provider: ProviderId, model: string): boolean {
    return this.access.write(
      () => this.access.connection.run(CLEAR_PRICE, [provider, model.trim()]).changes > 0,
    );
  }

  caps(): SpendingCap[] {
    return this.parsed(this.access.rows(SELECT_CAPS, []), (row) =>
      spendingCapSchema.safeParse({
        ...row,
        provider: row['provider'] === '' ? null : row['provider'],
        micros: num(row['micros']),
      }),
    );
  }

  /** Sets a cap, replacing the one of the same period, unit, service and kind. */
  setCap(cap: SpendingCap): void {
    const valid = spendingCapSchema.parse(cap);
    this.access.write(() =>
      this.access.connection.run(SET_CAP, [
        valid.period,
        valid.unit,
        valid.provider ?? '',
        valid.kind,
        valid.micros,
      ]),
    );
  }

  /** Removes every cap matching `match`; returns how many. */
  clearCaps(match: CapMatch): number {
    const where: string[] = [];
    const params: SqlValue[] = [];
    for (const column of CAP_COLUMNS) {
      const value = match[column];
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value === null ? '' : value);
    }
    const sql = `DELETE FROM cost_caps${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    return this.access.write(() => this.access.connection.run(sql, params).changes);
  }

  /** Tasks with a cost, oldest first. */
  entries(query: LedgerQuery = {}): LedgerEntry[] {
    const { sql, params } = ledgerWhere(query);
    const rows = this.access.rows(
      `SELECT ${LEDGER_COLUMNS} FROM tasks WHERE ${sql} ORDER BY created_at, local_id`,
      params,
    );
    return rows.map(entryOf);
  }

  /**
   * What the tasks created from `since` cost in `unit` (on `provider` only, when given): reported
   * amounts and the estimates of the rest. For a cap check, inside the admitting transaction.
   */
  spent(unit: CostUnit, provider: ProviderId | null, since: number): number {
    const { sql, params } = ledgerWhere({ since, ...(provider ? { provider } : {}) });
    const row = this.access.row(
      `SELECT COALESCE(SUM(cost_micros), 0) AS micros FROM tasks WHERE ${sql} AND cost_unit = ?`,
      [...params, unit],
    );
    return num(row?.['micros']);
  }

  private parsed<T>(
    rows: readonly Row[],
    parse: (row: Row) => { success: true; data: T } | { success: false },
  ): T[] {
    const found: T[] = [];
    for (const row of rows) {
      const parsed = parse(row);
      if (parsed.success) found.push(parsed.data);
      else this.access.logger.warn('Skipped a cost setting that could not be read.');
    }
    return found;
  }
}

function ledgerWhere(query: LedgerQuery): { sql: string; params: SqlValue[] } {
  const where = ['cost_source IS NOT NULL', 'created_at >= ?'];
  const params: SqlValue[] = [query.since ?? 0];
  if (query.until !== undefined) {
    where.push('created_at < ?');
    params.push(query.until);
  }
  if (query.provider !== undefined) {
    where.push('provider = ?');
    params.push(query.provider);
  }
  return { sql: where.join(' AND '), params };
}

function costOf(row: Row): TaskCost {
  const parsed = taskCostSchema.safeParse({
    source: row['cost_source'],
    ...(row['cost_unit'] === null ? {} : { unit: row['cost_unit'] }),
    ...(row['cost_micros'] === null ? {} : { micros: num(row['cost_micros']) }),
    ...(row['cost_field'] === null ? {} : { field: row['cost_field'] }),
    ...(row['cost_basis'] === null ? {} : { basis: row['cost_basis'] }),
  });
  return parsed.success ? parsed.data : UNKNOWN_COST;
}

function entryOf(row: Row): LedgerEntry {
  const model = row['model'];
  const taskId = row['task_id'];
  return {
    localId: String(row['local_id']),
    taskId: taskId === null ? null : String(taskId),
    provider: parseProviderId(row['provider']) ?? DEFAULT_PROVIDER,
    model: model === null ? null : String(model),
    status: String(row['status']),
    createdAt: num(row['created_at']),
    cost: costOf(row),
  };
}
