/**
 * "Cancel on the service" where a running task shows: an icon on its row and on a batch's tile, a
 * button in its details. While it is asked (and while the service is stopping it) a spinner and
 * "Cancelling…" stand in its place. A service that cannot cancel is answered with the question
 * "Stop watching instead?" (StopWatchingQuestion, asked by the Tasks screen).
 */
import { canCancel, isStopping } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { IconButton } from '../../components/icon-button';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { wordsOf } from '../../store/status-slice';

export interface CancelTaskButtonProps {
  readonly record: TaskRecord;
  /** `icon` on a row or a tile, `button` (with its words) in the details. */
  readonly variant: 'icon' | 'button';
}

/** The cancel action of a running task, or its "Cancelling…" while that is under way. */
export function CancelTaskButton({ record, variant }: CancelTaskButtonProps) {
  const cancel = useAppStore((state) => state.tasksCancel);
  const asking = useAppStore((state) => state.tasksCancelling.has(record.localId));
  if (!canCancel(record)) return null;
  const label = t('tasks.action.cancel');
  if (asking || isStopping(record)) {
    const busy = t('tasks.action.cancelling');
    return variant === 'icon' ? (
      <span className="task-cancelling" role="status" title={busy}>
        <Spinner label={busy} />
      </span>
    ) : (
      <Button disabled aria-busy="true">
        <Spinner />
        {busy}
      </Button>
    );
  }
  const onClick = () => void cancel(record.localId);
  return variant === 'icon' ? (
    <IconButton icon="stop" size="small" label={label} onClick={onClick} />
  ) : (
    <Button icon="stop" onClick={onClick}>
      {label}
    </Button>
  );
}

/** "Stop watching instead?": asked when a task's service has no way to cancel it. */
export function StopWatchingQuestion() {
  const offer = useAppStore((state) => state.tasksStopOffer);
  const stop = useAppStore((state) => state.tasksStopWatching);
  const dismiss = useAppStore((state) => state.tasksDismissStopOffer);
  if (!offer) return null;
  return (
    <Dialog
      title={t('tasks.stop.title')}
      role="alertdialog"
      onClose={dismiss}
      footer={
        <>
          <Button data-autofocus onClick={dismiss}>
            {t('tasks.stop.keep')}
          </Button>
          <Button variant="primary" onClick={() => void stop(offer.localIds)}>
            {t('tasks.stop.confirm')}
          </Button>
        </>
      }
    >
      <p>{wordsOf(offer.reason)}</p>
      <p>{t('tasks.stop.body')}</p>
    </Dialog>
  );
}
