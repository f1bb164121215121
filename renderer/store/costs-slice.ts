/**
 * What tasks cost, as main's ledger says (`costs:` channels): the Costs screen's period, service,
 * totals and entries a page at a time and its CSV export (costs-ledger-actions.ts); Settings'
 * prices and spending caps (changed only by the user's own action there); and the compose form's
 * estimate for what it is about to submit. Main says when any of it changed (`costs:changed`).
 */
import type { StateCreator, StoreApi } from 'zustand';
import type { CostPrice, SpendingCap } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import type { ServiceId } from '../../shared/domain/service-id';
import type { CostUnit } from '../../shared/domain/task-cost';
import type { CapStanding, CostLedger, CostPreviewAnswer } from '../../shared/ipc/cost-contract';
import type { RequestInput } from '../../shared/ipc/contract';
import { call, type ApiError } from '../lib/api';
import type { AppState } from './app-state';
import { ledgerActions, type CostPeriod } from './costs-ledger-actions';
import { sameAgain } from './same-again';

export { COST_PERIODS, type CostPeriod } from './costs-ledger-actions';

export interface CostsSlice {
  costsPeriod: CostPeriod;
  /** '' : every service. */
  costsProvider: ServiceId | '';
  /** The totals and the entries shown: the first page, and those "Show more" added. */
  costsLedger: CostLedger | null;
  costsStatus: 'idle' | 'loading' | 'ready' | 'error';
  costsError: ApiError | null;
  /** Where the last export saved the CSV (null: none yet, or the user cancelled). */
  costsSavedTo: string | null;
  /** Reads the totals and the first entries (as many as shown) of the period and service. */
  costsLoad(): Promise<void>;
  /** Adds the next page of entries ("Show more"). */
  costsLoadMore(): Promise<void>;
  /** The ledger's version main last announced (`costs:changed`; 0: none yet). */
  costsVersion: number;
  /** Main's ledger changed (`costs:changed`): what shows costs reads again. */
  costsApplyChange(version: number): void;
  costsSetPeriod(period: CostPeriod): void;
  costsSetProvider(provider: ServiceId | ''): void;
  costsExport(): Promise<void>;
  prices: CostPrice[];
  caps: CapStanding[];
  /** Reads the prices and the caps (each with its period's spending so far). */
  costsLoadSettings(): Promise<void>;
  /** Sets a price; false (and the error shown) when main refused it. */
  costsSetPrice(price: CostPrice): Promise<boolean>;
  /** Removes the price of a service and model in one unit. */
  costsClearPrice(provider: ProviderId, model: string, unit: CostUnit): Promise<void>;
  costsSetCap(cap: SpendingCap): Promise<boolean>;
  costsClearCap(cap: Omit<SpendingCap, 'micros'>): Promise<void>;
  /** The compose form's estimate for what it would submit (null: none asked, or none known). */
  costPreview: CostPreviewAnswer | null;
  costsPreview(input: RequestInput<'costs:preview'>): Promise<void>;
  /**
   * Counts changes of what the ledger has spent (`costs:changed`, and a cost seen in a task
   * update): what shows a spent figure (Settings' caps, the compose estimate) reads it again.
   */
  costsLedgerTick: number;
  costsNoteLedgerChange(): void;
  /**
   * Opens a task of the Costs screen in Tasks, its details shown; false (nothing opened) when the
   * history no longer lists it.
   */
  costsOpenTask(localId: string): Promise<boolean>;
  /** Goes to Settings › Costs, the prices and caps. */
  costsShowPricesAndCaps(): void;
  /**
   * Goes to Settings › Costs with the price form set to `asked` (its kept fields, form-drafts.ts:
   * a later change there is the user's, kept through a language switch), its amount focused.
   */
  costsAskPrice(asked: PriceAsked): void;
}

/** A price to set: of a service, for a model ('' : every model) in a unit. */
export interface PriceAsked {
  readonly provider: ProviderId;
  readonly model: string;
  readonly unit: CostUnit;
}

type Set = StoreApi<AppState>['setState'];
type Get = StoreApi<AppState>['getState'];

function settingsActions(set: Set, get: Get) {
  /** Runs a change; true when main took it (its error shown otherwise). */
  const change = async (work: () => Promise<void>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (caught) {
      get().showError(caught);
      return false;
    }
  };
  return {
    async costsLoadSettings() {
      await change(async () => {
        const [prices, caps] = await Promise.all([call('costs:prices'), call('costs:caps')]);
        const held = get();
        set({ prices: sameAgain(held.prices, prices), caps: sameAgain(held.caps, caps) });
      });
    },
    costsSetPrice: (price: CostPrice) =>
      change(async () => set({ prices: await call('costs:setPrice', price) })),
    async costsClearPrice(provider: ProviderId, model: string, unit: CostUnit) {
      await change(async () =>
        set({ prices: await call('costs:clearPrice', { provider, model, unit }) }),
      );
    },
    costsSetCap: (cap: SpendingCap) =>
      change(async () => set({ caps: await call('costs:setCap', cap) })),
    async costsClearCap(cap: Omit<SpendingCap, 'micros'>) {
      await change(async () => set({ caps: await call('costs:clearCap', cap) }));
    },
  };
}

function navigationActions(set: Set, get: Get) {
  return {
    costsNoteLedgerChange() {
      set((state) => ({ costsLedgerTick: state.costsLedgerTick + 1 }));
    },
    async costsOpenTask(localId: string) {
      try {
        const item = await call('tasks:get', { localId });
        if (!item) return false;
        get().tasksShowDetails(item);
        get().setView('tasks');
        return true;
      } catch (caught) {
        get().showError(caught);
        return false;
      }
    },
    costsShowPricesAndCaps() {
      get().setView('settings');
      get().requestFocus('costs');
    },
    costsAskPrice(asked: PriceAsked) {
      const { formDraftSet } = get();
      formDraftSet('price.provider', asked.provider);
      formDraftSet('price.model', asked.model);
      formDraftSet('price.unit', asked.unit);
      get().setView('settings');
      get().requestFocus('price');
    },
  };
}

function previewActions(set: Set) {
  let asked = 0;
  return {
    async costsPreview(input: RequestInput<'costs:preview'>) {
      asked += 1;
      const mine = asked;
      try {
        const preview = await call('costs:preview', input);
        if (mine === asked) set({ costPreview: preview });
      } catch {
        // No estimate (a request the form cannot send yet): the form says nothing of cost.
        if (mine === asked) set({ costPreview: null });
      }
    },
  };
}

export const createCostsSlice: StateCreator<AppState, [], [], CostsSlice> = (set, get) => ({
  costsPeriod: 'month',
  costsProvider: '',
  costsLedger: null,
  costsStatus: 'idle',
  costsError: null,
  costsSavedTo: null,
  prices: [],
  caps: [],
  costPreview: null,
  costsLedgerTick: 0,
  costsVersion: 0,
  ...ledgerActions(set, get),
  ...navigationActions(set, get),
  ...settingsActions(set, get),
  ...previewActions(set),
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends CostsSlice {}
}
