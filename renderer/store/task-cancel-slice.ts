/**
 * "Cancel on <service>" and "Stop watching" in the window: one task (its row, its tile, its
 * details, the removal question) or the selection. While a cancel is asked its tasks are
 * `tasksCancelling` (a spinner and "Cancelling…" where they show); the outcome is a sentence in
 * the status area: cancelled, still stopping, finished first with its images kept, or not
 * cancelled with the service's reason. A task whose service cannot cancel offers "Stop watching"
 * in the cancel's place (cancel-action.tsx); a selection that meets such tasks says how many,
 * with Stop watching for them. A selection is one action: main asks one task at a time and its
 * progress (`tasks:cancelProgress`) fills the progress line.
 */
import type { StateCreator } from 'zustand';
import type { CancelOutcomeKind } from '../../shared/domain/cancel-outcome';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import type { CancelOutcomeItem } from '../../shared/ipc/task-cancel-contract';
import { errorText, t, type MessageKey } from '../i18n';
import { call, failure, toApiError } from '../lib/api';
import { toggledIds } from '../lib/selection';
import type { AppState } from './app-state';
import { withProgress } from './status-slice';
import { chosenIds } from './task-selection-ids';

export interface TaskCancelSlice {
  /** Tasks whose cancel is being asked now. */
  tasksCancelling: ReadonlySet<string>;
  /**
   * Asks the task's service to cancel it; says how it went (`quiet`: only a failure is said,
   * for a removal that follows). Answers how it went, or null when it could not be asked.
   */
  tasksCancel(localId: string, options?: { quiet?: boolean }): Promise<CancelOutcomeKind | null>;
  /**
   * Cancels these tasks, one request per chunk, with the progress line; says the outcome unless
   * `quiet` (then only refusals). Answers each task's outcome, or null when it failed.
   */
  tasksCancelMany(
    localIds: readonly string[],
    options?: { quiet?: boolean },
  ): Promise<CancelOutcomeItem[] | null>;
  /** Cancels the selected tasks (the selection bar). */
  tasksCancelSelected(): Promise<boolean>;
  /** Stops watching the tasks (their ids kept; Resume watches again). */
  tasksStopWatching(localIds: readonly string[]): Promise<boolean>;
  /** Main's `tasks:cancelProgress`: how many of the selection's cancels were answered. */
  tasksCancelProgress(progress: { done: number; total: number }): void;
}

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS_PER_BATCH)
    out.push(ids.slice(at, at + MAX_IDS_PER_BATCH));
  return out;
}

/** A refusal's words: the service's or Pictor's sentence, in the shown language. */
function reasonText(outcome: CancelOutcomeItem): string {
  return outcome.reason ? errorText(outcome.reason) : '';
}

const SUMMARY: Readonly<Record<CancelOutcomeKind, MessageKey>> = {
  canceled: 'tasks.cancel.summary.canceled',
  stopping: 'tasks.cancel.summary.stopping',
  finished: 'tasks.cancel.summary.finished',
  refused: 'tasks.cancel.summary.refused',
  not_asked: 'tasks.cancel.summary.refused',
  unsupported: 'tasks.cancel.summary.unsupported',
  not_running: 'tasks.cancel.summary.notRunning',
};

/** How a selection's cancels went, a count per outcome, in the shown language. */
function summaryOf(outcomes: readonly CancelOutcomeItem[]): string {
  const counts = new Map<MessageKey, number>();
  for (const outcome of outcomes) {
    const key = SUMMARY[outcome.kind];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts].map(([key, count]) => t(key, { count }));
  const refused = outcomes.find(
    (outcome) => outcome.kind === 'refused' || outcome.kind === 'not_asked',
  );
  if (refused) parts.push(t('tasks.cancel.summary.reason', { reason: reasonText(refused) }));
  return parts.join(' · ');
}

type Get = () => AppState;

/**
 * Says how one task's cancel went. A service that cannot cancel is said as a refusal with its
 * reason: the window offers Stop watching there instead of a cancel, so only another front's
 * request (or a profile changed meanwhile) meets it.
 */
