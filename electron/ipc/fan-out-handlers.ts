/**
 * The IPC handlers every fan-out (core/fan-out: a compare, an edit, any later request sent to
 * several targets at once) is made of: its plan and its run. Each target goes where the compose
 * form would send its service's tasks now (AppCredentials.endpointOf: its address, or the demo
 * standing in for it): the page names none, and its key is main's. The run plans again from the same input rather than trusting a plan the page
 * holds, and answers the group's tasks as stored; the plan is shown as the use says.
 */
import type { TargetName } from '../../shared/domain/compare';
import type { ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { Sentence } from '../../shared/i18n/sentence';
import type { FanOutPlan, LeftOutTarget } from '../core/fan-out';
import type { TaskEngine } from '../core/engine';

/** What a fan-out's payload names of each target: its service. */
interface Fanned {
  readonly targets: readonly { readonly provider: ProviderId }[];
}

/** A payload with each target at its service's address (main's, never the page's). */
export type Addressed<Payload extends Fanned> = Omit<Payload, 'targets'> & {
  readonly targets: (Payload['targets'][number] & { readonly baseUrl?: string })[];
};

export interface FanOutHandlerDeps {
  readonly engine: Pick<TaskEngine, 'item'>;
  /**
   * Where a target of `provider` goes: where the compose form sends that service's tasks now, a
   * compare's and an edit's alike (AppCredentials.endpointOf: `demo:` while the demo stands in).
   */
  readonly endpointOf: (provider: ProviderId) => string;
}

/** A use of the fan-out: its plan and its run of a payload at main's addresses, its plan shown. */
export interface FanOutChannels<Payload extends Fanned, Plan extends FanOutPlan, Shown> {
  readonly plan: (input: Addressed<Payload>) => Promise<Plan>;
  readonly run: (input: Addressed<Payload>) => Promise<{ plan: Plan; records: TaskRecord[] }>;
  readonly show: (plan: Plan) => Shown;
}

/** The `:plan` and `:run` handlers of one use of the fan-out. */
export function fanOutHandlers<Payload extends Fanned, Plan extends FanOutPlan, Shown>(
  deps: FanOutHandlerDeps,
  use: FanOutChannels<Payload, Plan, Shown>,
) {
  const addressed = (input: Payload): Addressed<Payload> => ({
    ...input,
    targets: input.targets.map((target) => ({
      ...target,
      baseUrl: deps.endpointOf(target.provider),
    })),
  });
  return {
    plan: async (input: Payload) => use.show(await use.plan(addressed(input))),
    run: async (input: Payload) => {
      const { plan, records } = await use.run(addressed(input));
      return {
        group: plan.group,
        items: records.map((record) => deps.engine.item(record)),
        leftOut: plan.leftOut.map(shownLeftOut),
      };
    },
  };
}

/** A target left out as the page gets it: its slot, its name (label and facts), why. */
type ShownLeftOut = TargetName & { slot: number; reason: Sentence };

const shownLeftOut = ({ slot, name, reason }: LeftOutTarget): ShownLeftOut => ({
  ...name,
  slot,
  reason,
});

/** What every use shows the same of its plan: the group, who is left out, warnings, a refusal. */
export function shownPlan(plan: FanOutPlan): {
  group: string;
  leftOut: ShownLeftOut[];
  warnings: Sentence[];
  refusal?: Sentence;
} {
  return {
    group: plan.group,
    leftOut: plan.leftOut.map(shownLeftOut),
    warnings: [...plan.warnings],
    ...(plan.refusal === undefined ? {} : { refusal: plan.refusal }),
  };
}
