/**
 * The parts of a template run's plan (template-runs.ts): the template read and expanded in main,
 * what each task's record keeps of it, and the estimate of the whole batch.
 */
import {
  REQUEST_LIMITS,
  TASKS_PER_ENGINE_SUBMIT,
  isWholeNumberIn,
} from '../../../shared/domain/limits';
import type { PromptTemplate } from '../../../shared/domain/prompt-template';
import type { UnitTotal } from '../../../shared/domain/cost-ledger';
import type { TaskCost } from '../../../shared/domain/task-cost';
import {
  MAX_TEMPLATE_RUN_VALUES,
  MAX_TEMPLATE_VALUE_CHARS,
  taskTemplateSchema,
  type TaskTemplate,
} from '../../../shared/domain/task-template';
import { expandTemplate, type ExpansionMode } from '../../../shared/domain/template-expand';
import {
  parseTemplate,
  PROMPT_VARIABLE,
  templateReferences,
  templateVariables,
  type ParsedTemplate,
} from '../../../shared/domain/template-language';
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import type { TemplateSource } from '../templates';

/** Prompts one run may expand to: the engine's limit of tasks per submit. */
const MAX_RUN_PROMPTS = TASKS_PER_ENGINE_SUBMIT.max;

/** What a plan asks of the template: the parts of TemplateRunInput that expansion reads. */
interface ExpansionInput {
  readonly templateId: string;
  readonly values: Readonly<Record<string, string>>;
  readonly prompt: string;
  readonly mode: ExpansionMode;
  readonly count: number;
}

function refuse(said: Parameters<typeof sentence>): never {
  throw new UserFacingError(sentence(...said), { code: 'bad_input' });
}

const BAD_VALUES = [
  'error.templateRun.badValues',
  { max: MAX_TEMPLATE_RUN_VALUES, chars: MAX_TEMPLATE_VALUE_CHARS },
] as const;

/** True when the template uses `{{prompt}}`. */
function usesPrompt(parsed: ParsedTemplate): boolean {
  return templateReferences(parsed).some(
    (node) => node.kind === 'variable' && node.name === PROMPT_VARIABLE,
  );
}

/**
 * What every task's record keeps: the template, its version, the values of its own variables
 * (and the prompt box as `prompt` when the template uses it and it fits a value), the mode.
 */
function recordOf(template: PromptTemplate, parsed: ParsedTemplate, input: ExpansionInput) {
  const values: Record<string, string> = {};
  for (const { name } of templateVariables(parsed)) {
    if (Object.hasOwn(input.values, name)) values[name] = input.values[name] as string;
  }
  if (usesPrompt(parsed) && input.prompt.length <= MAX_TEMPLATE_VALUE_CHARS) {
    values[PROMPT_VARIABLE] = input.prompt;
  }
  const { id, name, version } = template;
  const seed = input.mode.kind === 'random' ? { seed: input.mode.seed } : {};
  const parsedRecord = taskTemplateSchema().safeParse({
    ...{ id, name, version, values, mode: input.mode.kind },
    ...seed,
  });
  if (!parsedRecord.success) refuse([...BAD_VALUES]);
  return parsedRecord.data;
}

/**
 * The template `input` names, read from `source` and expanded with its values.
 * @throws UserFacingError (`bad_input`) with the sentence of what stops it.
 */
export function expandedPrompts(
  source: TemplateSource,
  input: ExpansionInput,
): { template: PromptTemplate; prompts: string[]; record: TaskTemplate } {
  // The values and the prompt box come from the page: bounded before anything reads them.
  const values = taskTemplateSchema().shape.values.safeParse(input.values);
  if (!values.success) refuse([...BAD_VALUES]);
  if (input.prompt.length > 2 * REQUEST_LIMITS.prompt) {
    refuse(['error.library.promptTooLong']);
  }
  if (!isWholeNumberIn(TASKS_PER_ENGINE_SUBMIT, input.count)) {
    const { min, max } = TASKS_PER_ENGINE_SUBMIT;
    refuse(['error.library.taskCountRange', { min: String(min), max: String(max) }]);
  }
  const template = source.byId(input.templateId);
  if (!template) refuse(['error.templateRun.notFound']);
  const parsed = parseTemplate(template.body);
  if (!parsed.ok) throw new UserFacingError(parsed.error.sentence, { code: 'bad_input' });
  const context = { values: values.data, prompt: input.prompt, lists: source.wordLists() };
  const expanded = expandTemplate(parsed.template, context, input.mode, MAX_RUN_PROMPTS);
  if (!expanded.ok) throw new UserFacingError(expanded.error.sentence, { code: 'bad_input' });
  const { prompts } = expanded;
  const tasks = prompts.length * input.count;
  if (tasks > TASKS_PER_ENGINE_SUBMIT.max) {
    const max = TASKS_PER_ENGINE_SUBMIT.max;
    refuse([
      'error.templateRun.tooManyTasks',
      { prompts: prompts.length, count: input.count, tasks, max },
    ]);
  }
  return { template, prompts, record: recordOf(template, parsed.template, input) };
}

/**
 * The batch's estimate as the ledger will count it once the tasks are admitted: each prompt's
 * cost per task (reported rates are not known before a run: an amount is an estimate from the
 * user's prices, labelled `estimated` with its basis; the demo is `free`), the sums per unit, and
 * how many tasks nobody can price.
 */
export interface TemplateEstimate {
  readonly perPrompt: readonly TaskCost[];
  readonly totals: readonly UnitTotal[];
  readonly unknownTasks: number;
  /** Tasks that cost nothing (the built-in demo's). */
  readonly freeTasks: number;
}

export function estimateOf(perPrompt: readonly TaskCost[], count: number): TemplateEstimate {
  const totals = new Map<string, { unit: UnitTotal['unit']; micros: number; tasks: number }>();
  let unknownTasks = 0;
  let freeTasks = 0;
  for (const cost of perPrompt) {
    if (cost.source === 'unknown') unknownTasks += count;
    if (cost.source === 'free') freeTasks += count;
    if (cost.source !== 'estimated' && cost.source !== 'reported') continue;
    const total = totals.get(cost.unit) ?? { unit: cost.unit, micros: 0, tasks: 0 };
    total.micros += cost.micros * count;
    total.tasks += count;
    totals.set(cost.unit, total);
  }
  return {
    perPrompt,
    totals: [...totals.values()].map((total) => ({ ...total, estimatedMicros: total.micros })),
    unknownTasks,
    freeTasks,
  };
}
