/**
 * Compare in the window: the plan dialog opened from the compose form, a compare run, and the
 * compare view of one group (its tasks by slot, kept live from `tasks:updated` like the lists),
 * "Cancel all", "keep the winner, reject the rest" as one triage step, and the groups the
 * gallery's Compare group filter lists. Main plans, runs and cancels (`compare:` channels); the
 * page names services and models, never an address or a key.
 */
import type { StateCreator } from 'zustand';
import type { CompareGroupSummary } from '../../shared/domain/compare';
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { CompareInputPayload, ComparePlanOutput } from '../../shared/ipc/compare-contract';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import type { ComposeDraft } from './compose-draft';
import type { ImageRef } from './image-ref';
import { selectCompareItems } from './record-selectors';
import { itemsOf, recordsWith, type RecordsTable } from './records-table';

/** What the plan dialog shows: the plan, or main's sentence why there is none. */
export type ComparePlanAnswer =
  | { readonly ok: true; readonly plan: ComparePlanOutput }
  | { readonly ok: false; readonly message: string };

/** A target of the plan dialog as its row holds it: a service and a model (empty: its default). */
export interface CompareRow {
  readonly provider: ProviderId;
  readonly model: string;
}

/** The rows the dialog opens with: the form's service and model, then another service. */
export function firstCompareRows(draft: Pick<ComposeDraft, 'provider' | 'model'>): CompareRow[] {
  const { provider, model } = draft;
  const other = PROVIDER_IDS.find((id) => id !== provider) ?? provider;
  return [
    { provider, model },
    { provider: other, model: '' },
  ];
}

/**
 * What the compare view shows of its group: the focused cell, 2-up (that cell and the next) or the
 * grid, and 2-up's mode (side by side, or stacked with the A/B divider at `divider` percent). The
 * store's, so a new language (the window drawn anew, app.tsx) shows the same; a new group starts on
 * FIRST_COMPARE_SHOWN. 2-up's zoom and pan are the view's own and start again at fit.
 */
export interface CompareShown {
  readonly at: number;
  readonly twoUp: boolean;
  readonly mode: 'side' | 'ab';
  readonly divider: number;
}

const FIRST_COMPARE_SHOWN: CompareShown = { at: 0, twoUp: false, mode: 'side', divider: 50 };

export interface CompareSlice {
  /** The group the compare view shows; null: the view is closed. */
  compareGroup: string | null;
  /** Its tasks' ids, by slot (their records are the records table's: records-slice.ts). */
  compareIds: readonly string[];
  compareLoading: boolean;
  /** The plan dialog is open (the compose form's "Compare…"). */
  compareDialogOpen: boolean;
  /** Opens the plan dialog on the form's first rows (firstCompareRows), or closes it. */
  compareShowDialog(open: boolean): void;
  /**
   * The plan dialog's target rows, in the store as the window's other state is: the window is
   * drawn anew in a new language (app.tsx), and the rows typed are kept.
   */
  compareRows: readonly CompareRow[];
  compareSetRows(rows: readonly CompareRow[]): void;
  /** What the open view shows (CompareShown). */
  compareShown: CompareShown;
  compareSetShown(change: Partial<CompareShown>): void;
  /** Opens the compare view on `group` and reads its tasks. */
  compareOpen(group: string): Promise<void>;
  compareClose(): void;
  comparePlan(input: CompareInputPayload): Promise<ComparePlanAnswer>;
  /** Runs the compare and opens its view; main's refusal comes back as its sentence. */
  compareRun(input: CompareInputPayload): Promise<string | null>;
  /** "Cancel all": asks each unfinished task's service to cancel it, where it can. */
  compareCancelAll(): Promise<void>;
  /** The newest compare groups, newest first (the gallery's Compare group filter). */
  compareGroups: readonly CompareGroupSummary[];
  /** Reads them again; a failure leaves the last ones (the filter is no reason for a banner). */
  compareGroupsLoad(): Promise<void>;
  /** The winner's images picked and every other image of the group rejected, as one step. */
  compareKeepWinner(winner: string): Promise<void>;
}

