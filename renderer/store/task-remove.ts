/**
 * Removing tasks with Undo from its first moment, as the gallery's deletes (gallery-delete.ts):
 * one status entry (trash-job.ts) says how far the removal is, with Undo. Ctrl/Cmd+Z, or that
 * Undo, while it runs stops it: no more chunks are sent, and main stops the one under way and
 * puts back what it had removed, as one step (core/trash); after it ended, Undo asks back what
 * main removed. The list gives the focus to the task that stays next to those going, and after an
 * Undo to the first task that came back, so the keyboard never ends up on the page.
 */
import type { StoreApi } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import { errorText, t } from '../i18n';
import { call, failure, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import type { Words } from './status-slice';
import { startUndo, TrashJob } from './trash-job';

/** A task the list is asked to give the focus to; a new `seq` asks again. */
export interface TaskFocusRequest {
  /** The task, when it is loaded; else the task at `index` of the list (or the last one). */
  readonly localId?: string;
  readonly index: number;
  readonly seq: number;
}

type Store = Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>;

/** Removes one chunk of tasks: those main removed (and whether an Undo stopped it). */
export type RemoveChunk = (
  localIds: string[],
) => Promise<{ readonly removed: readonly string[]; readonly canceled?: boolean }>;

/** One removal: its tasks, its entry, what was sent and what main removed. */
interface RemoveJob {
  readonly ids: readonly string[];
  readonly trash: TrashJob;
  /** Sent to main so far: what an Undo while it runs asks back. */
  readonly sent: string[];
  /** What main said it removed: what an Undo after it ended asks back. */
  readonly removed: string[];
  stopped: boolean;
  /** Where the first of them was in the list, when no loaded task stays to take the focus. */
  readonly focusAt: number;
  /** Its step on the window's Undo stack. */
  readonly step: number;
}

/** Each removal by its ids (the array Undo is given back). */
const jobs = new WeakMap<readonly string[], RemoveJob>();

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS_PER_BATCH)
    out.push(ids.slice(at, at + MAX_IDS_PER_BATCH));
  return out;
}

let focusSeq = 0;

/** A new focus request (each one asks again, even for the same place). */
function focusRequest(index: number, localId?: string): { tasksFocusRequest: TaskFocusRequest } {
  focusSeq += 1;
  return { tasksFocusRequest: { index, seq: focusSeq, ...(localId ? { localId } : {}) } };
}

/**
 * Where the focus goes as tasks start to go: the loaded task that stays next to the first of
 * them (after it, else before it); else, once they went, the task now where the first one was
 * (`at`, -1: none of them is loaded).
 */
function heirOf(state: AppState, going: ReadonlySet<string>): { at: number; heir?: string } {
  const ids = state.tasksIds;
  const at = ids.findIndex((localId) => going.has(localId));
  if (at < 0) return { at };
  const stays = (localId: string) => !going.has(localId);
  const heir = ids.slice(at).find(stays) ?? ids.slice(0, at).reverse().find(stays);
  return heir ? { at, heir } : { at };
}

/** What a removal did (the label of its step of Undo). */
function removedWords(count: number): Words {
  return () => t('tasks.selection.removed', { count });
}

/**
 * Removes the tasks (the caller asked the user), chunk by chunk with `send`, as a job with Undo
 * from the start; answers false when it failed (the reason shown).
 */
