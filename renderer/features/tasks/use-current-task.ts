/**
 * The feed's current task (the one in the tab order) and the moves that give it the focus: the
 * keys' moves, and where the focus goes after tasks were removed or put back: to the task now
 * where the first removed one was, or to the first task that came back (the store's
 * `tasksFocusRequest`), so a keyboard user stays in the list (where the arrows, Ctrl/Cmd+Z and
 * Delete work) instead of on the page. Those only when the focus is nowhere or in the list
 * already: what the user moved to meanwhile (the prompt, a dialog) keeps it.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useAppStore } from '../../store/app-store';
import { rowOfTask } from '../../store/task-list-model';
import type { Layout } from './task-feed';

export interface CurrentTask {
  /** The current task's index, within the list. */
  readonly current: number;
  /** Makes the task current (the focus went there). */
  readonly setCurrent: (index: number) => void;
  /** Makes task `next` current, scrolls to it and gives it the focus. */
  readonly moveTo: (next: number) => void;
}

/** Answers the store's requests to focus a task after a removal or an Undo. */
function useRemovalFocus(list: RefObject<HTMLElement | null>, moveTo: (index: number) => void) {
  const request = useAppStore((state) => state.tasksFocusRequest);
  const move = useRef(moveTo);
  useEffect(() => {
    move.current = moveTo;
  }, [moveTo]);
  useEffect(() => {
    if (request === null) return;
    const active = document.activeElement;
    const free = active === null || active === document.body || list.current?.contains(active);
    if (!free) return;
    const { tasksIds, tasksTotal } = useAppStore.getState();
    const index =
      request.localId === undefined
        ? Math.min(request.index, tasksTotal - 1)
        : tasksIds.indexOf(request.localId);
    if (index >= 0) move.current(index);
  }, [request, list]);
}

export function useCurrentTask(
  list: RefObject<HTMLElement | null>,
  layout: Layout,
  total: number,
  scrollToIndex: (row: number) => void,
): CurrentTask {
  const [current, setCurrent] = useState(0);
  const focusPending = useRef(false);
  // A move asks for a render, so the focus follows even to the task that is current already.
  const [, setMoves] = useState(0);
  const safeCurrent = Math.min(current, Math.max(0, total - 1));
  useLayoutEffect(() => {
    if (!focusPending.current) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-index="${safeCurrent}"]`);
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });
  const moveTo = useCallback(
    (next: number) => {
      setCurrent(next);
      setMoves((moves) => moves + 1);
      focusPending.current = true;
      // A task behind its batch's "+N" is shown first: the keys reach every task.
      layout.reveal(next);
      scrollToIndex(rowOfTask(layout.groups, layout.loaded, next));
    },
    [scrollToIndex, layout],
  );
  useRemovalFocus(list, moveTo);
  return { current: safeCurrent, setCurrent, moveTo };
}
