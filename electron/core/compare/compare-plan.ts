/**
 * A compare's plan: one prompt, or a few, on 2 to 6 targets, a target being a service,
 * its model and parameters. Before anything is stored or sent, each target is found usable or
 * left out with a sentence (no key for that service at that address), its parameters adapted to
 * what its service takes (compare-adapt.ts), labelled ("fal.ai · fal-ai/flux/dev #2" when the
 * same target comes twice), and priced as `CostBook.preview` prices it; the whole compare is
 * checked against the spending caps, a service's caps counting that service's tasks. The plan
 * stores and sends nothing. What it says (left out, adapted, a cap's warning, a refusal) is
 * catalogue sentences: the compare dialog shows them in the window's language, the CLI in English.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  COMPARE_PROMPTS,
  COMPARE_TARGETS,
  MAX_COMPARE_LABEL_CHARS,
  targetLabel,
} from '../../../shared/domain/compare';
import { PROVIDERS, providerIdSchema } from '../../../shared/domain/providers';
import { serviceAt } from '../../../shared/domain/service-name';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { TaskCost } from '../../../shared/domain/task-cost';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { CapForecast, CostBook } from '../costs';
import { cleanName } from '../../../shared/text/shown-name';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { CredentialsProvider } from '../../ports/credentials';
import { UserFacingError } from '../errors';
import { checkTarget } from '../engine';
import { adaptRequest } from './compare-adapt';
import { compareTotals, type CompareTotals } from './compare-totals';
import { isDemoEndpoint } from '../service';

/** Most tasks a target makes of one prompt. */
const MAX_TARGET_COUNT = 10;

const targetSchema = z
  .object({
    provider: providerIdSchema,
    model: z.string().trim().min(1).max(200).optional(),
    size: z.string().trim().min(1).max(40).optional(),
    quality: z.string().trim().min(1).max(40).optional(),
    count: z.number().int().min(1).max(MAX_TARGET_COUNT).optional(),
    /** The service's address (a proxy, the demo); absent: the provider's own. */
    baseUrl: z.string().trim().min(1).max(2_000).optional(),
  })
  .strict();
export type CompareTargetInput = z.input<typeof targetSchema>;

const inputSchema = z
  .object({
    prompts: z.array(z.string()).min(COMPARE_PROMPTS.min).max(COMPARE_PROMPTS.max),
    targets: z.array(targetSchema).min(COMPARE_TARGETS.min).max(COMPARE_TARGETS.max),
  })
  .strict();
export type CompareInput = z.input<typeof inputSchema>;

/** A compare that cannot be planned: its sentence says what to change. */
export class CompareInputError extends UserFacingError {
  override readonly name = 'CompareInputError';
}

/** A target that will be sent: one task per prompt (times its count). */
export interface PlannedTarget {
  readonly slot: number;
  readonly label: string;
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
  readonly reason: Sentence;
}

export interface ComparePlan {
  /** The compare's group id, shared by its tasks. */
  readonly group: string;
  readonly targets: readonly PlannedTarget[];
  readonly leftOut: readonly LeftOutTarget[];
  /** Every target's total and the compare's (compare-totals.ts). */
  readonly totals: CompareTotals;
  /** Soft caps the compare passes. */
  readonly warnings: readonly Sentence[];
  /** The hard cap that refuses it (nothing may be sent), or why nothing can be. */
  readonly refusal?: Sentence;
  /** Whether the refusal is a spending cap's (else the compare itself cannot be sent). */
  readonly overCap: boolean;
  /** A spending cap's refusal as data (SpendingCapError.refusal). */
  readonly capRefusal?: CapForecast;
}

export interface CompareDeps {
  readonly credentials: CredentialsProvider;
  readonly costs: Pick<CostBook, 'preview' | 'previewGroup'>;
  readonly newGroupId?: () => string;
}

/**
 * The plan of `input`: nothing stored, nothing sent.
 * @throws CompareInputError for a compare outside its bounds (prompts, targets, a count).
 */
