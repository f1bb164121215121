/**
 * IPC handlers of the `costs:` channels: translations to the core's cost ledger (core/costs), the
 * same one the CLI's `pictor costs`, `prices` and `caps` use. The CSV goes to the file main's own
 * save dialog returns, never to a path the page names.
 */
import type { LedgerEntry, LedgerTotals, SpendingCap } from '../../shared/domain/cost-ledger';
import type { CapStanding, CostLedger } from '../../shared/ipc/cost-contract';
import { MAX_LEDGER_ENTRIES } from '../../shared/ipc/cost-contract';
import { sentence } from '../../shared/i18n/sentence';
import type { CostBook } from '../core/costs/cost-book';
import { UserFacingError } from '../core/errors/user-facing-error';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { CapLoosening, CapPrompts } from '../ports/user-prompts';
import type { HandlersOf } from './ipc-main-bridge';

export interface CostHandlerDeps {
  /** The core's cost ledger. */
  readonly costs: Pick<
    CostBook,
    | 'ledger'
    | 'csv'
    | 'prices'
    | 'setPrice'
    | 'clearPrice'
    | 'caps'
    | 'setCap'
    | 'clearCaps'
    | 'spentIn'
    | 'preview'
    | 'loosenings'
    | 'ledgerSize'
  >;
  /**
   * The thumbnail (a gallery path) of the first saved image of a task the history lists;
   * absent, or undefined for a task: the Costs screen shows none.
   */
  readonly thumbnailOf?: (localId: string) => string | undefined;
  /** Main's own dialogs; absent where the host has none (the export then says so). */
  readonly dialogs?: Pick<LibraryDialogs, 'chooseLedgerFile'>;
  /**
   * Main's own question before a hard cap is raised or removed, or a price it counts by is
   * lowered (core/costs/cap-loosening.ts); absent where nobody can be asked (a hard cap then
   * never counts less).
   */
  readonly prompts?: CapPrompts;
  /** Writes the CSV to the file the dialog returned. */
  readonly writeText: (path: string, text: string) => Promise<void>;
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

/**
 * Asks main's own dialog before each loosening; refuses (nothing changed) unless the user
 * agreed to every one. A request from the page alone never raises or removes a hard cap.
 */
async function agreed(prompts: CapPrompts | undefined, changes: CapLoosening[]): Promise<void> {
  for (const change of changes) {
    if (!prompts || !(await prompts.confirmLooserCap(change))) {
      throw new UserFacingError(sentence('error.costs.capKept'), { code: 'failed' });
    }
  }
}

export function costHandlers(deps: CostHandlerDeps): HandlersOf<'costs'> {
  const { costs } = deps;
  const standings = (): CapStanding[] =>
    costs.caps().map((cap: SpendingCap) => ({ cap, spentMicros: costs.spentIn(cap) }));
  return {
    'costs:ledger': (query) => {
      const { entries, totals } = costs.ledger(query);
      const thumbnail = (entry: LedgerEntry): string | null =>
        (entry.inHistory ? deps.thumbnailOf?.(entry.localId) : undefined) ?? null;
      return {
        entries: entries
          .slice(-MAX_LEDGER_ENTRIES)
          .reverse()
          .map((entry) => ({ ...entry, thumbnail: thumbnail(entry) })),
        total: entries.length,
        totals: plainTotals(totals),
        allTime: costs.ledgerSize(),
      };
    },
    'costs:exportCsv': async (query) => {
      const choose = deps.dialogs?.chooseLedgerFile;
      if (!choose) {
        throw new UserFacingError(sentence('error.library.noDialogs'), { code: 'failed' });
      }
      const path = await choose.call(deps.dialogs);
      if (path === null) return { savedTo: null };
      await deps.writeText(path, costs.csv(query));
      return { savedTo: path };
    },
    'costs:prices': () => costs.prices(),
    'costs:setPrice': async (price) => {
      await agreed(deps.prompts, costs.loosenings({ kind: 'setPrice', price }));
      costs.setPrice(price);
      return costs.prices();
    },
    'costs:clearPrice': async ({ provider, model, unit }) => {
      const key = { provider, model: model ?? '', ...(unit === undefined ? {} : { unit }) };
      await agreed(deps.prompts, costs.loosenings({ kind: 'clearPrice', key }));
      costs.clearPrice(provider, key.model, unit);
      return costs.prices();
    },
    'costs:caps': () => standings(),
    'costs:setCap': async (cap) => {
      await agreed(deps.prompts, costs.loosenings({ kind: 'setCap', cap }));
      costs.setCap(cap);
      return standings();
    },
    'costs:clearCap': async (key) => {
      await agreed(deps.prompts, costs.loosenings({ kind: 'clearCap', key }));
      costs.clearCaps(key);
      return standings();
    },
    // The caps' word as data (the window words a forecast); the refusal sentence comes with a
    // refused submit only.
    'costs:preview': ({ target, request, count }) => {
      const { perTask, forecasts } = costs.preview(target, request, count);
      return { perTask, count, caps: [...forecasts] };
    },
  };
}
