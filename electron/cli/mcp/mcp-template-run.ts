/**
 * generate's `template`: a template of the library, named by its name, expanded and priced in the
 * core (TemplateRuns: the plan the window's form and `pictor generate --template` show), checked
 * against the connection's limit by the plan's estimate, then submitted as one batch. Over a hard
 * cap the core refuses it (nobody here can agree to pass it), as it refuses the CLI's.
 */
import { z } from 'zod';
import { expansionModeSchema, templateRunInputSchema } from '../../../shared/ipc/template-contract';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { UsageError } from '../../core/command-line';
import type { TemplatePlan } from '../../core/batch';
import type { PictorCore } from '../../core/pictor-core';
import type { ConnectionSpend, SpendAmount, SpendCharge } from './mcp-spend';

/** The template an agent names, its variables' values, and how its prompts are drawn. */
export const templateChoice = z
  .object({
    name: z.string().trim().min(1).max(200),
    values: templateRunInputSchema().shape.values.optional(),
    mode: expansionModeSchema().optional(),
  })
  .strict();
export type TemplateChoice = z.infer<typeof templateChoice>;

/** What a plan takes from the connection: its tasks, and their price in US dollars. */
function chargeOfPlan(plan: TemplatePlan): SpendCharge {
  return { micros: amountOfPlan(plan), tasks: plan.tasks };
}

/** What a plan costs the connection: every task's price in US dollars (null: not known so). */
function amountOfPlan(plan: TemplatePlan): SpendAmount {
  const { totals, unknownTasks, freeTasks } = plan.estimate;
  if (freeTasks === plan.tasks) return 0;
  const unknown = unknownTasks > 0 || totals.some((total) => total.unit !== 'USD');
  return unknown ? null : totals.reduce((sum, total) => sum + total.micros, 0);
}

/**
 * Plans and submits the template's run: the records it stored, or the limit's refusal.
 * @throws UsageError when the library has no template by that name; the plan's and the
 *   engine's refusals (an unexpanded variable, a hard cap) as the CLI meets them.
 * `count`: each prompt's tasks; `call`: the tool call's signal (nothing is sent once it was
 * cancelled: ConnectionSpend).
 */
export async function runTemplate(
  deps: {
    readonly core: PictorCore;
    readonly target: SubmitTarget;
    readonly spend: ConnectionSpend;
  },
  choice: TemplateChoice,
  request: Omit<GenerationRequest, 'prompt'> & { readonly prompt: string },
  { count, call }: { readonly count: number; readonly call: AbortSignal },
): Promise<{ ok: true; records: TaskRecord[] } | { ok: false; reason: string }> {
  const { core, target, spend } = deps;
  const stored = core.templates.byName(choice.name);
  if (!stored?.template) {
    throw new UsageError('There is no template by that name in the library.');
  }
  const { prompt, ...rest } = request;
  const input = {
    templateId: stored.template.id,
    values: choice.values ?? {},
    prompt,
    mode: choice.mode ?? { kind: 'combinatorial' as const },
    target,
    request: rest,
    count,
  };
  const sent = await spend.spend(
    chargeOfPlan(core.templateRuns.plan(input)),
    () => core.templateRuns.run(input),
    (run) => run.records,
    call,
  );
  return sent.ok ? { ok: true, records: sent.value.records } : sent;
}
