/**
 * The actions on the selected tasks: remove, pick, reject, export to a folder, retry, submit again.
 * Each is one request per chunk of at most MAX_IDS_PER_BATCH ids; main runs the single-task
 * action for every id and skips what does not apply. The outcome is confirmed in the status
 * area, a failure shown as an error. Part of the selection (task-selection.ts).
 */
import type { StateCreator, StoreApi } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { withProgress, type Words } from './status-slice';
import { chosenIds } from './task-selection-ids';
import { removeTasks } from './task-remove';
import { resendTasks } from './task-resend';
import { pickTasks } from './task-pick';

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS_PER_BATCH) {
    out.push(ids.slice(at, at + MAX_IDS_PER_BATCH));
  }
  return out;
}

interface ItemsOutcome {
  readonly items: TaskItem[];
  readonly skipped: number;
}

/**
 * Removes the selected tasks as one job with Undo from its start (task-remove.ts), a chunk per
 * request; the selection goes at once (its bar with it), the focus to the task that stays next.
 */
async function removeSelected(
  store: Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>,
): Promise<boolean> {
  let ids: string[];
  try {
    ids = await chosenIds(store.getState());
  } catch (error) {
    store.getState().showError(toApiError(error));
    return false;
  }
  if (ids.length === 0) return false;
  store.getState().tasksClearSelection();
  return removeTasks(store, ids, (localIds) => call('tasks:removeMany', { localIds }));
}

/**
 * Runs `work` for each chunk of the selection, its progress said as `progress` when given; a
 * failure is shown and answers false.
 */
async function runChunks(
  get: () => AppState,
  work: (ids: string[]) => Promise<void>,
  progress?: Words,
): Promise<boolean> {
  try {
    const ids = await chosenIds(get());
    if (ids.length === 0) return false;
    const all = async (step: (done: number) => void) => {
      let done = 0;
      for (const chunk of chunks(ids)) {
        await work(chunk);
        done += chunk.length;
        step(done);
      }
    };
    await (progress === undefined
      ? all(() => undefined)
      : withProgress(get(), progress, ids.length, all));
    return true;
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
}

/** A chunked action whose answer is items: each applied, the counts added up and confirmed. */
function itemsRunner(get: () => AppState) {
  return async (
    request: (ids: string[]) => Promise<ItemsOutcome>,
    apply: (items: TaskItem[]) => void,
    message: (done: number, skipped: number) => string,
    progress?: Words,
  ): Promise<boolean> => {
    let done = 0;
    let skipped = 0;
    const ok = await runChunks(
      get,
      async (ids) => {
        const outcome = await request(ids);
        apply(outcome.items);
        done += outcome.items.length;
        skipped += outcome.skipped;
      },
      progress,
    );
    if (ok) get().confirm(() => message(done, skipped));
    return ok;
  };
}

/** `act` on the selected ids, loaded or not; a failure to find them is shown and answers false. */
async function withChosen(
  get: () => AppState,
  act: (ids: string[]) => Promise<boolean>,
): Promise<boolean> {
  let ids: string[];
  try {
    ids = await chosenIds(get());
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
  return act(ids);
}

/** Exports the selected tasks to a folder the user picks (one dialog for them all). */
async function exportSelected(get: () => AppState): Promise<boolean> {
  try {
    // One folder dialog per export, for the whole selection (main takes MAX_SELECT_ALL).
    const localIds = await chosenIds(get());
    if (localIds.length === 0) return false;
    const outcome = await call('tasks:exportMany', { localIds });
    const { folder, copied, failed } = outcome;
    if (folder === null) return false;
    get().confirm(() => t('tasks.selection.exported', { count: copied, failed, folder }));
    return true;
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
}

/** The actions on the selected tasks (part of AppState). */
export interface TaskSelectedActions {
  tasksRemoveSelected(): Promise<boolean>;
  /**
   * Picks (or unpicks) the selected tasks, loaded or not, through the one pick path
   * (task-pick.ts): their images as one triage step with the window's Undo.
   */
  tasksFavouriteSelected(favourite: boolean): Promise<boolean>;
  /**
   * Rejects (or unflags) every image of the selected tasks, loaded or not, as one triage step
   * with the window's Undo; false when nothing was asked or main refused (said).
   */
  tasksFlagSelected(flag: 'reject' | 'none'): Promise<boolean>;
  tasksRetrySelected(): Promise<boolean>;
  tasksSubmitAgainSelected(): Promise<boolean>;
  tasksExportSelected(): Promise<boolean>;
}

type Creator = StateCreator<AppState>;

/** What the selection bar's buttons do with the selected tasks. */
export function taskSelectedActions(
  get: Parameters<Creator>[1],
  api: Parameters<Creator>[2],
): TaskSelectedActions {
  const runItems = itemsRunner(get);

  return {
    tasksRemoveSelected: () => removeSelected(api),
    tasksFavouriteSelected: (favourite) => withChosen(get, (ids) => pickTasks(get, ids, favourite)),
    tasksFlagSelected: (flag) =>
      withChosen(
        get,
        async (ids) => (await get().triageApplyTasks(ids, { kind: 'flag', flag })) !== null,
      ),
    tasksRetrySelected: () =>
      runItems(
        (localIds) => call('tasks:retryMany', { localIds }),
        (items) => items.forEach((item) => get().tasksApplyUpdate(item)),
        (done, skipped) => t('tasks.selection.retried', { count: done, skipped }),
        () => t('status.retrying'),
      ),
    tasksSubmitAgainSelected: () =>
      runItems(
        (localIds) => resendTasks(get, localIds, 'each', { onlyFailed: true }),
        () => undefined, // Already in the list.
        (done, skipped) => t('tasks.selection.submitted', { count: done, skipped }),
        () => t('status.submittingAgain'),
      ),
    tasksExportSelected: () => exportSelected(get),
  };
}
