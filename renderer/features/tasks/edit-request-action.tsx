/**
 * "Edit and submit again" on a request the service refused as invalid (400):
 * the request goes back into the compose form with the prompt focused, so the user changes what
 * was wrong before anything is sent; nothing is resubmitted as it stands.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

/** A request the service refused for what it asked (its fields), not for the account. */
export function isRefusedRequest(record: TaskRecord): boolean {
  return record.status === 'submit_failed' && record.error?.kind === 'bad_request';
}

export function EditRequestAction({ record }: { record: TaskRecord }) {
  const edit = (): void => {
    // As "Use this prompt": the form gets the request, the prompt gets the focus.
    const state = useAppStore.getState();
    state.reuseTask(record);
    state.tasksOpenDetails(null);
    state.requestFocus('prompt');
  };
  return (
    <Button size="small" icon="send" title={t('tasks.action.editRequest.hint')} onClick={edit}>
      {t('tasks.action.editRequest')}
    </Button>
  );
}