export async function planCompare(deps: CompareDeps, input: CompareInput): Promise<ComparePlan> {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw new CompareInputError(inputProblem(input));
  const { prompts, targets } = parsed.data;
  const labels = labelsOf(targets, true);
  const planned: PlannedTarget[] = [];
  const leftOut: LeftOutTarget[] = [];
  for (const [index, wanted] of targets.entries()) {
    const slot = index + 1;
    const label = labels[index] ?? `#${slot}`;
    const found = await usableTarget(deps.credentials, wanted);
    if ('reason' in found) {
      leftOut.push({ slot, label, reason: found.reason });
      continue;
    }
    const adapted = prompts.map((prompt) =>
      adaptRequest(wanted.provider, { prompt, model: modelOf(wanted), ...sizeAndQuality(wanted) }),
    );
    const count = wanted.count ?? 1;
    const requests = adapted.map((one) => one.request);
    const perTask = requests.map((request) => deps.costs.preview(found, request, count).perTask);
    const notes = distinct(adapted.flatMap((one) => one.notes));
    planned.push({ slot, label, target: found, requests, count, notes, perTask });
  }
  return verdictOf(deps, planned, leftOut);
}

/**
 * The plan of `targets` as a whole: priced together against the spending caps (a service's caps
 * counting that service's tasks), the engine's limit of one submit, a new group id. The edit
 * plan (core/edit) shares it.
 */
export function verdictOf(
  deps: CompareDeps,
  targets: PlannedTarget[],
  leftOut: LeftOutTarget[],
): ComparePlan {
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
  const refusal =
    verdict.refusal ?? (targets.length === 0 ? sentence('error.compare.noTargetLeft') : overLimit);
  return {
    group,
    targets,
    leftOut,
    totals: compareTotals(targets),
    warnings: [...verdict.warnings],
    ...(refusal === undefined ? {} : { refusal }),
    overCap: verdict.refusal !== undefined,
    ...(verdict.refused ? { capRefusal: verdict.refused } : {}),
  };
}

/** A target once read: what {@link labelsOf} and {@link usableTarget} take. */
export type CompareTarget = z.output<typeof targetSchema>;
type Target = CompareTarget;

function modelOf(target: Target): string | undefined {
  return target.model ?? PROVIDERS[target.provider].defaultModel ?? undefined;
}

function sizeAndQuality(target: Target): Pick<GenerationRequest, 'size' | 'quality'> {
  return {
    ...(target.size === undefined ? {} : { size: target.size }),
    ...(target.quality === undefined ? {} : { quality: target.quality }),
  };
}

/**
 * A target's service as its label names it: "fal.ai", the user's own by its address's host
 * ("images.example.com"); with `sayDemo`, "fal.ai (demo)" on the
 * built-in demo (a compare may set fal's demo beside fal itself).
 */
function serviceOf(target: Target, sayDemo: boolean): string {
  const address = target.baseUrl ?? '';
  if (isDemoEndpoint(address)) {
    const { label } = PROVIDERS[target.provider];
    return sayDemo ? `${label} (demo)` : label;
  }
  return serviceAt(target.provider, address);
}

/** "fal.ai · fal-ai/flux/dev", with #1, #2… where the same label comes more than once. */
export function labelsOf(targets: readonly Target[], sayDemo = false): string[] {
  const plain = targets.map((target) => targetLabel(serviceOf(target, sayDemo), modelOf(target)));
  const seen = new Map<string, number>();
  return plain.map((label) => {
    const twice = plain.filter((other) => other === label).length > 1;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const suffix = twice ? ` #${n}` : '';
    const kept = cleanName(label, MAX_COMPARE_LABEL_CHARS - suffix.length) ?? 'target';
    return `${kept}${suffix}`;
  });
}

/** The checked target, or the sentence that leaves it out. */
export async function usableTarget(
  credentials: CredentialsProvider,
  wanted: Target,
): Promise<SubmitTarget | { readonly reason: Sentence }> {
  const endpoint = wanted.baseUrl ?? PROVIDERS[wanted.provider].defaultBaseUrl;
  const service = PROVIDERS[wanted.provider].label;
  if (!endpoint) return { reason: sentence('error.compare.noAddress', { service }) };
  const target = { provider: wanted.provider, endpoint };
  try {
    const checked = await checkTarget(credentials, target);
    return { provider: wanted.provider, endpoint: checked.endpoint };
  } catch (error) {
    // The check's refusals are sentences (target-check.ts); anything else is not a left-out target.
    if (error instanceof UserFacingError && error.sentence) return { reason: error.sentence };
    throw error;
  }
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
