/**
 * Copies a task id to the clipboard through the main process (the window's own clipboard API
 * is denied by its permission policy) and says so, or shows why it could not.
 */
import { useCallback } from 'react';
import { t } from '../../i18n';
import { call, toApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';

export function useCopyTaskId(): (taskId: string) => Promise<void> {
  const showError = useAppStore((state) => state.showError);
  const confirm = useAppStore((state) => state.confirm);
  return useCallback(
    async (taskId: string) => {
      try {
        await call('app:copyText', { text: taskId });
        confirm(() => t('tasks.copied'));
      } catch (error) {
        showError(toApiError(error, t('tasks.copyFailed')));
      }
    },
    [showError, confirm],
  );
}
