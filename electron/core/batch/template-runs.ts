/**
 * Running a prompt template: the plan (its prompts, how many tasks, what they cost and what the
 * spending caps say, whether the negative prompt is sent) and the run, which plans again in main
 * and submits every task as one batch. A caller names the template by id with the form's values,
 * the prompt box and the expansion mode (and random mode's seed); main reads the template and
 * expands it (shared/domain/template-expand.ts), so the prompts sent are the ones the plan shows
 * and never ones a compromised page wrote. Over a hard spending cap the run asks the user in
 * main's own dialog (`OverCapPrompts`) and, without a yes, refuses with the cap's sentence
 * (SpendingCapError: the CLI's exit 6).
 */
import { targetLabel, type SubmitTarget } from '../../../shared/domain/submit-target';
import type { TaskCost } from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTemplate } from '../../../shared/domain/task-template';
import type { ExpansionMode } from '../../../shared/domain/template-expand';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { paramSchemaOf } from '../../../shared/domain/model-param-schemas';
import { commonParam } from '../../../shared/domain/model-params';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { OverCapPrompts } from '../../ports/user-prompts';
import type { CostBook } from '../costs';
import type { TaskEngine } from '../engine';
import type { TemplateSource } from '../templates';
import { consentOverCaps, hardCapBreach, type HardCapBreach } from './over-cap';
import { expandedPrompts, estimateOf, type TemplateEstimate } from './template-run-parts';

export type { TemplateEstimate } from './template-run-parts';

/** What a run of a template asks for: everything but the prompts, which main expands. */
export interface TemplateRunInput {
  readonly templateId: string;
  /** The form's values, by variable name. */
  readonly values: Readonly<Record<string, string>>;
  /** The prompt box: `{{prompt}}`. */
  readonly prompt: string;
  readonly mode: ExpansionMode;
  readonly target: SubmitTarget;
  /** The request's other fields (model, size, quality); its prompt is each expanded prompt. */
  readonly request: Omit<GenerationRequest, 'prompt'>;
  /** Tasks per prompt. */
  readonly count: number;
  /** "Generate into": a board's path. */
  readonly board?: string;
}

/** The negative prompt a template has, and whether the target's service takes it. */
export interface NegativePlan {
  readonly text: string;
  readonly sent: boolean;
  /** Why it is not sent. */
  readonly why?: Sentence;
  /** The model's option it is sent as (`negative_prompt`), when it is. */
  readonly name?: string;
}

export interface TemplatePlan {
  readonly template: { readonly id: string; readonly name: string; readonly version: number };
  /** Exactly the prompts that will be sent, in order. */
  readonly prompts: readonly string[];
  /** Null when the template has no negative prompt. */
  readonly negative: NegativePlan | null;
  /** prompts × count. */
  readonly tasks: number;
  readonly estimate: TemplateEstimate;
  /** The soft caps the tasks pass. */
  readonly warnings: readonly Sentence[];
  /** Null when no hard cap refuses the tasks. */
  readonly hardCap: HardCapBreach | null;
  /** What every task's record keeps of the template. */
  readonly record: TaskTemplate;
}

export interface TemplateRunDeps {
  readonly templates: TemplateSource;
  readonly costs: Pick<CostBook, 'previewBatch'>;
  readonly engine: Pick<TaskEngine, 'submitBatch'>;
}

/**
 * The template's negative prompt, sent as the model's own negative prompt where its schema has one
 * (shared/domain/model-param-schemas.ts); shown and not sent where it has none.
 */
function negativeOf(
  text: string | undefined,
  target: SubmitTarget,
  model: string | undefined,
): NegativePlan | null {
  if (text === undefined || text.trim() === '') return null;
  const name = commonParam(paramSchemaOf(target.provider, model?.trim()), 'negative');
  if (name !== undefined) return { text, sent: true, name };
  const service = targetLabel(target);
  return { text, sent: false, why: sentence('error.templateRun.negativeNotSent', { service }) };
}

/** The request of each prompt: the form's fields, and the negative prompt where it is sent. */
function requestsOf(
  prompts: readonly string[],
  input: TemplateRunInput,
  negative: NegativePlan | null,
): GenerationRequest[] {
  const { request } = input;
  const params =
    negative?.sent && negative.name !== undefined
      ? { params: { ...request.params, [negative.name]: negative.text } }
      : {};
  return prompts.map((prompt) => ({ ...request, ...params, prompt }));
}

export class TemplateRuns {
  constructor(private readonly deps: TemplateRunDeps) {}

  /**
   * What running the template would send and cost (nothing is stored or sent).
   * @throws UserFacingError with the sentence of what stops it: no such template, values out of
   *   bounds, a template error (its line and column), more than 100 tasks.
   */
  plan(input: TemplateRunInput): TemplatePlan {
    const { template, prompts, record } = expandedPrompts(this.deps.templates, input);
    const negative = negativeOf(template.negative, input.target, input.request.model);
    const requests = requestsOf(prompts, input, negative);
    const preview = this.deps.costs.previewBatch(input.target, requests, input.count);
    return {
      template: { id: template.id, name: template.name, version: template.version },
      prompts,
      negative,
      tasks: prompts.length * input.count,
      estimate: estimateOf(preview.perRequest as TaskCost[], input.count),
      warnings: preview.warnings,
      hardCap: hardCapBreach(preview),
      record,
    };
  }

  /**
   * Plans again and submits every task as one batch (TaskEngine.submitBatch: all or none, on disk
   * before anything is sent). Over a hard cap it asks `prompts` (main's dialog) first.
   * @throws as {@link plan}; SpendingCapError when a hard cap refuses and the user did not agree
   *   (or nobody could be asked: the CLI); the engine's refusals.
   */
  async run(
    input: TemplateRunInput,
    options: { readonly prompts?: OverCapPrompts } = {},
  ): Promise<{ plan: TemplatePlan; records: TaskRecord[] }> {
    const plan = this.plan(input);
    const overHardCaps = await consentOverCaps(plan.hardCap, plan.tasks, options.prompts);
    const requests = requestsOf(plan.prompts, input, plan.negative);
    const batch = { requests, count: input.count, board: input.board, template: plan.record };
    const records = await this.deps.engine.submitBatch({ ...batch, overHardCaps }, input.target);
    return { plan, records };
  }
}
