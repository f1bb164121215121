/**
 * The cost ledger of one library, as the app and the CLI use it: the user's prices and spending
 * caps (kept in the history database, so every Pictor process reads the same), the ledger's
 * entries, totals by the user's local day, month and service, its CSV, a preview of what a submit
 * will cost and what the caps say of it, and the admission of new tasks the task engine stores
 * through (priced, and checked against the caps in the transaction that inserts them).
 *
 * The window reads it through the `costs:` channels (ipc/cost-handlers.ts): `screen`, `page` and
 * `csvChunks` feed the Costs screen (reads bounded by what it shows: ledger-reader.ts), and
 * `onDidChange` tells it when to read again (ledger-feed.ts); `preview` the compose form's
 * estimate and the caps' word on it, `prices`/`caps` and their setters Settings › Costs.
 */
import type {
  CostPrice,
  LedgerEntry,
  LedgerQuery,
  LedgerTotals,
  SpendingCap,
} from '../../../shared/domain/cost-ledger';
import { providerOf, type ProviderId } from '../../../shared/domain/providers';
import {
  FREE_COST,
  UNKNOWN_COST,
  type CostUnit,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { GenerationRequest } from '../../../shared/service/wire';
import { type EngineAdmission, sameCapIn } from '../engine';
import type { CapMatch, HistoryStore, LedgerCursor, LedgerListEntry, LedgerPage } from '../history';
import type { Clock } from '../../ports/clock';
import type { Event } from '../../ports/event';
import type { Logger } from '../../ports/logger';
import { isDemoEndpoint } from '../service';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { CapLoosening } from '../../ports/user-prompts';
import { checkCaps, type Adding, type CapVerdict, type UncountedGroup } from './cap-check';
import { capSpend, spentSince, type CapSpend, type CapStanding } from './cap-spend';
import { verdictByService } from './group-verdict';
import {
  capLoosenings,
  priceClearLoosenings,
  priceSetLoosenings,
  type CapKey,
} from './cap-loosening';
import { estimateCost, estimateIn, estimatesOf } from './cost-estimate';
import { atTodaysPrices, type PricedEntry, type PricedToday } from './todays-prices';
import { LedgerFeed, type LedgerChange } from './ledger-feed';
import { LedgerReader, type LedgerScreen } from './ledger-reader';
import type { HeldKeyScrub } from './ledger-csv';
import { hostTimeZone } from './local-periods';
import type { LedgerSumsRead } from './ledger-totals';
import { SpendingCapError } from '../errors';
import type { ClosingGate } from '../base';
import type { Sentence } from '../../../shared/i18n/sentence';

export interface CostBookOptions {
  readonly history: Pick<HistoryStore, 'costs' | 'admitMany'>;
  /** Reads the Costs screen's sums off main's thread (the history worker); by default on `history`. */
  readonly sums?: LedgerSumsRead;
  readonly now: () => number;
  /** The user's time zone (IANA name) for local days and months; default the host's. */
  readonly timeZone?: string;
  /** The change feed's timers (default the process's own) and log. */
  readonly timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  readonly logger?: Logger;
  /**
   * The scrubber of the keys the process holds, made for each export (null: none held; core/
   * secrets' heldKeyScrubberOrNone, which waits until the keys are known): a CSV written to a
   * file scrubs them from a task kept under an id that carries one (ledger-csv.ts).
   */
  readonly keyScrubber?: () => Promise<HeldKeyScrub | null>;
  /**
   * The core's closing gate: a price or cap changed, or the CSV exported, once the close has
   * begun is refused with its sentence, nothing written; absent (the CLI's own book over the
   * history): never refused.
   */
  readonly gate?: Pick<ClosingGate, 'askNow' | 'ask'>;
}

/** A change of the prices or caps, as {@link CostBook.loosenings} judges it. */
export type CostChange =
  | { readonly kind: 'setCap'; readonly cap: SpendingCap }
  | { readonly kind: 'clearCap'; readonly key: CapKey }
  | { readonly kind: 'setPrice'; readonly price: CostPrice }
  | {
      readonly kind: 'clearPrice';
      readonly key: { provider: ProviderId; model: string; unit?: CostUnit };
    };

/** `pictor costs`' read: see {@link CostBook.ledger}. */
export interface CostLedgerRead {
  readonly entries: PricedEntry[];
  readonly totals: LedgerTotals;
  /** Per unit: the entries of unknown cost that today's prices price, and what they come to. */
  readonly pricedToday: readonly PricedToday[];
}

/** What a submit would cost, per task, and the caps' verdict on it. */
export interface CostPreview extends CapVerdict {
  readonly perTask: TaskCost;
  readonly count: number;
}

/** What a batch would cost: each request's cost per task, and the caps' verdict on them all. */
export interface BatchCostPreview extends CapVerdict {
  readonly perRequest: readonly TaskCost[];
  /** Tasks per request. */
  readonly count: number;
}

export class CostBook implements EngineAdmission {
  #timeZone: string | undefined;
  #reader: LedgerReader | undefined;
  private readonly feed: LedgerFeed;

  /**
   * The cost book over `history` alone (no engine, no history worker, the host's clock): the
   * CLI's `costs`, `caps` and `prices`, which read and set the ledger, caps and prices only.
   */
  static overHistory(history: HistoryStore, timeZone: string): CostBook {
    return new CostBook({ history, now: Date.now, timeZone });
  }

  constructor(private readonly options: CostBookOptions) {
    this.feed = new LedgerFeed({
      version: () => this.tables.version(),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }

  /**
   * Fires (at most four times a second) when anything shown of costs changed: a cost, an
   * estimate, a task joining the ledger or leaving the history, a thumbnail, a price, a cap;
   * written by this process or another (LedgerFeed).
   */
  get onDidChange(): Event<LedgerChange> {
    return this.feed.onDidChange;
  }

  /**
   * The zone the ledger's days and months are read in: the options', else the host's, looked up
   * at the first use (ICU's zone lookup costs more CPU than a one-record command that opens the
   * core and never reads the ledger).
   */
  get timeZone(): string {
    return (this.#timeZone ??= this.options.timeZone ?? hostTimeZone());
  }

  private get reader(): LedgerReader {
    const { history, sums } = this.options;
    return (this.#reader ??= new LedgerReader(history.costs, this.timeZone, sums));
  }

  private get tables(): HistoryStore['costs'] {
    return this.options.history.costs;
  }

  prices(): CostPrice[] {
    return this.tables.prices();
  }

  setPrice(price: CostPrice): void {
    this.changed(() => this.tables.setPrice(price));
  }

  /** Removes the prices of `provider` and `model` ('' : every-model), in `unit` when given. */
  clearPrice(provider: ProviderId, model = '', unit?: CostUnit): boolean {
    return this.changed(() => this.tables.clearPrice(provider, model, unit));
  }

  /**
   * The hard caps a change would loosen (cap-loosening.ts): a cap set to `to` or cleared (`to`
   * null), a price set, or prices cleared. What the window may only do once the user agrees.
   */
  loosenings(change: CostChange): CapLoosening[] {
    const caps = this.caps();
    switch (change.kind) {
      case 'setCap':
        return capLoosenings(caps, change.cap, change.cap.micros);
      case 'clearCap':
        return capLoosenings(caps, change.key, null);
      case 'setPrice':
        return priceSetLoosenings(this.prices(), caps, change.price);
      case 'clearPrice':
        return priceClearLoosenings(this.prices(), caps, change.key);
    }
  }

  caps(): SpendingCap[] {
    return this.tables.caps();
  }

  /** Sets (or replaces) a cap: only ever the user's own action, in Settings or `pictor caps`. */
  setCap(cap: SpendingCap): void {
    this.changed(() => this.tables.setCap(cap));
  }

  clearCaps(match: CapMatch = {}): number {
    return this.changed(() => this.tables.clearCaps(match));
  }

  /** A user's change of prices or caps, refused once the core's close has begun. */
  private changed<T>(change: () => T): T {
    return this.options.gate ? this.options.gate.askNow(change) : change();
  }

  /** Tasks with a cost, oldest first. */
  entries(query: LedgerQuery = {}): LedgerEntry[] {
    return this.tables.entries(query);
  }

  /** The totals of every task `query` matches, by SQL aggregate. */
  totals(query: LedgerQuery = {}): LedgerTotals {
    return this.reader.summary(query).totals;
  }

  /**
   * Every entry of `query` and its totals (`pictor costs`), each entry of unknown cost that
   * today's prices price with that estimate (`atTodaysPrice`: what the caps count it as), and
   * the sums of those per unit, apart from the totals (which count what the ledger recorded).
   */
  ledger(query: LedgerQuery = {}): CostLedgerRead {
    const { entries, pricedToday } = atTodaysPrices(this.entries(query), this.prices());
    return { entries, totals: this.totals(query), pricedToday };
  }

  /** See {@link LedgerReader.screen}: the Costs screen's first page and totals. */
  screen(query: LedgerQuery, limit: number): Promise<LedgerScreen> {
    return this.reader.screen(query, limit);
  }

  /** See {@link LedgerReader.page}: the Costs screen's next page. */
  page(query: LedgerQuery, after: LedgerCursor, limit: number): LedgerPage<LedgerListEntry> {
    return this.reader.page(query, after, limit);
  }

  /** How many tasks the whole ledger holds (0: nothing was ever priced or counted). */
  ledgerSize(): number {
    return this.tables.ledgerSize();
  }

  /**
   * The CSV of `query`, a page of tasks at a time (the export writes it as it comes), each task
   * whose id carries a key the process holds scrubbed of it (ledger-csv.ts): the keys are read
   * first, once known (the one rule: core/secrets/held-key-scrub.ts).
   */
  async csvChunks(query: LedgerQuery = {}): Promise<Iterable<string>> {
    const held = (await this.options.keyScrubber?.()) ?? null;
    return this.reader.csvChunks(query, held);
  }

  /**
   * The user's export of the CSV of `query` ({@link csvChunks}) through `write` (the window's: a
   * file its save dialog chose, written as the pages are read): refused once the core's close has
   * begun, nothing written; one asked before is waited for by the close, its pages read from the
   * history while it is still open.
   */
  exportCsv(query: LedgerQuery, write: (chunks: Iterable<string>) => Promise<void>): Promise<void> {
    const run = async (): Promise<void> => write(await this.csvChunks(query));
    return this.options.gate ? this.options.gate.ask(run) : run();
  }

  /** The CSV of `query` in one text (the CLI's `costs --csv`, whose output is scrubbed whole). */
  csv(query: LedgerQuery = {}): string {
    return [...this.reader.csvChunks(query, null)].join('');
  }

  /**
   * What a cap's period has spent so far in its unit, of it at today's price, and what it cannot
   * count (cap-spend.ts): the one figure `caps list`, `costs`, Settings and every verdict use.
   */
  capSpend(cap: Pick<SpendingCap, 'period' | 'unit' | 'provider'>): CapSpend {
    const source = { tables: this.tables, prices: this.prices() };
    return capSpend(source, cap, { now: this.options.now(), timeZone: this.timeZone });
  }

  /** Every cap with what its period has spent ({@link capSpend}). */
  standings(): CapStanding[] {
    const source = { tables: this.tables, prices: this.prices() };
    const at = { now: this.options.now(), timeZone: this.timeZone };
    return this.caps().map((cap) => ({ cap, ...capSpend(source, cap, at) }));
  }

  /**
   * What `count` tasks of `request` sent to `target` (its service and address: the built-in demo
   * is free) would cost, and what the caps say (no write).
   */
  preview(target: SubmitTarget, request: GenerationRequest, count = 1): CostPreview {
    const { perRequest, ...verdict } = this.previewBatch(target, [request], count);
    return { perTask: perRequest[0] ?? UNKNOWN_COST, ...verdict };
  }

  /**
   * {@link preview} of a batch: `count` tasks of each of `requests` (a template's prompts), each
   * request's own cost per task, and the caps' verdict on all of them at once, as the admission
   * will judge them.
   */
  previewBatch(
    target: SubmitTarget,
    requests: readonly GenerationRequest[],
    count = 1,
  ): BatchCostPreview {
    const prices = this.prices();
    const batch = requests.map((request) => ({ ...target, request }));
    const perRequest = batch.map((task) => costOf(prices, task));
    const tasks = batch.flatMap((task) => Array.from({ length: count }, () => task));
    return { perRequest, count, ...this.verdict(prices, tasks) };
  }

  /** See {@link EngineAdmission.admit}. */
  admit(
    records: readonly TaskRecord[],
    lease: { owner: string; until: number } | undefined,
    passing: readonly SpendingCap[] = [],
  ): TaskRecord[] {
    return this.options.history.admitMany(records, lease, (valid) => {
      const prices = this.prices();
      const tasks = valid.map((record) => ({ ...record, provider: providerOf(record) }));
      const verdict = this.verdict(prices, tasks);
      const refusal = refusalOf(verdict, passing);
      if (refusal)
        throw new SpendingCapError(refusal, {
          code: 'bad_input',
          ...(verdict.refused ? { refusal: verdict.refused } : {}),
        });
      // The records as they were given (today's contract stays unnamed), priced.
      return valid.map((record) => {
        if (isFree(record)) return { ...record, cost: FREE_COST };
        const [own = UNKNOWN_COST, ...others] = estimatesOf(
          prices,
          providerOf(record),
          record.request,
        );
        // Its estimates in the service's other priced units: what caps in those units count.
        if (others.length > 0) this.tables.addEstimates(record.localId, record.createdAt, others);
        return { ...record, cost: own };
      });
    });
  }

  /**
   * What the caps say of the tasks of several targets at once (a compare), each target's tasks
   * priced as {@link preview} prices them (no write).
   */
  previewGroup(
    items: readonly { target: SubmitTarget; request: GenerationRequest; count: number }[],
  ): CapVerdict {
    const tasks = items.flatMap(({ target, request, count }) =>
      Array.from({ length: count }, () => ({ ...target, request })),
    );
    return this.verdict(this.prices(), tasks);
  }

  private verdict(prices: readonly CostPrice[], tasks: readonly NewTask[]): CapVerdict {
    return verdictByService(tasks, this.caps(), (some, caps) => {
      const [first] = some;
      if (first === undefined || caps.length === 0) return { warnings: [], forecasts: [] };
      return checkCaps({
        caps,
        provider: first.provider,
        model: askedModel(first.request),
        adding: (unit) => addingIn(prices, some, unit),
        spent: (unit, provider, since) =>
          spentSince({ tables: this.tables, prices }, unit, provider, since),
        now: this.options.now(),
        timeZone: this.timeZone,
      });
    });
  }
}

/**
 * Why the caps refuse new tasks: the first hard cap that refuses them and is not one the user
 * agreed to pass (`passing`, each exactly as it stood when asked); none when every one is.
 */
function refusalOf(verdict: CapVerdict, passing: readonly SpendingCap[]): Sentence | undefined {
  if (!verdict.refusal) return undefined;
  const hard = verdict.forecasts.filter((forecast) => forecast.cap.kind === 'hard');
  const passed = hard.every((forecast) => sameCapIn(passing, forecast.cap));
  return passed && hard.length > 0 ? undefined : verdict.refusal;
}

/** A task about to be admitted, as pricing and the caps read it. */
interface NewTask {
  readonly provider: ProviderId;
  readonly endpoint: string;
  readonly request: GenerationRequest;
}

/** Tasks on the built-in demo service cost nothing, whatever the user's prices say. */
function isFree(task: Pick<NewTask, 'endpoint'>): boolean {
  return isDemoEndpoint(task.endpoint);
}

/** The model a new task's request names ('' for none), as a cap's sentence names it. */
const askedModel = (request: Pick<GenerationRequest, 'model'>): string =>
  request.model?.trim() ?? '';

/** A new task's own cost: free on the demo, else its first estimate, else unknown. */
function costOf(prices: readonly CostPrice[], task: NewTask): TaskCost {
  return isFree(task) ? FREE_COST : estimateCost(prices, task.provider, task.request);
}

/** What new tasks add in `unit`, and those of them with no price in it, by service and model. */
function addingIn(prices: readonly CostPrice[], tasks: readonly NewTask[], unit: CostUnit): Adding {
  let micros = 0;
  const unpriced = new Map<string, UncountedGroup>();
  for (const task of tasks) {
    if (isFree(task)) continue;
    const estimate = estimateIn(prices, task.provider, task.request, unit);
    if (estimate) {
      micros += estimate.micros;
      continue;
    }
    const model = askedModel(task.request);
    const key = `${task.provider}\u0000${model}`;
    const before = unpriced.get(key);
    unpriced.set(key, { provider: task.provider, model, tasks: (before?.tasks ?? 0) + 1 });
  }
  return { micros, unpriced: [...unpriced.values()] };
}
