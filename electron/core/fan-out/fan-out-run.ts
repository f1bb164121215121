/**
 * A planned fan-out sent, shown and cancelled. Every task of the group is stored, one group id,
 * all or none under the spending caps, before anything is sent (TaskEngine.submitGroup); then
 * each is sent on its own, side by side, at most a few at a time to one service address, and each
 * keeps every guarantee of a task (stored before its submit, never sent twice, resumed after a
 * restart, its images saved before their links expire). One target refused (no credits,
 * moderation, no answer) leaves the others going.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import type { Sentence } from '../../../shared/i18n/sentence';
import type { CancelOutcome, TaskCancels } from '../batch';
import type { TaskEngine } from '../engine';
import { SpendingCapError } from '../errors';
import type { HistoryStore } from '../history';
import type { FanOutPlan } from './fan-out-plan';

/** Most tasks one group makes: one engine submit's limit. */
const MAX_GROUP_TASKS = TASKS_PER_ENGINE_SUBMIT.max;

/**
 * Stores and sends the plan's tasks; returns them as stored (priced), in the plan's order.
 * @throws SpendingCapError naming the hard cap that refuses them (nothing stored or sent); the
 *   use's own error (`unsendable`) when no target can be sent, or more tasks than one submit may
 *   make; the engine's refusal of a request.
 */
export async function sendPlan(
  engine: Pick<TaskEngine, 'submitGroup'>,
  plan: FanOutPlan,
  unsendable: (said: Sentence) => Error,
): Promise<TaskRecord[]> {
  if (plan.refusal !== undefined) {
    if (!plan.overCap) throw unsendable(plan.refusal);
    throw new SpendingCapError(plan.refusal, {
      code: 'bad_input',
      ...(plan.capRefusal ? { refusal: plan.capRefusal } : {}),
    });
  }
  const items = plan.targets.flatMap(({ slot, name, target, requests, count }) =>
    requests.map((request) => ({
      request,
      target,
      count,
      // The label in English, and the facts the window words it by (shared/domain/compare.ts).
      compare: { group: plan.group, slot, ...name },
    })),
  );
  return engine.submitGroup(items);
}

/** The tasks of group `group` in the history, oldest first, by slot. */
export function groupTasks(history: Pick<HistoryStore, 'taskIds' | 'get'>, group: string) {
  const records = history
    .taskIds({ compareGroup: group }, MAX_GROUP_TASKS)
    .map((localId) => history.get(localId))
    .filter((record): record is TaskRecord => record !== undefined);
  return records.sort(
    (a, b) =>
      (a.compare?.slot ?? 0) - (b.compare?.slot ?? 0) ||
      a.createdAt - b.createdAt ||
      a.localId.localeCompare(b.localId),
  );
}

/**
 * "Cancel all": asks the service of every unfinished task of `group` to cancel it, where its
 * service can (cancel-tasks.ts says of each what came of it). Finished tasks are left alone.
 */
export async function cancelGroup(
  history: Pick<HistoryStore, 'taskIds' | 'get'>,
  cancels: Pick<TaskCancels, 'cancel'>,
  group: string,
): Promise<CancelOutcome[]> {
  const running = groupTasks(history, group).filter(
    (record) => record.status === 'processing' || record.status === 'submitting',
  );
  return cancels.cancel(running.map((record) => record.localId));
}
