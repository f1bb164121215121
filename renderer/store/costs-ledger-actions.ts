/**
 * The Costs screen's ledger: its totals and first page (`costs:ledger`), the pages after it
 * ("Show more", `costs:entries`), read again when main says the ledger changed (`costs:changed`),
 * never on task updates. Reads never pile up: while one is under way, any number of changes make
 * one more read after it, so the screen keeps up however many tasks poll or report costs.
 */
import type { StoreApi } from 'zustand';
import type { LedgerQuery } from '../../shared/domain/cost-ledger';
import {
  LEDGER_PAGE,
  MAX_LEDGER_ENTRIES,
  type CostLedger,
  type CostLedgerCursor,
} from '../../shared/ipc/cost-contract';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';

export const COST_PERIODS = ['today', 'month', 'last30', 'all'] as const;
export type CostPeriod = (typeof COST_PERIODS)[number];

type Set = StoreApi<AppState>['setState'];
type Get = StoreApi<AppState>['getState'];

/** Where a period starts, in the user's local time (undefined: from the first task). */
function periodSince(period: CostPeriod, now: Date): number | undefined {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  switch (period) {
    case 'today':
      return midnight.getTime();
    case 'month':
      return new Date(now.getFullYear(), now.getMonth(), 1).getTime();
    case 'last30':
      // By the calendar, not 29 × 24 h: a clock change in between moves no midnight.
      return new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29).getTime();
    default:
      return undefined;
  }
}

/** The query of the period and service the screen shows. */
function costsQuery(state: Pick<AppState, 'costsPeriod' | 'costsProvider'>): LedgerQuery {
  const since = periodSince(state.costsPeriod, new Date());
  return {
    ...(since === undefined ? {} : { since }),
    ...(state.costsProvider === '' ? {} : { provider: state.costsProvider }),
  };
}

const sameCursor = (a: CostLedgerCursor | null, b: CostLedgerCursor | null): boolean =>
  a?.listedAt === b?.listedAt && a?.localId === b?.localId;

/**
 * How many entries a read asks for: a page, or as many as the screen shows of the same query
 * after "Show more" (at most what one answer carries), so reading again keeps what was opened.
 */
function limitFor(ledger: CostLedger | null): number {
  return Math.min(MAX_LEDGER_ENTRIES, Math.max(LEDGER_PAGE, ledger?.entries.length ?? 0));
}

type Shown = Pick<AppState, 'costsPeriod' | 'costsProvider'>;
const sameQuery = (a: Shown, b: Shown): boolean =>
  a.costsPeriod === b.costsPeriod && a.costsProvider === b.costsProvider;

/** The period and service of the ledger shown (what "Show more" and a read again continue). */
interface ShownQuery {
  current: Shown | null;
}

/**
 * One read of the query the screen shows: its answer kept when the query is still that one;
 * false when the user chose another meanwhile (read again).
 */
async function readOnce(set: Set, get: Get, shown: ShownQuery): Promise<boolean> {
  const state = get();
  const asked = { costsPeriod: state.costsPeriod, costsProvider: state.costsProvider };
  const same = shown.current !== null && sameQuery(shown.current, asked);
  const limit = same ? limitFor(state.costsLedger) : LEDGER_PAGE;
  set({ costsStatus: 'loading' });
  try {
    const ledger = await call('costs:ledger', { ...costsQuery(asked), limit });
    if (!sameQuery(get(), asked)) return false;
    shown.current = asked;
    set({ costsLedger: ledger, costsStatus: 'ready', costsError: null });
  } catch (caught) {
    if (!sameQuery(get(), asked)) return false;
    set({ costsStatus: 'error', costsError: toApiError(caught) });
  }
  return true;
}

/** Adds the page after the last entry shown, unless the screen read another start meanwhile. */
async function addPage(set: Set, get: Get, shown: ShownQuery): Promise<void> {
  const ledger = get().costsLedger;
  if (ledger?.next == null || shown.current === null || !sameQuery(shown.current, get())) return;
  try {
    const after = ledger.next;
    const page = await call('costs:entries', { ...costsQuery(get()), after, limit: LEDGER_PAGE });
    const now = get().costsLedger;
    if (now === null || !sameCursor(now.next, after)) return;
    set({ costsLedger: { ...now, entries: [...now.entries, ...page.entries], next: page.next } });
  } catch (caught) {
    get().showError(caught);
  }
}

/** Reading and paging, one read at a time and one more after it for what changed meanwhile. */
function ledgerReads(set: Set, get: Get) {
  const shown: ShownQuery = { current: null };
  let reading = false;
  let again = false;
  let adding: Promise<void> | null = null;
  return {
    async costsLoad() {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          // A change while this read is under way sets `again`: one more read after it.
          again = false;
          if (!(await readOnce(set, get, shown))) again = true;
        } while (again);
      } finally {
        reading = false;
      }
    },
    async costsLoadMore() {
      adding ??= addPage(set, get, shown).finally(() => {
        adding = null;
      });
      await adding;
    },
  };
}

export function ledgerActions(set: Set, get: Get) {
  return {
    ...ledgerReads(set, get),
    costsSetPeriod(period: CostPeriod) {
      set({ costsPeriod: period });
      void get().costsLoad();
    },
    costsSetProvider(provider: AppState['costsProvider']) {
      set({ costsProvider: provider });
      void get().costsLoad();
    },
    costsApplyChange(version: number) {
      set((state) => ({ costsVersion: version, costsLedgerTick: state.costsLedgerTick + 1 }));
    },
    async costsExport() {
      try {
        const { savedTo } = await call('costs:exportCsv', costsQuery(get()));
        set({ costsSavedTo: savedTo });
      } catch (caught) {
        get().showError(caught);
      }
    },
  };
}
