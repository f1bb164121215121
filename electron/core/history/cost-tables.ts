/**
 * The history's cost tables (history-schema.ts v7, v8, v9): the user's prices (one per service,
 * model and unit) and spending caps, and the ledger (ledger-rows.ts): its entries a page at a time
 * (ledger-pages.ts), its sums by SQL aggregate (ledger-sums.ts), its version, and the sums a cap
 * check needs. Rows read back pass their schema; one that does not is skipped (logged without
 * its content).
 */
import {
  costPriceSchema,
  spendingCapSchema,
  type CostPrice,
  type LedgerEntry,
  type LedgerQuery,
  type SpendingCap,
} from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import type { CostUnit, TaskCost } from '../../../shared/domain/task-cost';
import type { HistoryAccess } from './history-access';
import type { LedgerCursor, LedgerListEntry, LedgerPage, LedgerPages } from './ledger-pages';
import type { CountedSpend, LedgerRows } from './ledger-rows';
import type { DaySum, LedgerMeta, LedgerSums, ServiceSum, SumPiece } from './ledger-sums';
import type { Row, SqlValue } from './sqlite-connection';

const PRICE_COLUMNS = ['provider', 'model', 'unit', 'basis', 'micros'] as const;
const CAP_COLUMNS = ['period', 'unit', 'provider', 'kind'] as const;
const CAP_ROW = [...CAP_COLUMNS, 'micros'] as const;
/** The statement that writes one row of `columns`, replacing the one of the same key. */
const replaceInto = (table: string, columns: readonly string[]): string =>
  `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

const SELECT_PRICES =
  'SELECT provider, model, unit, basis, micros FROM cost_prices ORDER BY provider, model, unit';
const SET_PRICE = replaceInto('cost_prices', PRICE_COLUMNS);
const CLEAR_PRICE = 'DELETE FROM cost_prices WHERE provider = ? AND model = ?';
const CLEAR_PRICE_IN_UNIT = `${CLEAR_PRICE} AND unit = ?`;
const SELECT_CAPS =
  'SELECT period, unit, provider, kind, micros FROM cost_caps ORDER BY period, unit, provider, kind';
const SET_CAP = replaceInto('cost_caps', CAP_ROW);

/** What a cap clears: every cap matching the fields given. */
export type CapMatch = Partial<Pick<SpendingCap, 'period' | 'unit' | 'provider' | 'kind'>>;

const num = (value: unknown): number => Number(value ?? 0);

export class CostTables {
  constructor(
    private readonly access: HistoryAccess,
    /** The ledger's rows (the record writes note each task's cost there). */
    readonly ledger: LedgerRows,
    private readonly reads: { readonly pages: LedgerPages; readonly sums: LedgerSums },
  ) {}

  prices(): CostPrice[] {
    return this.parsed(this.access.rows(SELECT_PRICES, []), (row) =>
      costPriceSchema().safeParse({ ...row, micros: num(row['micros']) }),
    );
  }

  setPrice(price: CostPrice): void {
    this.replace(SET_PRICE, PRICE_COLUMNS, costPriceSchema().parse(price));
  }

  /**
   * Removes the prices of `provider` and `model` ('' : its every-model price), in `unit` only
   * when given; false when there was none.
   */
  clearPrice(provider: ProviderId, model: string, unit?: CostUnit): boolean {
    const params: SqlValue[] = [provider, model.trim()];
    const sql = unit === undefined ? CLEAR_PRICE : CLEAR_PRICE_IN_UNIT;
    return this.access.write(
      () =>
        this.access.connection.run(sql, unit === undefined ? params : [...params, unit]).changes >
        0,
    );
  }

  caps(): SpendingCap[] {
    return this.parsed(this.access.rows(SELECT_CAPS, []), (row) =>
      spendingCapSchema().safeParse({
        ...row,
        provider: row['provider'] === '' ? null : row['provider'],
        micros: num(row['micros']),
      }),
    );
  }

  /** Sets a cap, replacing the one of the same period, unit, service and kind. */
  setCap(cap: SpendingCap): void {
    const valid = spendingCapSchema().parse(cap);
    // The every-service cap's provider is '' in its row (a key column is never NULL).
    this.replace(SET_CAP, CAP_ROW, { ...valid, provider: valid.provider ?? '' });
  }

  /** Writes one row (`sql`: {@link replaceInto}), its values taken from `row` in `columns`' order. */
  private replace<C extends string>(
    sql: string,
    columns: readonly C[],
    row: Readonly<Record<C, SqlValue>>,
  ): void {
    this.access.write(() =>
      this.access.connection.run(
        sql,
        columns.map((column) => row[column]),
      ),
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

  /** The ledger's tasks, oldest first, removed from the history or not. */
  entries(query: LedgerQuery = {}): LedgerEntry[] {
    return this.reads.pages.all(query);
  }

  /** See {@link LedgerPages.newest}: the Costs screen's list. */
  newest(query: LedgerQuery, limit: number, after?: LedgerCursor): LedgerPage<LedgerListEntry> {
    return this.reads.pages.newest(query, limit, after);
  }

  /** See {@link LedgerPages.oldest}: the CSV's pages. */
  oldest(query: LedgerQuery, limit: number, after?: LedgerCursor): LedgerPage {
    return this.reads.pages.oldest(query, limit, after);
  }

  /** See {@link LedgerSums.days}. */
  daySums(pieces: readonly SumPiece[], provider?: ProviderId): DaySum[] {
    return this.reads.sums.days(pieces, provider);
  }

  /** See {@link LedgerSums.services}. */
  serviceSums(from: number, to: number, provider?: ProviderId): ServiceSum[] {
    return this.reads.sums.services(from, to, provider);
  }

  /** See {@link LedgerSums.span}. */
  span(query: LedgerQuery): { first: number; last: number } | null {
    return this.reads.sums.span(query);
  }

  /** The ledger's version (it moves with every change the window shows) and its size. */
  meta(): LedgerMeta {
    return this.reads.sums.meta();
  }

  /** The ledger's version; null once the history is closed (the change feed then stops looking). */
  version(): number | null {
    return this.access.connection.isOpen ? this.meta().version : null;
  }

  /** How many tasks the ledger holds, whatever their dates and services. */
  ledgerSize(): number {
    return this.meta().tasks;
  }

  /** See {@link LedgerRows.counted}: for a cap check, inside the admitting transaction. */
  counted(unit: CostUnit, provider: ProviderId | null, since: number): CountedSpend {
    return this.ledger.counted(unit, provider, since);
  }

  /** See {@link LedgerRows.addEstimates}. */
  addEstimates(localId: string, at: number, estimates: readonly TaskCost[]): void {
    this.access.write(() => this.ledger.addEstimates(localId, at, estimates));
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
