/**
 * A task's Reject flag, in its row and on its batch tile: every image of the task rejected as one
 * triage step with the window's Undo (main's `triage:apply` naming the task), as the gallery's X
 * does to one image. Pressed when every image the task has is rejected: pressing it again unflags
 * them. A task with no image (at work, failed) has nothing to reject and shows no flag.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { flaggableImages } from '../../../shared/domain/favourites';
import { flagOf } from '../../../shared/domain/triage';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

/** Whether the task has images and every one of them is rejected. */
export function isRejectedTask(record: Pick<TaskRecord, 'images'>): boolean {
  const images = flaggableImages(record);
  return images.length > 0 && images.every((image) => flagOf(image) === 'reject');
}

export function RejectButton({ record }: { record: TaskRecord }) {
  const apply = useAppStore((state) => state.triageApplyTasks);
  if (flaggableImages(record).length === 0) return null;
  const rejected = isRejectedTask(record);
  return (
    <IconButton
      icon="reject"
      size="small"
      className="task-reject"
      label={t('tasks.action.reject')}
      pressed={rejected}
      onClick={() =>
        void apply([record.localId], { kind: 'flag', flag: rejected ? 'none' : 'reject' })
      }
    />
  );
}
