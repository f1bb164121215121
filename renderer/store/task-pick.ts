/**
 * The one way the task list picks and unpicks tasks, for a row's flag and the selection bar alike.
 * A task's pick is its images' picks (shared/domain/favourites.ts), so a task with images is
 * picked through triage (`triage:apply` naming the tasks, or the picked images when unpicking):
 * one step of the window's Undo, said as the gallery's P says it. A task with no image yet (at
 * work, failed) has nothing to flag and keeps its own star (`tasks:setFavouriteMany`), which its
 * images take when they arrive; that star is not on the Undo list (there is no image to put back).
 */
import { flaggableImages } from '../../shared/domain/favourites';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import type { TaskRecord } from '../../shared/domain/task-record';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { itemsOf } from './records-table';

/** The tasks the page holds, by id; an id not loaded (a whole-set selection) is not in it. */
function loadedRecords(state: Pick<AppState, 'tasksIds' | 'records'>): Map<string, TaskRecord> {
  return new Map(
    itemsOf(state.records, state.tasksIds).map((item) => [item.record.localId, item.record]),
  );
}

/** Sets the own star of tasks with no image, a chunk per request; says how many. */
async function starWithoutImages(
  get: () => AppState,
  localIds: readonly string[],
  favourite: boolean,
): Promise<boolean> {
  try {
    let done = 0;
    for (let at = 0; at < localIds.length; at += MAX_IDS_PER_BATCH) {
      const chunk = localIds.slice(at, at + MAX_IDS_PER_BATCH);
      const { items } = await call('tasks:setFavouriteMany', { localIds: chunk, favourite });
      items.forEach((item) => get().tasksApplyUpdate(item));
      done += items.length;
    }
    const key = favourite ? 'tasks.selection.favourited' : 'tasks.selection.unfavourited';
    if (done > 0) get().confirm(() => t(key, { count: done }));
    return true;
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
}

/**
 * Picks (or unpicks) the named tasks. Picking: every image of each task (loaded or not: main
 * finds them) becomes a pick, clearing a reject. Unpicking: the picked images of the loaded tasks
 * lose their pick, a reject stays one; a task not loaded has its images unflagged (the button
 * says Unflag). Main stars only the tasks that have no image (`tasks:setFavouriteMany` skips the
 * rest), so a task not loaded is sent both ways and each side takes what is its own.
 * Answers false when main refused anything (said).
 */
export async function pickTasks(
  get: () => AppState,
  localIds: readonly string[],
  pick: boolean,
): Promise<boolean> {
  if (localIds.length === 0) return false;
  const loaded = loadedRecords(get());
  const unloaded = localIds.filter((localId) => !loaded.has(localId));
  const bare = localIds.filter((localId) => {
    const record = loaded.get(localId);
    return record !== undefined && flaggableImages(record).length === 0;
  });
  const known = localIds.flatMap((localId) => {
    const record = loaded.get(localId);
    return record !== undefined && flaggableImages(record).length > 0 ? [record] : [];
  });
  const starred = [...bare, ...unloaded];
  let ok = starred.length === 0 || (await starWithoutImages(get, starred, pick));
  if (pick) {
    const tasks = [...known.map((record) => record.localId), ...unloaded];
    if (tasks.length === 0) return ok;
    return (await get().triageApplyTasks(tasks, { kind: 'flag', flag: 'pick' })) !== null && ok;
  }
  const refs = known.flatMap((record) =>
    flaggableImages(record)
      .filter((image) => image.favourite)
      .map((image) => ({ localId: record.localId, index: image.index })),
  );
  if (refs.length > 0) {
    ok = (await get().triageApply(refs, { kind: 'flag', flag: 'none' })) !== null && ok;
  }
  if (unloaded.length > 0) {
    ok = (await get().triageApplyTasks(unloaded, { kind: 'flag', flag: 'none' })) !== null && ok;
  }
  return ok;
}
