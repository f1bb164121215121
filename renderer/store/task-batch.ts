/**
 * A `tasks:updated` batch as the page applies it (shared/ipc/task-changes.ts): read once into
 * what it does to each task, then applied to the loaded task list in one pass, with one copy of
 * the list at most, whatever the number of tasks it names. The store sets the result with the
 * gallery's in one update (task-updates.ts), so the window draws a batch once.
 */
import type { TaskChange, TaskItem, TaskLivePart, TaskRefusal } from '../../shared/ipc/contract';
import type { ViewMembership } from '../../shared/ipc/task-changes';
import { retainSelection } from '../lib/selection';
import type { AppState } from './app-state';
import { fresher, isFiltered, upsertItems } from './task-list-model';

/** What one batch does to tasks: the last change of each task wins. */
export interface TaskBatch {
  /** Whole records (with the live state), by task. */
  readonly items: ReadonlyMap<string, TaskItem>;
  /** Live parts of tasks the batch sends no record of. */
  readonly lives: ReadonlyMap<string, TaskLivePart>;
  /** Tasks that left the history, or whose submit was refused (their rows go). */
  readonly removed: ReadonlySet<string>;
  /** Refused submits, in order (the form and its banner). */
  readonly refusals: readonly TaskRefusal[];
  /** Where main says each whole record stands in the open views (absent: it did not say). */
  readonly views: ReadonlyMap<string, ViewMembership>;
}

/** The task a change is about. */
function localIdOf(change: TaskChange): string {
  return change.change === 'task' ? change.record.localId : change.localId;
}

/** A task's live part applied onto the item the page has; an older part changes nothing. */
export function withLivePart(item: TaskItem, part: TaskLivePart): TaskItem {
  if (part.updatedAt < item.record.updatedAt) return item;
  const { updatedAt, polls, lastPolledAt, live } = part;
  return { record: { ...item.record, updatedAt, polls, lastPolledAt }, live };
}

/**
 * Reads a batch. Main sends each task once per batch; should a task appear twice anyway, its
 * later change wins (a live part after its record is applied onto that record).
 */
export function readBatch(changes: readonly TaskChange[]): TaskBatch {
  const items = new Map<string, TaskItem>();
  const lives = new Map<string, TaskLivePart>();
  const removed = new Set<string>();
  const refusals: TaskRefusal[] = [];
  const views = new Map<string, ViewMembership>();
  for (const change of changes) {
    const localId = localIdOf(change);
    const earlier = items.get(localId);
    if (change.change !== 'live') views.delete(localId);
    items.delete(localId);
    lives.delete(localId);
    removed.delete(localId);
    if (change.change === 'task') {
      items.set(localId, { record: change.record, live: change.live });
      if (change.views) views.set(localId, change.views);
    } else if (change.change === 'live') {
      if (earlier) items.set(localId, withLivePart(earlier, change));
      else lives.set(localId, change);
    } else {
      removed.add(localId);
      if (change.change === 'refused') refusals.push(change);
    }
  }
  return { items, lives, removed, refusals, views };
}

/** The images of each whole record the gallery holds, as main found them. */
export function heldInGallery(batch: TaskBatch): Map<string, readonly number[]> {
  const held = new Map<string, readonly number[]>();
  for (const [localId, views] of batch.views) if (views.gallery) held.set(localId, views.gallery);
  return held;
}

/** The item after the batch: its new state, the same item, or null when it goes. */
function itemAfter(item: TaskItem, batch: TaskBatch): TaskItem | null {
  const localId = item.record.localId;
  if (batch.removed.has(localId)) return null;
  const whole = batch.items.get(localId);
  if (whole) return fresher(item, whole);
  const part = batch.lives.get(localId);
  return part ? withLivePart(item, part) : item;
}

function touches(batch: TaskBatch, localId: string): boolean {
  return batch.items.has(localId) || batch.lives.has(localId) || batch.removed.has(localId);
}

type TasksFields =
  | 'tasksItems'
  | 'tasksTotal'
  | 'tasksLoaded'
  | 'tasksFilter'
  | 'tasksNextCursor'
  | 'tasksDetailsId'
  | 'tasksDetailsItem'
  | 'tasksViewer'
  | 'tasksSelection';

/** The loaded list after the batch: one pass, one copy, and how many loaded items went. */
function listAfter(items: readonly TaskItem[], batch: TaskBatch) {
  const seen = new Set<string>();
  let next: TaskItem[] | null = null;
  let gone = 0;
  items.forEach((item, position) => {
    const localId = item.record.localId;
    if (touches(batch, localId)) seen.add(localId);
    // Main found that the list's filter no longer holds it: it leaves the list.
    const leaves = batch.views.get(localId)?.tasks === false;
    const after = leaves ? null : seen.has(localId) ? itemAfter(item, batch) : item;
    if (after === item) {
      next?.push(item);
      return;
    }
    next ??= items.slice(0, position);
    if (after) next.push(after);
    else gone += 1;
  });
  const unknown = [...batch.items.values()].filter((item) => !seen.has(item.record.localId));
  return { items: next ?? items, gone, unknown };
}

/**
 * The batch's tasks not loaded that join the list: those main says its filter holds; of those
 * it said nothing of (a change the page made itself), only into an unfiltered list.
 */
function joining(unknown: readonly TaskItem[], batch: TaskBatch, filtered: boolean): TaskItem[] {
  return unknown.filter((item) => batch.views.get(item.record.localId)?.tasks ?? !filtered);
}

/** The task list's part of the store after the batch (nothing when the batch names none of it). */
export function tasksAfterBatch(
  state: Pick<AppState, TasksFields>,
  batch: TaskBatch,
): Partial<Pick<AppState, TasksFields>> {
  const list = listAfter(state.tasksItems, batch);
  let items = list.items;
  let total =
    list.gone > 0 ? Math.max(items.length, state.tasksTotal - list.gone) : state.tasksTotal;
  // Unknown before the first page: the page will bring them.
  const unknown = joining(list.unknown, batch, isFiltered(state.tasksFilter));
  if (unknown.length > 0 && state.tasksLoaded) {
    const merged = upsertItems(items, unknown, state.tasksNextCursor === null);
    items = merged.items;
    total += merged.added;
  }
  const patch: Partial<Pick<AppState, TasksFields>> = {};
  if (items !== state.tasksItems) Object.assign(patch, { tasksItems: items, tasksTotal: total });
  const shown = state.tasksDetailsItem;
  const shownAfter = shown ? itemAfter(shown, batch) : null;
  if (shownAfter !== shown) patch.tasksDetailsItem = shownAfter;
  if (batch.removed.size === 0) return patch;
  if (state.tasksDetailsId !== null && batch.removed.has(state.tasksDetailsId)) {
    Object.assign(patch, { tasksDetailsId: null, tasksDetailsItem: null });
  }
  if (state.tasksViewer && batch.removed.has(state.tasksViewer.localId)) patch.tasksViewer = null;
  const selection = retainSelection(state.tasksSelection, (localId) => !batch.removed.has(localId));
  if (selection !== state.tasksSelection) patch.tasksSelection = selection;
  return patch;
}
