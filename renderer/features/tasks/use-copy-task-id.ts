/**
 * Copies a task id to the clipboard through the main process (the window's own clipboard API
 * is denied by its permission policy) and says so, or shows why it could not.
 */
import { useAppStore } from '../../store/app-store';

export function useCopyTaskId(): (taskId: string) => Promise<void> {
  return useAppStore((state) => state.copyTaskId);
}