function sayOne(get: Get, outcome: CancelOutcomeItem, quiet: boolean): void {
  const { kind } = outcome;
  if (
    kind === 'refused' ||
    kind === 'not_asked' ||
    kind === 'not_running' ||
    kind === 'unsupported'
  ) {
    // A removal that follows a cancel needs no word about a task that had ended.
    if (quiet && kind === 'not_running') return;
    const words = () => t('tasks.cancel.notCanceled', { reason: reasonText(outcome) });
    get().showError(failure(words, outcome.reason?.detail));
  } else if (!quiet) {
    const ended = kind === 'finished' && outcome.item?.record.status !== 'completed';
    get().confirm(() => t(ended ? 'tasks.cancel.ended' : `tasks.cancel.${kind}`));
  }
}

/** Says how a selection's cancels went, and offers Stop watching for those that cannot. */
function sayMany(get: Get, outcomes: readonly CancelOutcomeItem[], quiet: boolean): void {
  const failed = outcomes.some(
    (outcome) => outcome.kind === 'refused' || outcome.kind === 'not_asked',
  );
  const ids = outcomes.filter((outcome) => outcome.kind === 'unsupported').map((o) => o.localId);
  if (failed) get().showError(failure(() => summaryOf(outcomes)));
  else if (quiet) return;
  else if (ids.length > 0) {
    get().confirm(() => summaryOf(outcomes), {
      label: () => t('tasks.stop.confirm'),
      run: () => void get().tasksStopWatching(ids),
    });
  } else get().confirm(() => summaryOf(outcomes));
}

/** The ids of a selection's cancel, asked a chunk per request, with the progress line. */
async function askMany(
  get: Get,
  ids: readonly string[],
  progress: { step: ((done: number) => void) | null },
): Promise<CancelOutcomeItem[]> {
  const outcomes: CancelOutcomeItem[] = [];
  await withProgress(
    get(),
    () => t('tasks.cancel.progress'),
    ids.length,
    async (report) => {
      for (const chunk of chunks(ids)) {
        const before = outcomes.length;
        progress.step = (done) => report(before + done);
        const answer = await call('tasks:cancelMany', { localIds: chunk });
        for (const outcome of answer.outcomes) {
          if (outcome.item) get().tasksApplyUpdate(outcome.item);
        }
        outcomes.push(...answer.outcomes);
      }
    },
  );
  return outcomes;
}

/** Stops watching the tasks, a chunk per request; says so, or why not. */
async function stopWatching(get: Get, localIds: readonly string[]): Promise<boolean> {
  try {
    for (const chunk of chunks([...new Set(localIds)])) {
      const { items } = await call('tasks:stopWatching', { localIds: chunk });
      for (const item of items) get().tasksApplyUpdate(item);
    }
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
  get().confirm(() => t('tasks.stop.done'));
  return true;
}

export const createTaskCancelSlice: StateCreator<AppState, [], [], TaskCancelSlice> = (
  set,
  get,
) => {
  /** The progress line of the selection's cancel under way: main's reports step it. */
  const progress: { step: ((done: number) => void) | null } = { step: null };
  const mark = (ids: readonly string[], on: boolean): void =>
    set((state) => ({ tasksCancelling: toggledIds(state.tasksCancelling, ids, on) }));

  return {
    tasksCancelling: new Set<string>(),

    async tasksCancel(localId, options = {}) {
      if (get().tasksCancelling.has(localId)) return null;
      mark([localId], true);
      try {
        const outcome = await call('tasks:cancel', { localId });
        if (outcome.item) get().tasksApplyUpdate(outcome.item);
        sayOne(get, outcome, options.quiet === true);
        return outcome.kind;
      } catch (error) {
        get().showError(toApiError(error));
        return null;
      } finally {
        mark([localId], false);
      }
    },

    async tasksCancelMany(localIds, options = {}) {
      const ids = [...new Set(localIds)].filter((id) => !get().tasksCancelling.has(id));
      if (ids.length === 0) return [];
      mark(ids, true);
      try {
        const outcomes = await askMany(get, ids, progress);
        sayMany(get, outcomes, options.quiet === true);
        return outcomes;
      } catch (error) {
        get().showError(toApiError(error));
        return null;
      } finally {
        progress.step = null;
        mark(ids, false);
      }
    },

    async tasksCancelSelected() {
      try {
        const ids = await chosenIds(get());
        if (ids.length === 0) return false;
        return (await get().tasksCancelMany(ids)) !== null;
      } catch (error) {
        get().showError(toApiError(error));
        return false;
      }
    },

    tasksStopWatching: (localIds) => stopWatching(get, localIds),

    tasksCancelProgress({ done }) {
      progress.step?.(done);
    },
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends TaskCancelSlice {}
}
