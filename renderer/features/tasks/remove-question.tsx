/**
 * The question before tasks leave the history. Removing never tells a service anything, so a
 * task still running on a service that can cancel is asked about first: "Cancel on the
 * service?" with Cancel and remove, Remove without cancelling, and Keep (the same from its
 * button, its details and the Delete key). A task whose service cannot cancel is removed with a
 * sentence saying it runs on there. A selection with running tasks is asked once for all of
 * them; a task whose cancel the service refused is kept (its refusal said), the rest removed.
 */
import { useShallow } from 'zustand/react/shallow';
import { canCancel, serviceCancels } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { ConfirmDialog, Dialog } from '../../components/dialog';
import { t } from '../../i18n';
import { recordServiceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { selectedRecords } from '../../store/task-selection';

export interface RemoveQuestionProps {
  /** The one task asked about, or null. */
  readonly task: TaskRecord | null;
  /** How many selected tasks are asked about (0: none). */
  readonly selected: number;
  readonly onClose: () => void;
}

/** Running on a service that can cancel it: the removal would leave it running there. */
function cancellable(record: TaskRecord): boolean {
  return canCancel(record) && serviceCancels(record);
}

export function RemoveQuestion({ task, selected, onClose }: RemoveQuestionProps) {
  if (task) return <RemoveTaskQuestion record={task} onClose={onClose} />;
  if (selected > 0) return <RemoveSelectedQuestion count={selected} onClose={onClose} />;
  return null;
}

/** Cancel and remove, Remove without cancelling, Keep: the three answers, Keep first. */
function RunningQuestion({
  body,
  onCancelAndRemove,
  onRemove,
  onClose,
}: {
  body: string;
  onCancelAndRemove: () => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={t('tasks.remove.runningTitle')}
      role="alertdialog"
      onClose={onClose}
      footer={
        <>
          <Button data-autofocus onClick={onClose}>
            {t('tasks.remove.keep')}
          </Button>
          <Button variant="danger" onClick={onRemove}>
            {t('tasks.remove.withoutCancel')}
          </Button>
          <Button variant="primary" icon="stop" onClick={onCancelAndRemove}>
            {t('tasks.remove.cancelAndRemove')}
          </Button>
        </>
      }
    >
      <p>{body}</p>
    </Dialog>
  );
}

function RemoveTaskQuestion({ record, onClose }: { record: TaskRecord; onClose: () => void }) {
  const remove = useAppStore((state) => state.tasksRemove);
  const cancel = useAppStore((state) => state.tasksCancel);
  const { localId } = record;
  const service = recordServiceLabel(record);
  const removeNow = () => {
    onClose();
    void remove(localId);
  };
  if (cancellable(record)) {
    const cancelThenRemove = async () => {
      onClose();
      const kind = await cancel(localId, { quiet: true });
      // A refusal (said already) keeps the task: it is still running there.
      if (kind !== null && kind !== 'refused' && kind !== 'not_asked') await remove(localId);
    };
    return (
      <RunningQuestion
        body={t('tasks.remove.runningBody', { service })}
        onCancelAndRemove={() => void cancelThenRemove()}
        onRemove={removeNow}
        onClose={onClose}
      />
    );
  }
  const running = canCancel(record) ? ` ${t('tasks.remove.runningNoCancel', { service })}` : '';
  return (
    <ConfirmDialog
      title={t('tasks.remove.title')}
      body={`${t('tasks.remove.body')}${running}`}
      confirmLabel={t('tasks.remove.confirm')}
      danger
      onCancel={onClose}
      onConfirm={removeNow}
    />
  );
}

function RemoveSelectedQuestion({ count, onClose }: { count: number; onClose: () => void }) {
  const removeSelected = useAppStore((state) => state.tasksRemoveSelected);
  const cancelMany = useAppStore((state) => state.tasksCancelMany);
  const keepSelected = useAppStore((state) => state.tasksSelectMany);
  const running = useAppStore(
    useShallow((state) =>
      selectedRecords(state)
        .filter(cancellable)
        .map((record) => record.localId),
    ),
  );
  const removeNow = () => {
    onClose();
    void removeSelected();
  };
  if (running.length > 0) {
    const cancelThenRemove = async () => {
      onClose();
      const outcomes = await cancelMany(running, { quiet: true });
      if (outcomes === null) return;
      // Refused ones (said already) stay, out of the selection; the others go.
      const refused = outcomes.filter((o) => o.kind === 'refused' || o.kind === 'not_asked');
      keepSelected(
        refused.map((outcome) => outcome.localId),
        false,
      );
      await removeSelected();
    };
    return (
      <RunningQuestion
        body={t('tasks.remove.runningManyBody', { count: running.length })}
        onCancelAndRemove={() => void cancelThenRemove()}
        onRemove={removeNow}
        onClose={onClose}
      />
    );
  }
  return (
    <ConfirmDialog
      title={t('tasks.selection.removeTitle', { count })}
      body={t('tasks.selection.removeBody')}
      confirmLabel={t('tasks.selection.removeConfirm', { count })}
      danger
      onCancel={onClose}
      onConfirm={removeNow}
    />
  );
}
