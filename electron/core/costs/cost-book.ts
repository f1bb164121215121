/**
 * The cost ledger of one library, as the app and the CLI use it: the user's prices and spending
 * caps (kept in the history database, so every Pictor process reads the same), the ledger's
 * entries, totals by the user's local day, month and service, its CSV, a preview of what a submit
 * will cost and what the caps say of it, and the admission of new tasks the task engine stores
 * through (priced, and checked against the caps in the transaction that inserts them).
 *
 * The window reads it through the `costs:` channels (ipc/cost-handlers.ts): `entries`, `totals`
 * and `csv` feed the Costs screen, `preview` the compose form's estimate and the caps' word on
 * it, `prices`/`caps` and their setters Settings › Costs.
 */
import type {
  CostPrice,
  LedgerEntry,
  LedgerQuery,
  LedgerTotals,
  SpendingCap,
} from '../../../shared/domain/cost-ledger';
import { providerOf, type ProviderId } from '../../../shared/domain/providers';
import type { TaskCost } from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { EngineAdmission } from '../engine/engine-types';
import type { CapMatch } from '../history/cost-tables';
import type { HistoryStore } from '../history/history-store';
import { checkCaps, type CapVerdict } from './cap-check';
import { estimateCost } from './cost-estimate';
import { ledgerCsv } from './ledger-csv';
import { ledgerTotals } from './ledger-totals';
import { hostTimeZone, periodStart } from './local-periods';
import { SpendingCapError } from './spending-cap-error';

export interface CostBookOptions {
  readonly history: Pick<HistoryStore, 'costs' | 'admitMany'>;
  readonly now: () => number;
  /** The user's time zone (IANA name) for local days and months; default the host's. */
  readonly timeZone?: string;
}

/** What a submit would cost, per task, and the caps' verdict on it. */
export interface CostPreview extends CapVerdict {
  readonly perTask: TaskCost;
  readonly count: number;
}

export class CostBook implements EngineAdmission {
  readonly timeZone: string;

  constructor(private readonly options: CostBookOptions) {
    this.timeZone = options.timeZone ?? hostTimeZone();
  }

  private get tables(): HistoryStore['costs'] {
    return this.options.history.costs;
  }

  prices(): CostPrice[] {
    return this.tables.prices();
  }

  setPrice(price: CostPrice): void {
    this.tables.setPrice(price);
  }

  clearPrice(provider: ProviderId, model = ''): boolean {
    return this.tables.clearPrice(provider, model);
  }

  caps(): SpendingCap[] {
    return this.tables.caps();
  }

  /** Sets (or replaces) a cap: only ever the user's own action, in Settings or `pictor caps`. */
  setCap(cap: SpendingCap): void {
    this.tables.setCap(cap);
  }

  clearCaps(match: CapMatch = {}): number {
    return this.tables.clearCaps(match);
  }

  /** Tasks with a cost, oldest first. */
  entries(query: LedgerQuery = {}): LedgerEntry[] {
    return this.tables.entries(query);
  }

  totals(query: LedgerQuery = {}): LedgerTotals {
    return ledgerTotals(this.entries(query), this.timeZone);
  }

  /** The entries and their totals from one read of the history (the Costs screen, `pictor costs`). */
  ledger(query: LedgerQuery = {}): { entries: LedgerEntry[]; totals: LedgerTotals } {
    const entries = this.entries(query);
    return { entries, totals: ledgerTotals(entries, this.timeZone) };
  }

  csv(query: LedgerQuery = {}): string {
    return ledgerCsv(this.entries(query), this.timeZone);
  }

  /** What a cap's period has cost so far, in its unit (Settings' and `caps list`'s view). */
  spentIn(cap: Pick<SpendingCap, 'period' | 'unit' | 'provider'>): number {
    const since = periodStart(cap.period, this.options.now(), this.timeZone);
    return this.tables.spent(cap.unit, cap.provider, since);
  }

  /** What `count` tasks of `request` on `provider` would cost, and what the caps say (no write). */
  preview(provider: ProviderId, request: GenerationRequest, count = 1): CostPreview {
    const perTask = estimateCost(this.prices(), provider, request);
    const verdict = this.verdict(
      provider,
      Array.from({ length: count }, () => perTask),
    );
    return { perTask, count, ...verdict };
  }

  /** See {@link EngineAdmission.admit}. */
  admit(
    records: readonly TaskRecord[],
    lease: { owner: string; until: number } | undefined,
  ): TaskRecord[] {
    return this.options.history.admitMany(records, lease, (valid) => {
      const prices = this.prices();
      const priced = valid.map((record) => ({
        ...record,
        cost: estimateCost(prices, providerOf(record), record.request),
      }));
      const [first] = priced;
      if (first === undefined) return priced;
      const verdict = this.verdict(
        providerOf(first),
        priced.map((record) => record.cost),
      );
      if (verdict.refusal) throw new SpendingCapError(verdict.refusal, { code: 'bad_input' });
      return priced;
    });
  }

  private verdict(provider: ProviderId, costs: readonly TaskCost[]): CapVerdict {
    return checkCaps({
      caps: this.caps(),
      provider,
      costs,
      spent: (unit, capProvider, since) => this.tables.spent(unit, capProvider, since),
      now: this.options.now(),
      timeZone: this.timeZone,
    });
  }
}