export async function removeTasks(
  store: Store,
  localIds: readonly string[],
  send: RemoveChunk,
): Promise<boolean> {
  const ids = [...localIds];
  if (ids.length === 0) return false;
  // A step of the window's Undo from the first moment; its entry's Undo runs the same step.
  const step = store.getState().undoPush(removedWords(ids.length), async () => {
    await store.getState().tasksUndoRemove(ids);
    return true;
  });
  const undo = (): void => void store.getState().undoRun(step);
  const { at, heir } = heirOf(store.getState(), new Set(ids));
  const job: RemoveJob = {
    ids,
    sent: [],
    removed: [],
    stopped: false,
    focusAt: heir === undefined ? at : -1,
    trash: new TrashJob(store, 'tasks', ids.length, undo),
    step,
  };
  jobs.set(ids, job);
  store.setState({ tasksUndoable: ids, ...(heir === undefined ? {} : focusRequest(at, heir)) });
  try {
    for (const chunk of chunks(ids)) {
      if (job.stopped) break;
      job.sent.push(...chunk);
      const outcome = await send(chunk);
      // A stopped chunk's `removed` are those that could not come back: gone all the same.
      for (const localId of outcome.removed) store.getState().tasksApplyRemoved(localId);
      job.removed.push(...outcome.removed);
      job.trash.reached(job.sent.length);
    }
    if (!job.stopped) ended(store, job);
    return true;
  } catch (error) {
    if (!job.stopped) ended(store, job);
    store.getState().showError(toApiError(error));
    return false;
  }
}

/** The removal ended: what it removed said with Undo, or nothing when it removed none. */
function ended(store: Store, job: RemoveJob): void {
  const count = job.removed.length;
  if (count > 0) {
    job.trash.finish(removedWords(count));
    if (job.focusAt >= 0) store.setState(focusRequest(job.focusAt));
    return;
  }
  job.trash.drop();
  store.getState().undoForget(job.step);
  if (store.getState().tasksUndoable === job.ids) store.setState({ tasksUndoable: null });
}

/** What an Undo brought back, in a sentence. */
function restoreWords(back: number, failed: number, problem?: () => string): Words {
  if (failed === 0) return () => t('tasks.announce.restored', { count: back });
  return () =>
    t('gallery.announce.partly', { done: back, count: back + failed, problem: problem?.() ?? '' });
}

interface Restored {
  back: number;
  failed: number;
  problem?: () => string;
}

/** Asks main for the tasks back, chunk by chunk; the list shows them, the first one focused. */
async function askBack(store: Store, ids: readonly string[]): Promise<Restored> {
  const result: Restored = { back: 0, failed: 0 };
  for (const chunk of chunks(ids)) {
    const outcome = await call('tasks:undoRemove', { localIds: chunk });
    store.getState().tasksInsert(outcome.items);
    const first = outcome.items[0]?.record.localId;
    if (result.back === 0 && first !== undefined) store.setState(focusRequest(0, first));
    result.back += outcome.items.length;
    result.failed += outcome.failed;
    const { problem: message, problemSentence: sentence } = outcome;
    if (message !== undefined) result.problem ??= () => errorText({ message, sentence });
  }
  return result;
}

/**
 * Puts back the tasks of one removal (its step on the window's Undo stack), by default the last
 * one: a removal still running is stopped (main puts back what it removed); after it ended, what
 * main removed is asked back. False when there was nothing (more) to undo; none back throws the
 * reason (the Undo stack says it, and keeps the step).
 */
export async function undoRemove(store: Store, asked?: readonly string[]): Promise<boolean> {
  const last = store.getState().tasksUndoable;
  const forget = () => store.setState({ tasksUndoable: null });
  const undo = startUndo(store, { asked, last, forget }, jobs, (job) => job.removed);
  if (undo === null) return false;
  const { job, running, asking } = undo;
  let result: Restored;
  try {
    result = await askBack(store, asking);
  } catch (error) {
    undo.failed();
    throw error;
  }
  // Tasks a stopped removal never sent stayed where they were: back as well.
  const unsent = running && job ? job.ids.length - asking.length : 0;
  const back = result.back + unsent;
  if (back === 0) {
    undo.failed();
    // Main's own sentence when it gave one, not a generic one with it hidden in the details.
    throw failure(result.problem ?? (() => t('gallery.actionFailed')));
  }
  undo.undone(restoreWords(back, result.failed, result.problem));
  return true;
}
