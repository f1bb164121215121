/**
 * A planned edit sent by the fan-out's run (core/fan-out/fan-out-run.ts): planned again from the
 * same input (never a plan the page holds), every task stored first under one group id, all or
 * none under the spending caps (TaskEngine.submitGroup), then each sent on its own. A target whose
 * uploads would become public links the user has not agreed to is left out with its sentence,
 * never uploaded quietly; the others go.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskEngine } from '../engine';
import { sendPlan } from '../fan-out';
import {
  EditInputError,
  planEdit,
  type EditDeps,
  type EditInput,
  type EditPlan,
} from './edit-plan';

export interface EditRunDeps extends EditDeps {
  readonly engine: Pick<TaskEngine, 'submitGroup'>;
}

/** What was sent: the plan it was sent by, and its tasks as stored (priced), in slot order. */
export interface EditRun {
  readonly plan: EditPlan;
  readonly records: TaskRecord[];
}

/**
 * Plans `input` to be sent, stores its tasks and sends them.
 * @throws EditInputError when no target can be sent, or the edit cannot be planned;
 *   SpendingCapError naming the hard cap that refuses it (nothing stored or sent); the engine's
 *   refusal of a request.
 */
export async function runEdit(deps: EditRunDeps, input: EditInput): Promise<EditRun> {
  const plan = await planEdit(deps, input, { toSend: true });
  const records = await sendPlan(deps.engine, plan, (said) => new EditInputError(said));
  return { plan, records };
}
