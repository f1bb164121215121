/**
 * Sending tasks again, the window's one way (`tasks:resend`): a task's "Submit again", "Rerun" and
 * "Vary", a batch's Rerun and the selection's "Submit again" name only the tasks; main reads
 * their requests and services, prices them and asks in its own dialog before a hard cap. The new
 * tasks go into the list; a refusal (a cap's sentence among them) is thrown for the caller to
 * show in the status area, the same way for every button.
 */
import type { RequestInput, RequestOutput } from '../../shared/ipc/contract';
import { call } from '../lib/api';
import type { AppState } from './app-state';

export type ResendMode = RequestInput<'tasks:resend'>['as'];

/**
 * Sends the tasks `localIds` again (`each`: each its own new task, `onlyFailed` skipping those that
 * did not fail, `newSeed` with a new seed, "Vary"; `batch`: one new batch) and puts the new tasks
 * into the list.
 * @throws main's refusal.
 */
export async function resendTasks(
  get: () => AppState,
  localIds: readonly string[],
  as: ResendMode,
  { onlyFailed = false, newSeed = false } = {},
): Promise<RequestOutput<'tasks:resend'>> {
  const input = {
    localIds: [...localIds],
    as,
    ...(onlyFailed ? { onlyFailed } : {}),
    ...(newSeed ? { newSeed: true as const } : {}),
  };
  const outcome = await call('tasks:resend', input);
  get().tasksInsert(outcome.items);
  return outcome;
}
