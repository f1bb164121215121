/**
 * A fan-out's plan: one request (or a few) on several targets at once, a compare or an edit being
 * two uses of it. The use says of each target, in order, whether it is kept (its requests as its
 * service takes them, priced as `CostBook.preview` prices them, what was adapted) or left out
 * with a sentence; the plan labels them, prices the whole against the spending caps (a service's
 * caps counting that service's tasks) and the engine's limit of one submit, and gives the group
 * its id. It stores and sends nothing.
 */
import { randomUUID } from 'node:crypto';
import type { TargetName } from '../../../shared/domain/compare';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { TaskCost } from '../../../shared/domain/task-cost';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { CredentialsProvider } from '../../ports/credentials';
import type { CapForecast, CostBook } from '../costs';
import { labelsOf, type FanOutTarget } from './fan-out-targets';
import { totalsOf, type FanOutTotals } from './fan-out-totals';

/** A target that will be sent: one task per request (times its count). */
export interface PlannedTarget {
  readonly slot: number;
  readonly label: string;
  /** What the target is, as its tasks keep it (their `compare`: the window words it). */
  readonly name: TargetName;
  readonly target: SubmitTarget;
  /** One request per prompt, as its service takes it. */
  readonly requests: readonly GenerationRequest[];
  readonly count: number;
  /** What was adapted, in sentences. */
  readonly notes: readonly Sentence[];
  /** Each request's cost per task, as `CostBook.preview` gives it. */
  readonly perTask: readonly TaskCost[];
}

/** A target left out, and why. */
export interface LeftOutTarget {
  readonly slot: number;
  readonly label: string;
  /** What the target is, as a kept one's tasks would keep it (the window words it). */
  readonly name: TargetName;
  readonly reason: Sentence;
}

export interface FanOutPlan<Planned extends PlannedTarget = PlannedTarget> {
  /** The group id, shared by its tasks. */
  readonly group: string;
  readonly targets: readonly Planned[];
  readonly leftOut: readonly LeftOutTarget[];
  /** Every target's total and the whole's (fan-out-totals.ts). */
  readonly totals: FanOutTotals;
  /** Soft caps the whole passes. */
  readonly warnings: readonly Sentence[];
  /** The hard cap that refuses it (nothing may be sent), or why nothing can be. */
  readonly refusal?: Sentence;
  /** Whether the refusal is a spending cap's (else the fan-out itself cannot be sent). */
  readonly overCap: boolean;
  /** A spending cap's refusal as data (SpendingCapError.refusal). */
  readonly capRefusal?: CapForecast;
}

export interface FanOutDeps {
  readonly credentials: CredentialsProvider;
  readonly costs: Pick<CostBook, 'preview' | 'previewGroup'>;
  readonly newGroupId?: () => string;
}

/** A target left out by its use: the sentence that says why. */
interface LeftOutReason {
  readonly reason: Sentence;
}

/** What a use of the fan-out (a compare, an edit) says of its targets. */
export interface FanOutUse<Wanted extends FanOutTarget, Planned extends PlannedTarget> {
  readonly targets: readonly Wanted[];
  /** The target kept, planned, or the sentence that leaves it out. */
  readonly plan: (
    wanted: Wanted,
    place: Pick<PlannedTarget, 'slot' | 'label' | 'name'>,
  ) => Promise<Planned | LeftOutReason>;
  /** What refuses the whole when no target is left. */
  readonly noneLeft: Sentence;
}

const isLeftOut = (said: PlannedTarget | LeftOutReason): said is LeftOutReason => 'reason' in said;

/** The plan of `use`'s targets: nothing stored, nothing sent. */
export async function planFanOut<Wanted extends FanOutTarget, Planned extends PlannedTarget>(
  deps: FanOutDeps,
  use: FanOutUse<Wanted, Planned>,
): Promise<FanOutPlan<Planned>> {
  const names = labelsOf(use.targets);
  const planned: Planned[] = [];
  const leftOut: LeftOutTarget[] = [];
  for (const [index, wanted] of use.targets.entries()) {
    const slot = index + 1;
    const name = names[index] ?? { label: `#${slot}`, service: wanted.provider };
    const { label } = name;
    const said = await use.plan(wanted, { slot, label, name });
    if (isLeftOut(said)) leftOut.push({ slot, label, name, reason: said.reason });
    else planned.push(said);
  }
  return verdictOf(deps, planned, leftOut, use.noneLeft);
}

/**
 * The plan of `targets` as a whole: priced together against the spending caps (a service's caps
 * counting that service's tasks), the engine's limit of one submit, a new group id.
 */
function verdictOf<Planned extends PlannedTarget>(
  deps: FanOutDeps,
  targets: Planned[],
  leftOut: LeftOutTarget[],
  noneLeft: Sentence,
): FanOutPlan<Planned> {
  const items = targets.flatMap(({ target, requests, count }) =>
    requests.map((request) => ({ target, request, count })),
  );
  const verdict = deps.costs.previewGroup(items);
  const group = (deps.newGroupId ?? randomUUID)();
  // The engine's limit of one submit, said by the plan (the run would refuse the same).
  const tasks = items.reduce((sum, item) => sum + item.count, 0);
  const { min, max } = TASKS_PER_ENGINE_SUBMIT;
  const overLimit =
    tasks > max
      ? sentence('error.library.taskCountRange', { min: String(min), max: String(max) })
      : undefined;
  const refusal = verdict.refusal ?? (targets.length === 0 ? noneLeft : overLimit);
  return {
    group,
    targets,
    leftOut,
    totals: totalsOf(targets),
    warnings: [...verdict.warnings],
    ...(refusal === undefined ? {} : { refusal }),
    overCap: verdict.refusal !== undefined,
    ...(verdict.refused ? { capRefusal: verdict.refused } : {}),
  };
}
