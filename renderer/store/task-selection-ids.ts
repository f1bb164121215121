/**
 * Which tasks the selection holds, as ids in the list's order: the loaded ones, or the whole
 * filtered history asked of main. Read by the selection's actions (task-selection.ts,
 * task-selected-actions.ts) and the cancel (task-cancel-slice.ts).
 */
import { selectedInOrder } from '../lib/selection';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { listQuery } from './task-list-model';

/** The loaded tasks' ids in the list's order. */
export function loadedOrder(state: Pick<AppState, 'tasksIds'>): readonly string[] {
  return state.tasksIds;
}

/** The selected ids, in the list's order. */
function selectedIds(state: Pick<AppState, 'tasksIds' | 'tasksSelection'>): string[] {
  return selectedInOrder(state.tasksSelection, loadedOrder(state));
}

/**
 * The selected ids, loaded or not: a whole-set selection asks main for the filter's tasks (the
 * page never holds a list main would take on trust) and leaves out those taken out of it.
 */
export async function chosenIds(
  state: Pick<AppState, 'tasksIds' | 'tasksSelection' | 'tasksFilter'>,
): Promise<string[]> {
  const { whole } = state.tasksSelection;
  if (!whole) return selectedIds(state);
  const { localIds } = await call('tasks:selectAll', listQuery(state.tasksFilter));
  return localIds.filter((localId) => !whole.except.has(localId));
}
