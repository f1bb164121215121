/**
 * The task feed's keys: arrow keys, Page Up/Down, Home and End move between tasks, Enter opens a
 * task's details, Delete asks to remove it (or the selection it is in; Ctrl/Cmd+Z, the window's,
 * puts it back: shell/undo-key.ts); Space, Shift+arrows, Ctrl/Cmd+A and Escape select.
 */
import { useCallback, type KeyboardEvent, type RefObject } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { isSelected, selectionSize } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { recordProblem } from '../../store/record-problem';

function nextIndex(key: string, index: number, total: number, pageRows: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(total - 1, index + 1);
    case 'ArrowUp':
      return Math.max(0, index - 1);
    case 'PageDown':
      return Math.min(total - 1, index + pageRows);
    case 'PageUp':
      return Math.max(0, index - pageRows);
    case 'Home':
      return 0;
    case 'End':
      return total - 1;
    default:
      return null;
  }
}

/** Space, Shift+arrows, Ctrl/Cmd+A, Escape: what the key did to the selection, if anything. */
function selectionKeys(
  event: KeyboardEvent<HTMLElement>,
  from: string | null,
  to: string | null,
): boolean {
  const state = useAppStore.getState();
  if (event.key === ' ' && from !== null) {
    state.tasksSelectClick(from, { ctrlKey: true });
    return true;
  }
  if (event.shiftKey && to !== null && from !== null && to !== from) {
    if (state.tasksSelection.anchor === null) state.tasksSelectClick(from, {});
    state.tasksSelectClick(to, { shiftKey: true });
    return false;
  }
  return state.tasksSelectKey(event);
}

export interface FeedKeysOptions {
  readonly items: readonly TaskItem[];
  readonly total: number;
  readonly scroller: RefObject<HTMLElement | null>;
  readonly rowHeight: number;
  /** The current task's index. */
  readonly current: number;
  /** Makes task `next` current and gives it the focus. */
  readonly moveTo: (next: number) => void;
  /** Asks to remove one task, or the `count` selected ones. */
  readonly onRemove: (record: TaskRecord) => void;
  readonly onRemoveSelected: (count: number) => void;
}

/**
 * Delete (or Backspace) on a task: asks to remove the selection when the task is in one of more
 * than one, else the task itself; answers whether the key meant that.
 */
function removeKey(
  event: KeyboardEvent<HTMLElement>,
  record: TaskRecord | undefined,
  options: Pick<FeedKeysOptions, 'onRemove' | 'onRemoveSelected'>,
): boolean {
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;
  if (!record || !plain || (event.key !== 'Delete' && event.key !== 'Backspace')) return false;
  const { tasksSelection, tasksTotal } = useAppStore.getState();
  const count = selectionSize(tasksSelection, tasksTotal);
  if (count > 1 && isSelected(tasksSelection, record.localId)) options.onRemoveSelected(count);
  else options.onRemove(record);
  return true;
}

/** Enter and Delete on a row, then selection keys, then moves. */
export function useFeedKeys(options: FeedKeysOptions) {
  const { items, total, scroller, rowHeight, current, moveTo, onRemove, onRemoveSelected } =
    options;
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  return useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      const isRow = target.matches('article[data-index]');
      if (target.matches('input:not([type="checkbox"]), textarea, select')) return;
      const from = isRow ? Number(target.dataset.index) : current;
      const fromId = items[from]?.record.localId ?? null;
      const record = isRow ? items[from]?.record : undefined;
      const readable = record !== undefined && recordProblem(record) === null ? record : undefined;
      if (event.key === 'Enter' && isRow) {
        if (readable) {
          event.preventDefault();
          openDetails(readable.localId);
        }
        return;
      }
      if (removeKey(event, readable, { onRemove, onRemoveSelected })) {
        event.preventDefault();
        return;
      }
      const pageRows = Math.max(
        1,
        Math.floor((scroller.current?.clientHeight ?? rowHeight) / rowHeight) - 1,
      );
      const next = nextIndex(event.key, from, total, pageRows);
      const toId = next === null ? null : (items[next]?.record.localId ?? null);
      if ((event.key !== ' ' || isRow) && selectionKeys(event, isRow ? fromId : null, toId)) {
        event.preventDefault();
        return;
      }
      // Arrow keys inside a row's buttons still move between rows.
      if (next === null) return;
      event.preventDefault();
      moveTo(next);
    },
    [items, openDetails, rowHeight, current, total, scroller, moveTo, onRemove, onRemoveSelected],
  );
}
