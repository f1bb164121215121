/**
 * The buttons of one task row: the status's own action, then (on a completed task) rerun and
 * use this prompt, then pick, reject, copy id, details, remove.
 */
import { useCallback } from 'react';
import { isFavouriteTask } from '../../../shared/domain/favourites';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { announce } from '../../components/live-region';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { CancelTaskButton } from './cancel-action';
import { EditRequestAction, isRefusedRequest } from './edit-request-action';
import { RejectButton } from './reject-button';
import { availableActions } from './task-status';
import { useCopyTaskId } from './use-copy-task-id';

export interface TaskRowActionsProps {
  record: TaskRecord;
  onRemove: (record: TaskRecord) => void;
}

/** The one action the status calls for (resume, retry images, submit again), if any. */
export function StatusAction({ record }: { record: TaskRecord }) {
  const resume = useAppStore((state) => state.tasksResume);
  const retry = useAppStore((state) => state.tasksRetryImages);
  const resend = useAppStore((state) => state.tasksResend);
  const actions = availableActions(record);
  if (isRefusedRequest(record)) return <EditRequestAction record={record} />;
  if (actions.resume) {
    return (
      <Button size="small" icon="play" onClick={() => void resume(record.localId)}>
        {t('tasks.action.resume')}
      </Button>
    );
  }
  if (actions.retryImages) {
    return (
      <Button size="small" icon="retry" onClick={() => void retry(record.localId)}>
        {t('tasks.action.retryImages')}
      </Button>
    );
  }
  if (actions.submitAgain) {
    return (
      <Button
        size="small"
        icon="send"
        title={t('tasks.action.submitAgain.hint')}
        onClick={() => void resend([record.localId], 'each')}
      >
        {t('tasks.action.submitAgain')}
      </Button>
    );
  }
  return null;
}

/**
 * "Rerun": the task's request as one new task, on the task's own service (main reads both); a
 * batch's is its own (batch-head.tsx).
 */
export function useRerun(): (localId: string) => void {
  const resend = useAppStore((state) => state.tasksResend);
  return useCallback(
    (localId) =>
      void resend([localId], 'each').then((sent) => sent && announce(t('tasks.rerunSent'))),
    [resend],
  );
}

/**
 * "Use this prompt": fills the compose form with the task's request and service (its model is a
 * name on that service) and focuses the prompt; a batch's brings back its number of tasks too,
 * and a task made from a template its template, values, mode and seed ("Run again with…").
 */
export function useReusePrompt(): (record: TaskRecord, count?: number) => void {
  return useCallback((record, count) => {
    const state = useAppStore.getState();
    state.reuseTask(record, count);
    state.tasksOpenDetails(null);
    state.requestFocus('prompt');
  }, []);
}

function CompletedActions({ record }: { record: TaskRecord }) {
  const rerun = useRerun();
  const reuse = useReusePrompt();
  return (
    <>
      <IconButton
        icon="retry"
        size="small"
        label={t('tasks.action.rerun')}
        onClick={() => rerun(record.localId)}
      />
      <IconButton
        icon="send"
        size="small"
        label={t('tasks.action.reuse')}
        onClick={() => reuse(record)}
      />
    </>
  );
}

/**
 * The task's pick flag: pressed when it is picked (a favourite, as stored). A task with images
 * picks or unpicks them as one triage step with the window's Undo, as the gallery's P does (a
 * pick picks every image, clearing a reject; taking it off unpicks the picked ones); a task with
 * no image yet (at work, failed) keeps its own star, which its images take when they arrive.
 */
export function FavouriteButton({ record, className }: { record: TaskRecord; className?: string }) {
  const pick = useAppStore((state) => state.tasksPick);
  const picked = isFavouriteTask(record);
  const toggle = (): void => void pick([record.localId], !picked);
  return (
    <IconButton
      icon="flag"
      size="small"
      label={t('tasks.action.favourite')}
      pressed={picked}
      {...(className ? { className } : {})}
      onClick={toggle}
    />
  );
}

/**
 * A task's own small buttons, in a row and on a batch's tile alike: the pick flag (a tile has its own
 * flag in a corner), the reject flag (a task with images), copy its id (in a row, where there is room), details, cancel on the service
 * (a running task), remove.
 */
export function TaskIconButtons({
  record,
  onRemove,
  withCopy = true,
  withFavourite = true,
}: TaskRowActionsProps & { withCopy?: boolean; withFavourite?: boolean }) {
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  const copy = useCopyTaskId();
  const { taskId } = record;
  return (
    <>
      {withFavourite ? <FavouriteButton record={record} /> : null}
      <RejectButton record={record} />
      {withCopy ? (
        <IconButton
          icon="copy"
          size="small"
          label={t('tasks.action.copyId')}
          disabled={taskId === null}
          onClick={() => taskId && void copy(taskId)}
        />
      ) : null}
      <IconButton
        icon="details"
        size="small"
        label={t('tasks.action.details')}
        onClick={() => openDetails(record.localId)}
      />
      <CancelTaskButton record={record} variant="icon" />
      <IconButton
        icon="trash"
        size="small"
        label={t('tasks.action.remove')}
        onClick={() => onRemove(record)}
      />
    </>
  );
}

export function TaskRowActions({ record, onRemove }: TaskRowActionsProps) {
  return (
    <div className="task-row__actions">
      <StatusAction record={record} />
      {record.compare ? <OpenCompareButton group={record.compare.group} /> : null}
      <div className="task-row__icons">
        {record.status === 'completed' ? <CompletedActions record={record} /> : null}
        <TaskIconButtons record={record} onRemove={onRemove} />
      </div>
    </div>
  );
}

/** "Open compare": the compare view of the group this task belongs to. */
function OpenCompareButton({ group }: { group: string }) {
  const open = useAppStore((state) => state.compareOpen);
  return (
    <Button size="small" onClick={() => void open(group)}>
      {t('compare.open')}
    </Button>
  );
}
