/**
 * A `tasks:updated` batch as the page applies it (shared/ipc/task-changes.ts): read once into
 * what it does to each task, then applied to the task list's ids in one pass (one copy at most)
 * and to the records table, where each changed record is written once whatever the views that
 * show it. The store sets the result with the gallery's and the compare view's in one update
 * (task-changes.ts), so the window draws a batch once.
 */
import type { TaskChange, TaskItem, TaskLivePart, TaskRefusal } from '../../shared/ipc/contract';
import type { ViewMembership } from '../../shared/ipc/task-changes';
import { retainSelection } from '../lib/selection';
import type { AppState } from './app-state';
import { withTriageDelta } from '../../shared/domain/triage-delta';
import {
  EMPTY_RECORDS,
  recordsWith,
  recordsWithLive,
  recordsWithout,
  withLivePart,
  type RecordsTable,
} from './records-table';
import { idsWithNew } from './task-ids';
import { isFiltered } from './task-list-model';

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

/**
 * Reads a batch. Main sends each task once per batch; should a task appear twice anyway, its
 * later change wins (a live part after its record is applied onto that record). A triage change
 * is applied onto the record the batch or else `table` has of the task (shared/domain/
 * triage-delta.ts) and then read as that whole record; one of a task neither has is ignored.
 */
export function readBatch(
  changes: readonly TaskChange[],
  table: RecordsTable = EMPTY_RECORDS,
): TaskBatch {
  const items = new Map<string, TaskItem>();
  const lives = new Map<string, TaskLivePart>();
  const removed = new Set<string>();
  const refusals: TaskRefusal[] = [];
  const views = new Map<string, ViewMembership>();
  for (const change of changes) {
    const localId = localIdOf(change);
    const earlier = items.get(localId);
    if (change.change === 'triage') {
      const base = earlier ?? table.get(localId);
      if (!base || removed.has(localId)) continue;
      items.set(localId, { ...base, record: withTriageDelta(base.record, change) });
      if (change.views) views.set(localId, change.views);
      continue;
    }
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

type TasksFields =
  | 'tasksIds'
  | 'tasksTotal'
  | 'tasksLoaded'
  | 'tasksFilter'
  | 'tasksNextCursor'
  | 'tasksDetailsId'
  | 'tasksViewer'
  | 'tasksSelection'
  | 'records';

/** The loaded ids after the batch: those removed, and those main says the filter no longer holds, go. */
function idsAfter(ids: string[], batch: TaskBatch) {
  const goes = (localId: string): boolean =>
    batch.removed.has(localId) || batch.views.get(localId)?.tasks === false;
  let next: string[] | null = null;
  const seen = new Set<string>();
  ids.forEach((localId, position) => {
    if (batch.items.has(localId)) seen.add(localId);
    if (!goes(localId)) {
      next?.push(localId);
      return;
    }
    next ??= ids.slice(0, position);
  });
  const kept = next ?? ids;
  const unknown = [...batch.items.values()].filter((item) => !seen.has(item.record.localId));
  return { ids: kept, gone: ids.length - kept.length, unknown };
}

/**
 * The batch's tasks not loaded that join the list: those main says its filter holds; of those
 * it said nothing of (a change the page made itself), only into an unfiltered list.
 */
function joining(unknown: readonly TaskItem[], batch: TaskBatch, filtered: boolean): TaskItem[] {
  return unknown.filter((item) => batch.views.get(item.record.localId)?.tasks ?? !filtered);
}

/** The task list's fields a batch changes (its ids, its details, its selection). */
type ListPatch = Partial<Pick<AppState, Exclude<TasksFields, 'records'>>>;

/**
 * The task list's part of the store after the batch (nothing when the batch names none of it):
 * its ids, never its records (they are the table's, {@link recordsAfterBatch}); `joined` names
 * the tasks that came into the list, whose records the table takes.
 */
export function tasksAfterBatch(
  state: Pick<AppState, TasksFields>,
  batch: TaskBatch,
): { patch: ListPatch; joined: readonly string[] } {
  const list = idsAfter(state.tasksIds, batch);
  let ids = list.ids;
  let total = list.gone > 0 ? Math.max(ids.length, state.tasksTotal - list.gone) : state.tasksTotal;
  // Unknown before the first page: the page will bring them.
  const unknown = joining(list.unknown, batch, isFiltered(state.tasksFilter));
  let joined: readonly string[] = [];
  if (unknown.length > 0 && state.tasksLoaded) {
    const table = recordsWith(state.records, unknown);
    const merged = idsWithNew(ids, unknown, table, state.tasksNextCursor === null);
    joined = unknown.map((item) => item.record.localId);
    ids = merged.ids;
    total += merged.added;
  }
  const patch: ListPatch = {};
  if (ids !== state.tasksIds) Object.assign(patch, { tasksIds: ids, tasksTotal: total });
  if (batch.removed.size === 0) return { patch, joined };
  if (state.tasksDetailsId !== null && batch.removed.has(state.tasksDetailsId)) {
    patch.tasksDetailsId = null;
  }
  if (state.tasksViewer && batch.removed.has(state.tasksViewer.localId)) patch.tasksViewer = null;
  const selection = retainSelection(state.tasksSelection, (localId) => !batch.removed.has(localId));
  if (selection !== state.tasksSelection) patch.tasksSelection = selection;
  return { patch, joined };
}

/**
 * The records table after the batch, each record written once: a task the table holds takes
 * its new record or live part, a task that joins a view (`joined`) comes in, a removed one goes.
 * A record of a task no view shows is not kept.
 */
export function recordsAfterBatch(
  table: RecordsTable,
  batch: TaskBatch,
  joined: Iterable<string> = [],
): RecordsTable {
  // Read only for a record the table lacks (a task joining a view), never for one it holds.
  let comes: ReadonlySet<string> | null = null;
  const written = [...batch.items.values()].filter(
    (item) =>
      table.has(item.record.localId) || (comes ??= new Set(joined)).has(item.record.localId),
  );
  const after = recordsWithLive(recordsWith(table, written), batch.lives.values());
  return recordsWithout(after, batch.removed);
}

/** The task list and the table after the batch, as one patch (an action's own answer). */
export function listAfterBatch(
  state: Pick<AppState, TasksFields>,
  batch: TaskBatch,
): Partial<Pick<AppState, TasksFields>> {
  const { patch, joined } = tasksAfterBatch(state, batch);
  const records = recordsAfterBatch(state.records, batch, joined);
  return records === state.records ? patch : { ...patch, records };
}
