/**
 * A planned compare sent, shown and cancelled: the fan-out's run (core/fan-out/fan-out-run.ts).
 * Every task of the compare is stored, one group id, all or none under the spending caps, before
 * anything is sent; then each is sent on its own, side by side. One target refused (no credits,
 * moderation, no answer) leaves the others going.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskEngine } from '../engine';
import { sendPlan } from '../fan-out';
import { CompareInputError, type ComparePlan } from './compare-plan';

export { cancelGroup as cancelCompare, groupTasks as compareTasks } from '../fan-out';

/**
 * Stores and sends the plan's tasks; returns them as stored (priced), in the plan's order.
 * @throws SpendingCapError naming the hard cap that refuses them (nothing stored or sent);
 *   CompareInputError when no target can be sent, or more tasks than one submit may make; the
 *   engine's refusal of a request.
 */
export function runCompare(
  engine: Pick<TaskEngine, 'submitGroup'>,
  plan: ComparePlan,
): Promise<TaskRecord[]> {
  return sendPlan(engine, plan, (said) => new CompareInputError(said));
}
