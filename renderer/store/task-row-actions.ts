/**
 * A task row's requests (resume, retry, pick, remove, send again, track): each
 * applies what main returns or shows its error. Part of the tasks slice (tasks-slice.ts).
 */
import type { StateCreator } from 'zustand';
import type { TaskItem } from '../../shared/ipc/contract';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { resendTasks } from './task-resend';
import { removeTasks } from './task-remove';
import { pickTasks } from './task-pick';

type Creator = StateCreator<AppState>;

/** The requests a row (or its menu, details and the gallery's Rerun) makes. */
export function taskRowActions(
  get: Parameters<Creator>[1],
  api: Parameters<Creator>[2],
): Pick<
  AppState,
  'tasksResume' | 'tasksRetryImages' | 'tasksPick' | 'tasksRemove' | 'tasksResend' | 'tasksTrack'
> {
  /** Runs a row action's request; applies the returned item or shows the error. */
  const act = async (work: () => Promise<TaskItem | null>): Promise<boolean> => {
    try {
      const item = await work();
      if (item) get().tasksApplyUpdate(item);
      return true;
    } catch (error) {
      get().showError(toApiError(error));
      return false;
    }
  };

  return {
    tasksResume: (localId) => act(() => call('tasks:resume', { localId })),
    tasksRetryImages: (localId) => act(() => call('tasks:retryImages', { localId })),
    tasksPick: (localIds, pick) => pickTasks(get, localIds, pick),
    tasksRemove: (localId) =>
      removeTasks(api, [localId], async () => {
        const { removed } = await call('tasks:remove', { localId });
        return { removed: removed ? [localId] : [] };
      }),
    tasksResend: (localIds, as) =>
      act(async () => {
        await resendTasks(get, localIds, as);
        return null;
      }),

    async tasksTrack(taskId, prompt) {
      const item = await call('tasks:track', {
        taskId: taskId.trim(),
        ...(prompt?.trim() ? { prompt: prompt.trim() } : {}),
      });
      get().tasksInsert([item]);
      return item;
    },
  };
}
