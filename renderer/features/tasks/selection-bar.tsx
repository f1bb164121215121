/**
 * What can be done with the selected tasks: pick, reject (every image of them, one step of the
 * window's Undo), export to a folder, retry, submit again, cancel on their services, remove (one
 * confirmation for all, asked by the Tasks screen). It floats over the bottom of the history, so
 * rows never move when a selection starts (a Shift+click target stays put). Buttons whose action
 * applies to none of the selected tasks are disabled.
 */
import { useShallow } from 'zustand/react/shallow';
import { canCancel, canRetry, canSubmitAgain } from '../../../shared/domain/task-actions';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { selectionSize } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { selectedRecords } from '../../store/task-selection';
import { flaggableImages } from '../../../shared/domain/favourites';
import { isRejectedTask } from './reject-button';

/**
 * Counts of the selected tasks an action applies to. The whole filtered history ("Select all")
 * is more than the loaded rows tell: its actions stay offered, main skips what does not apply.
 */
function useSelectionCounts() {
  return useAppStore(
    useShallow((state) => {
      const records = selectedRecords(state);
      const whole = state.tasksSelection.whole !== undefined;
      return {
        count: selectionSize(state.tasksSelection, state.tasksTotal),
        whole,
        more: !whole && state.tasksTotal > state.tasksSelection.ids.size,
        favourites: records.filter((record) => record.favourite).length,
        loaded: records.length,
        // Tasks with images to flag; every one of them rejected already.
        flaggable: whole
          ? 1
          : records.filter((record) => flaggableImages(record).length > 0).length,
        rejected: records.filter(isRejectedTask).length,
        retryable: whole ? 1 : records.filter(canRetry).length,
        resendable: whole ? 1 : records.filter(canSubmitAgain).length,
        cancellable: whole ? 1 : records.filter(canCancel).length,
      };
    }),
  );
}

export function SelectionBar({ onRemove }: { onRemove: (count: number) => void }) {
  const counts = useSelectionCounts();
  const { count, whole, more, favourites, loaded, retryable, resendable, cancellable } = counts;
  const selectAll = useAppStore((state) => state.tasksSelectAll);
  const favourite = useAppStore((state) => state.tasksFavouriteSelected);
  const flag = useAppStore((state) => state.tasksFlagSelected);
  const exportSelected = useAppStore((state) => state.tasksExportSelected);
  const retry = useAppStore((state) => state.tasksRetrySelected);
  const submitAgain = useAppStore((state) => state.tasksSubmitAgainSelected);
  const clear = useAppStore((state) => state.tasksClearSelection);
  const cancel = useAppStore((state) => state.tasksCancelSelected);
  if (count === 0 && !whole) return null;
  // Every selected task a favourite already: the button takes the mark off instead.
  const unfavourite = loaded > 0 && favourites === loaded;
  // Every selected task with images rejected already: the button takes the flags off instead.
  const unreject = !whole && counts.flaggable > 0 && counts.rejected === counts.flaggable;
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('tasks.selection.label')}>
      <span className="selection-bar__count" aria-live="polite">
        {t(whole ? 'tasks.selection.countAll' : 'tasks.selection.count', { count })}
      </span>
      {more ? (
        <Button size="small" variant="ghost" onClick={selectAll}>
          {t('tasks.selection.selectAll')}
        </Button>
      ) : null}
      <Button size="small" icon="flag" onClick={() => void favourite(!unfavourite)}>
        {t(unfavourite ? 'tasks.selection.unfavourite' : 'tasks.selection.favourite')}
      </Button>
      <Button
        size="small"
        icon="reject"
        disabled={counts.flaggable === 0}
        onClick={() => void flag(unreject ? 'none' : 'reject')}
      >
        {t(unreject ? 'tasks.selection.unreject' : 'tasks.selection.reject')}
      </Button>
      <Button size="small" icon="folder" onClick={() => void exportSelected()}>
        {t('tasks.selection.export')}
      </Button>
      <Button size="small" icon="retry" disabled={retryable === 0} onClick={() => void retry()}>
        {t('tasks.selection.retry')}
      </Button>
      <Button
        size="small"
        icon="send"
        disabled={resendable === 0}
        onClick={() => void submitAgain()}
      >
        {t('tasks.selection.submitAgain')}
      </Button>
      <Button size="small" icon="stop" disabled={cancellable === 0} onClick={() => void cancel()}>
        {t('tasks.selection.cancel')}
      </Button>
      <Button size="small" icon="trash" variant="danger" onClick={() => onRemove(count)}>
        {t('tasks.selection.remove')}
      </Button>
      <IconButton icon="close" size="small" label={t('tasks.selection.clear')} onClick={clear} />
    </div>
  );
}
