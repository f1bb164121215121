/**
 * The ledger as the window reads it, each read bounded by what it shows, never by what the ledger
 * holds: the Costs screen's first page and totals (`screen`), the pages after it (`page`), and
 * the CSV a page at a time (`csvChunks`). Totals are SQL aggregates (ledger-totals.ts), pages
 * keyset reads (history/ledger-pages.ts).
 */
import type { LedgerEntry, LedgerQuery, LedgerTotals } from '../../../shared/domain/cost-ledger';
import type { CostTables, LedgerCursor, LedgerListEntry, LedgerPage } from '../history';
import { csvHeader, csvRows, type HeldKeyScrub } from './ledger-csv';
import { ledgerSummary, ledgerSummaryOf, type LedgerSumsRead } from './ledger-totals';

/** Tasks per page of the CSV export: a few milliseconds of the main thread each. */
const CSV_PAGE = 2_000;

/** What the Costs screen shows first. */
export interface LedgerScreen extends LedgerPage<LedgerListEntry> {
  /** How many tasks the query matched. */
  readonly total: number;
  readonly totals: LedgerTotals;
  /** How many tasks the whole ledger holds (0: nothing was ever priced or counted). */
  readonly allTime: number;
  /**
   * The ledger's version when this was read: a change event with another version means the
   * screen should read again (LedgerFeed).
   */
  readonly version: number;
}

export type LedgerTables = Pick<
  CostTables,
  'newest' | 'oldest' | 'span' | 'daySums' | 'serviceSums' | 'meta'
>;

export class LedgerReader {
  constructor(
    private readonly tables: LedgerTables,
    private readonly timeZone: string,
    /** Reads the totals' sums elsewhere (the history worker); by default here, on `tables`. */
    private readonly sums?: LedgerSumsRead,
  ) {}

  /** The totals of `query` (every task it matches) and how many tasks it matched. */
  summary(query: LedgerQuery): { totals: LedgerTotals; tasks: number } {
    return ledgerSummary(this.tables, query, this.timeZone);
  }

  /** The newest `limit` tasks of `query`, its totals, the ledger's size and version. */
  async screen(query: LedgerQuery, limit: number): Promise<LedgerScreen> {
    // The version first: a change after it is read comes as an event with a later one.
    const { version, tasks: allTime } = this.tables.meta();
    const { totals, tasks } = this.sums
      ? await ledgerSummaryOf(this.tables, this.sums, query, this.timeZone)
      : this.summary(query);
    const { entries, next } = this.tables.newest(query, limit, undefined);
    return { entries, next, total: tasks, totals, allTime, version };
  }

  /** The `limit` tasks of `query` after `after`, newest first. */
  page(query: LedgerQuery, after: LedgerCursor, limit: number): LedgerPage<LedgerListEntry> {
    return this.tables.newest(query, limit, after);
  }

  /**
   * The CSV of `query`, oldest task first: its header, then one chunk per page of tasks; while a
   * key is held (`held`), a task whose id carries one with the key scrubbed (ledger-csv.ts).
   */
  *csvChunks(query: LedgerQuery, held: HeldKeyScrub | null): Generator<string, void, undefined> {
    yield csvHeader();
    let after: LedgerCursor | undefined;
    do {
      const page: LedgerPage<LedgerEntry> = this.tables.oldest(query, CSV_PAGE, after);
      yield csvRows(page.entries, this.timeZone, held);
      after = page.next ?? undefined;
    } while (after !== undefined);
  }
}
