/**
 * A compare's plan: one prompt, or a few, on 2 to 6 targets, a target being a service,
 * its model and parameters; one use of the fan-out (core/fan-out). Before anything is stored or
 * sent, each target is found usable or left out with a sentence (no key for that service at that
 * address), its parameters adapted to what its service takes (fan-out-adapt.ts), labelled
 * ("fal.ai · fal-ai/flux/dev #2" when the same target comes twice), and priced as
 * `CostBook.preview` prices it; the whole compare is checked against the spending caps, a
 * service's caps counting that service's tasks. The plan stores and sends nothing. What it says
 * (left out, adapted, a cap's warning, a refusal) is catalogue sentences: the compare dialog shows
 * them in the window's language, the CLI in English.
 */
import { z } from 'zod';
import { COMPARE_PROMPTS, COMPARE_TARGETS } from '../../../shared/domain/compare';
import { paramSchemaOf } from '../../../shared/domain/model-param-schemas';
import { paramValuesSchema } from '../../../shared/domain/model-params';
import { carryParams } from '../../../shared/domain/param-mapping';
import { providerIdSchema } from '../../../shared/domain/providers';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { seedSchema } from '../../../shared/service/service-seed';
import type { GenerationRequest } from '../../../shared/service/wire';
import { UserFacingError } from '../errors';
import {
  adaptRequest,
  type FanOutDeps,
  type FanOutPlan,
  modelOf,
  planFanOut,
  type PlannedTarget,
  usableTarget,
} from '../fan-out';

/** Most tasks a target makes of one prompt. */
const MAX_TARGET_COUNT = 10;

const targetSchema = z
  .object({
    provider: providerIdSchema(),
    model: z.string().trim().min(1).max(200).optional(),
    size: z.string().trim().min(1).max(40).optional(),
    quality: z.string().trim().min(1).max(40).optional(),
    count: z.number().int().min(1).max(MAX_TARGET_COUNT).optional(),
    /** The service's address (a proxy, the demo); absent: the provider's own. */
    baseUrl: z.string().trim().min(1).max(2_000).optional(),
  })
  .strict();
export type CompareTargetInput = z.input<typeof targetSchema>;

/**
 * The model options and seed asked for every target, with the service and model they were typed
 * for (the form's): each target takes them as its own schema names them (param-mapping.ts).
 */
const optionsSchema = z
  .object({
    provider: providerIdSchema(),
    model: z.string().trim().min(1).max(200).optional(),
    params: paramValuesSchema().optional(),
    seed: seedSchema().optional(),
  })
  .strict();

const inputSchema = z
  .object({
    prompts: z.array(z.string()).min(COMPARE_PROMPTS.min).max(COMPARE_PROMPTS.max),
    targets: z.array(targetSchema).min(COMPARE_TARGETS.min).max(COMPARE_TARGETS.max),
    options: optionsSchema.optional(),
  })
  .strict();
export type CompareInput = z.input<typeof inputSchema>;

/** A compare that cannot be planned: its sentence says what to change. */
export class CompareInputError extends UserFacingError {
  override readonly name = 'CompareInputError';
}

/** A compare's plan: the fan-out's. */
export type ComparePlan = FanOutPlan;

export type CompareDeps = FanOutDeps;

/**
 * The plan of `input`: nothing stored, nothing sent.
 * @throws CompareInputError for a compare outside its bounds (prompts, targets, a count).
 */
export async function planCompare(deps: CompareDeps, input: CompareInput): Promise<ComparePlan> {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw new CompareInputError(inputProblem(input));
  const { prompts, targets, options } = parsed.data;
  return planFanOut(deps, {
    targets,
    noneLeft: sentence('error.compare.noTargetLeft'),
    plan: async (wanted, place): Promise<PlannedTarget | { reason: Sentence }> => {
      const found = await usableTarget(deps.credentials, wanted);
      if ('reason' in found) return found;
      const carried = carryOptions(options, wanted);
      const adapted = prompts.map((prompt) =>
        adaptRequest(wanted.provider, {
          prompt,
          model: modelOf(wanted),
          ...sizeAndQuality(wanted),
          ...carried.request,
        }),
      );
      const count = wanted.count ?? 1;
      const requests = adapted.map((one) => one.request);
      const perTask = requests.map((request) => deps.costs.preview(found, request, count).perTask);
      const notes = distinct([...carried.notes, ...adapted.flatMap((one) => one.notes)]);
      return { ...place, target: found, requests, count, notes, perTask };
    },
  });
}

type Target = z.output<typeof targetSchema>;

/** The options and seed `target` sends of those asked, and what it does not take. */
function carryOptions(
  options: z.output<typeof optionsSchema> | undefined,
  target: Target,
): { request: Pick<GenerationRequest, 'params' | 'seed'>; notes: readonly Sentence[] } {
  if (options === undefined) return { request: {}, notes: [] };
  const carried = carryParams({
    from: paramSchemaOf(options.provider, options.model),
    to: paramSchemaOf(target.provider, modelOf(target)),
    params: options.params ?? {},
    seed: options.seed,
  });
  const params = Object.keys(carried.params).length > 0 ? { params: carried.params } : {};
  const seed = carried.seed === undefined ? {} : { seed: carried.seed };
  return { request: { ...params, ...seed }, notes: carried.notes };
}

function sizeAndQuality(target: Target): Pick<GenerationRequest, 'size' | 'quality'> {
  return {
    ...(target.size === undefined ? {} : { size: target.size }),
    ...(target.quality === undefined ? {} : { quality: target.quality }),
  };
}

/** The sentences of `said`, each once (every prompt of a target is adapted alike). */
function distinct(said: readonly Sentence[]): Sentence[] {
  const seen = new Map(said.map((one) => [JSON.stringify(one), one]));
  return [...seen.values()];
}

/** What is wrong with a compare outside its bounds, in a sentence. */
function inputProblem(input: CompareInput): Sentence {
  const prompts = Array.isArray(input.prompts) ? input.prompts.length : 0;
  const targets = Array.isArray(input.targets) ? input.targets.length : 0;
  if (prompts < COMPARE_PROMPTS.min || prompts > COMPARE_PROMPTS.max)
    return sentence('error.compare.promptCount', { ...COMPARE_PROMPTS, count: prompts });
  if (targets < COMPARE_TARGETS.min || targets > COMPARE_TARGETS.max)
    return sentence('error.compare.targetCount', { ...COMPARE_TARGETS, count: targets });
  return sentence('error.compare.badTarget', { countMin: 1, countMax: MAX_TARGET_COUNT });
}
