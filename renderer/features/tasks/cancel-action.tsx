/**
 * The action that ends a running task, named for what it does on the task's service: "Cancel on
 * fal.ai" where the service documents a cancel, "Stop watching" where it has none (the task runs
 * on there; its id is kept and Resume checks it again). An icon on its row and on a batch's tile, a
 * button in its details. While a cancel is asked (and while the service is stopping the task) a
 * spinner and "Cancelling…" stand in its place.
 */
import { canCancel, isStopping, serviceCancels } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { recordServiceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';

export interface CancelTaskButtonProps {
  readonly record: TaskRecord;
  /** `icon` on a row or a tile, `button` (with its words) in the details. */
  readonly variant: 'icon' | 'button';
}

/** The cancel action of a running task, or its "Cancelling…" while that is under way. */
export function CancelTaskButton({ record, variant }: CancelTaskButtonProps) {
  const cancel = useAppStore((state) => state.tasksCancel);
  const stopWatching = useAppStore((state) => state.tasksStopWatching);
  const asking = useAppStore((state) => state.tasksCancelling.has(record.localId));
  if (!canCancel(record)) return null;
  const cancels = serviceCancels(record);
  const label = cancels
    ? t('tasks.action.cancelOn', { service: recordServiceLabel(record) })
    : t('tasks.stop.confirm');
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
  const onClick = () => void (cancels ? cancel(record.localId) : stopWatching([record.localId]));
  return variant === 'icon' ? (
    <IconButton icon="stop" size="small" label={label} onClick={onClick} />
  ) : (
    <Button icon="stop" onClick={onClick}>
      {label}
    </Button>
  );
}
