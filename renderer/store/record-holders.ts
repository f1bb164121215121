/**
 * Which records the page still needs: the ids every view holds over the records table (the task
 * list, the compare view, the details, the Tasks image viewer, the gallery's images and its page
 * loaded by position, and so the Triage view over them). A record none of them names has
 * left every open view, and the table lets it go ({@link evictingUnheld}), so the table holds
 * what the views show and never grows with what they showed once.
 */
import type { StateCreator, StoreApi } from 'zustand';
import type { AppState } from './app-state';
import { recordsHeld } from './records-table';

/** The fields that name records: a view's id list, or the one task a view shows. */
type Holders = Pick<
  AppState,
  'tasksIds' | 'compareIds' | 'tasksDetailsId' | 'tasksViewer' | 'galleryRefs' | 'galleryJump'
>;

/** The local ids the views hold. */
function heldIds(state: Holders): Set<string> {
  const held = new Set([...state.tasksIds, ...state.compareIds]);
  for (const ref of state.galleryRefs) held.add(ref.localId);
  for (const ref of state.galleryJump?.refs ?? []) held.add(ref.localId);
  for (const ref of state.galleryJump?.kept?.refs ?? []) held.add(ref.localId);
  if (state.tasksDetailsId !== null) held.add(state.tasksDetailsId);
  if (state.tasksViewer !== null) held.add(state.tasksViewer.localId);
  return held;
}

/** Whether an update changed what the views hold (a record written alone is kept until then). */
function holdersMoved(before: Holders, after: Holders): boolean {
  return (
    before.tasksIds !== after.tasksIds ||
    before.compareIds !== after.compareIds ||
    before.tasksDetailsId !== after.tasksDetailsId ||
    before.tasksViewer !== after.tasksViewer ||
    before.galleryRefs !== after.galleryRefs ||
    before.galleryJump !== after.galleryJump
  );
}

type SetState = StoreApi<AppState>['setState'];
type Patch = Parameters<SetState>[0];

/**
 * The store's creator with every update (a slice's `set` and the store's `setState`) letting go,
 * in the same update, of the records no view holds any more once the views' ids moved.
 */
export function evictingUnheld(creator: StateCreator<AppState>): StateCreator<AppState> {
  return (set, get, api) => {
    const evicting = ((partial: Patch, replace?: boolean) => {
      const before = get();
      const patch = { ...(typeof partial === 'function' ? partial(before) : partial) };
      const after = { ...before, ...patch };
      if (holdersMoved(before, after)) {
        const records = recordsHeld(after.records, heldIds(after));
        if (records !== after.records) Object.assign(patch, { records });
      }
      (set as (patch: Patch, replace?: boolean) => void)(patch, replace);
    }) as SetState;
    api.setState = evicting;
    return creator(evicting, get, api);
  };
}