/** The saved images of a task, as triage names them. */
export function savedRefs(record: TaskRecord): ImageRef[] {
  return record.images
    .filter((image) => image.state === 'saved')
    .map((image) => ({ localId: record.localId, index: image.index }));
}

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set, get) => ({
  compareGroup: null,
  compareIds: [],
  compareLoading: false,
  compareDialogOpen: false,
  compareRows: [],
  compareShown: FIRST_COMPARE_SHOWN,
  compareGroups: [],
  async compareGroupsLoad() {
    try {
      set({ compareGroups: (await call('compare:groups', {})).groups });
    } catch {
      // Kept as they were: the filter offers what it had.
    }
  },
  async compareOpen(group) {
    set({
      compareGroup: group,
      compareIds: [],
      compareLoading: true,
      compareDialogOpen: false,
      compareShown: FIRST_COMPARE_SHOWN,
    });
    try {
      const { items } = await call('compare:show', { group });
      if (get().compareGroup === group) set(cellsOf(get().records, items));
    } catch (error) {
      get().showError(error);
    } finally {
      if (get().compareGroup === group) set({ compareLoading: false });
    }
  },
  compareClose() {
    set({ compareGroup: null, compareIds: [], compareLoading: false });
  },
  async comparePlan(input) {
    try {
      return { ok: true, plan: await call('compare:plan', input) };
    } catch (error) {
      return { ok: false, message: toApiError(error).message };
    }
  },
  async compareRun(input) {
    try {
      const { group, items } = await call('compare:run', input);
      set({
        compareGroup: group,
        ...cellsOf(get().records, items),
        compareDialogOpen: false,
        compareShown: FIRST_COMPARE_SHOWN,
      });
      get().tasksInsert(items);
      void get().compareGroupsLoad();
      return null;
    } catch (error) {
      return toApiError(error).message;
    }
  },
  ...choiceActions(set, get),
  ...groupActions(get),
});

/** The user's choices kept for the dialog and the view: the plan's rows, what the view shows. */
function choiceActions(
  set: (partial: Partial<AppState>) => void,
  get: () => AppState,
): Pick<CompareSlice, 'compareShowDialog' | 'compareSetRows' | 'compareSetShown'> {
  return {
    compareShowDialog(open) {
      if (!open) set({ compareDialogOpen: false });
      else set({ compareDialogOpen: true, compareRows: firstCompareRows(get().composeDraft) });
    },
    compareSetRows(rows) {
      set({ compareRows: rows });
    },
    compareSetShown(change) {
      set({ compareShown: { ...get().compareShown, ...change } });
    },
  };
}

/** "Cancel all" and "keep the winner, reject the rest" on the open group. */
function groupActions(
  get: () => AppState,
): Pick<CompareSlice, 'compareCancelAll' | 'compareKeepWinner'> {
  return {
    async compareCancelAll() {
      const group = get().compareGroup;
      if (group === null) return;
      try {
        const { outcomes } = await call('compare:cancel', { group });
        const asked = outcomes.filter((outcome) => outcome.kind !== 'not_running').length;
        get().confirm(() => t('compare.cancelAsked', { count: asked }));
      } catch (error) {
        get().showError(error);
      }
    },
    async compareKeepWinner(winner) {
      const records = selectCompareItems(get()).map((item) => item.record);
      const kept = records.find((record) => record.localId === winner);
      if (!kept) return;
      const rest = records.filter((record) => record !== kept).flatMap(savedRefs);
      const parts = [
        { images: savedRefs(kept), change: { kind: 'flag', flag: 'pick' } as const },
        { images: rest, change: { kind: 'flag', flag: 'reject' } as const },
      ].filter((part) => part.images.length > 0);
      if (parts.length === 0) return;
      await get().triageApplyEach(parts, () => t('compare.keptWinner', { count: rest.length }));
    },
  };
}

/** The group's tasks in slot order (then by creation). */
function bySlot(items: readonly TaskItem[]): TaskItem[] {
  return [...items].sort(
    (a, b) =>
      (a.record.compare?.slot ?? 0) - (b.record.compare?.slot ?? 0) ||
      a.record.createdAt - b.record.createdAt,
  );
}

/** The compare view's cells of `items`: their ids by slot, their records written to the table. */
function cellsOf(
  table: RecordsTable,
  items: readonly TaskItem[],
): Pick<AppState, 'compareIds' | 'records'> {
  return {
    compareIds: bySlot(items).map((item) => item.record.localId),
    records: recordsWith(table, items),
  };
}

/**
 * The compare view's ids after a batch: a task of its group not among them joins (`joined`: the
 * table takes its record), a removed one goes. A known task's record is the table's to update.
 */
export function compareAfterTaskChanges(
  state: Pick<AppState, 'compareGroup' | 'compareIds' | 'records'>,
  items: readonly TaskItem[],
  removed: ReadonlySet<string> = new Set(),
): { patch: Partial<Pick<AppState, 'compareIds'>>; joined: readonly string[] } {
  const group = state.compareGroup;
  if (group === null) return { patch: {}, joined: [] };
  const known = new Set(state.compareIds);
  const fresh = items.filter(
    (item) => item.record.compare?.group === group && !known.has(item.record.localId),
  );
  const kept = state.compareIds.filter((localId) => !removed.has(localId));
  if (fresh.length === 0 && kept.length === state.compareIds.length) {
    return { patch: {}, joined: [] };
  }
  const cells = [...itemsOf(state.records, kept), ...fresh];
  return {
    patch: { compareIds: bySlot(cells).map((item) => item.record.localId) },
    joined: fresh.map((item) => item.record.localId),
  };
}

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends CompareSlice {}
}
