/**
 * IPC handlers of the `costs:` channels: translations to the core's cost ledger (core/costs), the
 * same one the CLI's `pictor costs`, `prices` and `caps` use. The Costs screen's reads are bounded
 * by what it shows (its totals by SQL aggregate, its entries a page at a time); the CSV goes, a
 * page of tasks at a time, to the file main's own save dialog returns, never to a path the page
 * names.
 */
import type { LedgerQuery, LedgerTotals } from '../../shared/domain/cost-ledger';
import type { CapStanding, CostLedger } from '../../shared/ipc/cost-contract';
import { LEDGER_PAGE } from '../../shared/ipc/cost-contract';
import { sentence } from '../../shared/i18n/sentence';
import { changeAsked, type CostBook, type CostChange } from '../core/costs';
import { UserFacingError } from '../core/errors';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { CapPrompts } from '../ports/user-prompts';
import type { HandlersOf } from './ipc-main-bridge';

export interface CostHandlerDeps {
  /** The core's cost ledger. */
  readonly costs: Pick<
    CostBook,
    | 'screen'
    | 'page'
    | 'exportCsv'
    | 'prices'
    | 'setPrice'
    | 'clearPrice'
    | 'caps'
    | 'setCap'
    | 'clearCaps'
    | 'standings'
    | 'preview'
    | 'loosenings'
  >;
  /** Main's own dialogs; absent where the host has none (the export then says so). */
  readonly dialogs?: Pick<LibraryDialogs, 'chooseLedgerFile'>;
  /**
   * Main's own question before a hard cap is raised or removed, or a price it counts by is
   * lowered (core/costs/cap-loosening.ts); absent where nobody can be asked (a hard cap then
   * never counts less).
   */
  readonly prompts?: CapPrompts;
  /** Writes the CSV, chunk by chunk as it is read, to the file the dialog returned. */
  readonly writeText: (path: string, chunks: Iterable<string>) => Promise<void>;
}

/** The totals as the contract's (mutable) arrays. */
function plainTotals(totals: LedgerTotals): CostLedger['totals'] {
  const { overall, byDay, byMonth, byService } = totals;
  return {
    ...totals,
    overall: [...overall],
    byDay: [...byDay],
    byMonth: [...byMonth],
    byService: [...byService],
  };
}

/** The query without its absent fields (the contract's optional ones may arrive undefined). */
function queryOf(query: LedgerQuery): LedgerQuery {
  return {
    ...(query.since === undefined ? {} : { since: query.since }),
    ...(query.until === undefined ? {} : { until: query.until }),
    ...(query.provider === undefined ? {} : { provider: query.provider }),
  };
}

export function costHandlers(deps: CostHandlerDeps): HandlersOf<'costs'> {
  const { costs } = deps;
  // Main's question, asked by the cost book (cap-changes.ts): the page alone loosens no hard cap.
  const change = (what: CostChange) => changeAsked(costs, deps.prompts, what);
  // What each cap's period spent: the one figure of core/costs/cap-spend.ts, as everywhere.
  const standings = (): CapStanding[] =>
    costs.standings().map(({ cap, micros, pricedToday, unpriced }) => ({
      cap,
      spentMicros: micros,
      pricedTodayMicros: pricedToday.micros,
      pricedTodayTasks: pricedToday.tasks,
      uncountedTasks: unpriced.reduce((sum, group) => sum + group.tasks, 0),
    }));
  return {
    'costs:ledger': async ({ limit, ...query }) => {
      const screen = await costs.screen(queryOf(query), limit ?? LEDGER_PAGE);
      return { ...screen, totals: plainTotals(screen.totals), caps: standings() };
    },
    'costs:entries': ({ after, limit, ...query }) => costs.page(queryOf(query), after, limit),
    'costs:exportCsv': async (query) => {
      const choose = deps.dialogs?.chooseLedgerFile;
      if (!choose) {
        throw new UserFacingError(sentence('error.library.noDialogs'), { code: 'failed' });
      }
      const path = await choose.call(deps.dialogs);
      if (path === null) return { savedTo: null };
      // Refused once the core's close has begun (CostBook.exportCsv): no file is written then.
      await costs.exportCsv(queryOf(query), (chunks) => deps.writeText(path, chunks));
      return { savedTo: path };
    },
    'costs:prices': () => costs.prices(),
    'costs:setPrice': async (price) => {
      await change({ kind: 'setPrice', price });
      return costs.prices();
    },
    'costs:clearPrice': async ({ provider, model, unit }) => {
      const key = { provider, model: model ?? '', ...(unit === undefined ? {} : { unit }) };
      await change({ kind: 'clearPrice', key });
      return costs.prices();
    },
    'costs:caps': () => standings(),
    'costs:setCap': async (cap) => {
      await change({ kind: 'setCap', cap });
      return standings();
    },
    'costs:clearCap': async (key) => {
      await change({ kind: 'clearCap', key });
      return standings();
    },
    // The caps' word as data (the window words a forecast); the refusal sentence comes with a
    // refused submit only.
    'costs:preview': ({ target, request, count }) => {
      const { perTask, forecasts } = costs.preview(target, request, count);
      const caps = forecasts.map((forecast) => ({ ...forecast, missing: [...forecast.missing] }));
      return { perTask, count, caps };
    },
  };
}
