/**
 * A planned edit sent, as a compare is (core/compare/compare-run.ts): planned again from the same
 * input (never a plan the page holds), every task stored first under one group id, all or none
 * under the spending caps (TaskEngine.submitGroup), then each sent on its own. A target whose
 * uploads would become public links the user has not agreed to is left out with its sentence,
 * never uploaded quietly; the others go.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { runCompare } from '../compare';
import type { TaskEngine } from '../engine';
import { SpendingCapError } from '../errors';
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
  if (plan.refusal !== undefined) {
    if (plan.overCap)
      throw new SpendingCapError(plan.refusal, {
        code: 'bad_input',
        ...(plan.capRefusal ? { refusal: plan.capRefusal } : {}),
      });
    throw new EditInputError(plan.refusal);
  }
  return { plan, records: await runCompare(deps.engine, plan) };
}
