/**
 * Compare in the window: the plan dialog opened from the compose form, a compare run, and the
 * compare view of one group (its tasks by slot, kept live from `tasks:updated` like the lists),
 * "Cancel all", "keep the winner, reject the rest" as one triage step, and the groups the
 * gallery's Compare group filter lists. Main plans, runs and cancels (`compare:` channels); the
 * page names services and models, never an address or a key.
 */
import type { StateCreator } from 'zustand';
import type { CompareGroupSummary } from '../../shared/domain/compare';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { CompareInputPayload, ComparePlanOutput } from '../../shared/ipc/compare-contract';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import type { ImageRef } from './image-ref';

/** What the plan dialog shows: the plan, or main's sentence why there is none. */
export type ComparePlanAnswer =
  | { readonly ok: true; readonly plan: ComparePlanOutput }
  | { readonly ok: false; readonly message: string };

export interface CompareSlice {
  /** The group the compare view shows; null: the view is closed. */
  compareGroup: string | null;
  /** Its tasks, by slot. */
  compareItems: readonly TaskItem[];
  compareLoading: boolean;
  /** The plan dialog is open (the compose form's "Compare…"). */
  compareDialogOpen: boolean;
  compareShowDialog(open: boolean): void;
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
  compareItems: [],
  compareLoading: false,
  compareDialogOpen: false,
  compareGroups: [],
  async compareGroupsLoad() {
    try {
      set({ compareGroups: (await call('compare:groups', {})).groups });
    } catch {
      // Kept as they were: the filter offers what it had.
    }
  },
  compareShowDialog(open) {
    set({ compareDialogOpen: open });
  },
  async compareOpen(group) {
    set({ compareGroup: group, compareItems: [], compareLoading: true, compareDialogOpen: false });
    try {
      const { items } = await call('compare:show', { group });
      if (get().compareGroup === group) set({ compareItems: items });
    } catch (error) {
      get().showError(error);
    } finally {
      if (get().compareGroup === group) set({ compareLoading: false });
    }
  },
  compareClose() {
    set({ compareGroup: null, compareItems: [], compareLoading: false });
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
      set({ compareGroup: group, compareItems: items, compareDialogOpen: false });
      get().tasksInsert(items);
      void get().compareGroupsLoad();
      return null;
    } catch (error) {
      return toApiError(error).message;
    }
  },
  ...groupActions(get),
});

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
      const records = get().compareItems.map((item) => item.record);
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

/** The compare view's tasks after a batch of task records: each one of its group replaced or added. */
export function compareAfterTaskChanges(
  state: Pick<AppState, 'compareGroup' | 'compareItems'>,
  items: readonly TaskItem[],
): Partial<Pick<AppState, 'compareItems'>> {
  const group = state.compareGroup;
  if (group === null) return {};
  const mine = items.filter((item) => item.record.compare?.group === group);
  if (mine.length === 0) return {};
  const byId = new Map(state.compareItems.map((item) => [item.record.localId, item]));
  for (const item of mine) byId.set(item.record.localId, item);
  const compareItems = [...byId.values()].sort(
    (a, b) =>
      (a.record.compare?.slot ?? 0) - (b.record.compare?.slot ?? 0) ||
      a.record.createdAt - b.record.createdAt,
  );
  return { compareItems };
}

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends CompareSlice {}
}
