/**
 * Selecting tasks with the mouse: a click on a task (not on one of its buttons) selects it as a
 * file manager does (plain, Ctrl/Cmd toggles, Shift takes the range); its checkbox toggles it and
 * Shift+click on a checkbox adds the range, as in a mail list. The keyboard's part (Space,
 * Ctrl/Cmd+A, Escape, Shift+arrows) is in task-list.tsx.
 */
import type { MouseEvent } from 'react';
import { t } from '../../i18n';
import { isSelected } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';

/** Clicks on these belong to them, not to the task's selection. */
const INTERACTIVE = 'button, a, input, select, textarea, label, [role="button"]';

/** Whether the task is selected (a boolean selector: a row re-renders only when it flips). */
export function useSelected(localId: string): boolean {
  return useAppStore((state) => isSelected(state.tasksSelection, localId));
}

/** The task element's click and mouse-down handlers for selection. */
export function useSelectHandlers(localId: string) {
  const selectClick = useAppStore((state) => state.tasksSelectClick);
  return {
    onClick: (event: MouseEvent<HTMLElement>) => {
      if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
      selectClick(localId, event);
    },
    // Shift+click extends the selection, not a text selection across the rows.
    onMouseDown: (event: MouseEvent<HTMLElement>) => {
      if (event.shiftKey && !(event.target as HTMLElement).closest(INTERACTIVE)) {
        event.preventDefault();
      }
    },
  };
}

/** The task's own checkbox. */
export function SelectBox({ localId }: { localId: string }) {
  const selected = useSelected(localId);
  const selectClick = useAppStore((state) => state.tasksSelectClick);
  return (
    <input
      type="checkbox"
      className="task-select"
      aria-label={t('tasks.select.task')}
      checked={selected}
      onChange={() => undefined}
      onClick={(event) => selectClick(localId, { shiftKey: event.shiftKey, ctrlKey: true })}
    />
  );
}

/** A batch's checkbox: all its tasks in or out of the selection. */
export function BatchSelectBox({ localIds }: { localIds: readonly string[] }) {
  const count = useAppStore(
    (state) => localIds.filter((localId) => isSelected(state.tasksSelection, localId)).length,
  );
  const selectMany = useAppStore((state) => state.tasksSelectMany);
  const all = count === localIds.length;
  return (
    <input
      type="checkbox"
      className="task-select"
      aria-label={t('tasks.batch.select', { count: localIds.length })}
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = count > 0 && !all;
      }}
      onChange={() => selectMany(localIds, !all)}
    />
  );
}
