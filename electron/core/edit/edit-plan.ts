/**
 * An edit's plan: one source image (and its mask, its references) and one instruction on 1 to 6
 * targets, a use of the fan-out (core/fan-out) as a compare is, with images. Before anything is
 * stored or sent, every input is looked up in the input store by its digest (what the page says of
 * an image's size or format is never believed: the store's own reading replaces it), and each
 * target is found usable or left out with a sentence: a model that cannot do what is asked (naming
 * the models that would), inputs that cannot reach it (too large, uploads turned off), no key
 * there. Each target kept says how its inputs would travel (inline, or the service's upload;
 * public links; whether the user must agree to them first) and what was adapted (a size, a safety
 * tolerance clamped). Prices, caps and the engine's limit are the fan-out's verdict.
 */
import { z } from 'zod';
import type { ComfyWorkflow } from '../../../shared/domain/comfy-workflow';
import { COMPARE_TARGETS } from '../../../shared/domain/compare';
import {
  imageInputsSchema,
  inputImageSchema,
  type ImageInputs,
  type InputImage,
} from '../../../shared/domain/image-inputs';
import {
  canDo,
  requestCapabilities,
  modelsThatCan,
  needsOf,
  type InputNeeds,
  type ModelCapabilities,
} from '../../../shared/domain/model-capabilities';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { REQUEST_LIMITS } from '../../../shared/domain/limits';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { editTargetSchema } from '../../../shared/ipc/edit-target';
import type { EditRoute } from '../../../shared/ipc/inputs-contract';
import type { GenerationRequest } from '../../../shared/service/wire';
import { UserFacingError } from '../errors';
import { chooseRoute } from '../inputs';
import {
  adaptRequest,
  type FanOutDeps,
  type FanOutPlan,
  planFanOut,
  type PlannedTarget,
  usableTarget,
} from '../fan-out';

const word = (max: number) => z.string().trim().min(1).max(max);

/** A target as the page chooses it, and the address main gives its service (or the CLI's). */
const targetSchema = editTargetSchema()
  .extend({
    /** The service's address (a proxy, the demo); absent: the provider's own. */
    baseUrl: word(2_000).optional(),
  })
  .strict();

const inputSchema = z
  .object({
    prompt: word(REQUEST_LIMITS.prompt),
    inputs: z.unknown(),
    targets: z.array(targetSchema).min(1).max(COMPARE_TARGETS.max),
  })
  .strict();

/** An edit as the page (with main's addresses) or the CLI asks for it. */
export type EditInput = z.input<typeof inputSchema>;

/** An edit that cannot be planned: its sentence says what to change. Nothing was stored or sent. */
export class EditInputError extends UserFacingError {
  override readonly name = 'EditInputError';
}

/** What the plan needs of the input store: its own reading of a stored input, or null. */
export interface StoredInputs {
  describe(sha256: string): Promise<InputImage | null> | InputImage | null;
}

/** The settings the plan reads, now. */
export interface EditSettings {
  readonly neverUploadInputs: boolean;
  readonly publicUploadConsent: readonly ProviderId[];
}

export interface EditDeps extends FanOutDeps {
  readonly inputs: StoredInputs;
  readonly settings: () => EditSettings;
  /** The imported ComfyUI workflows: such a model takes an image when its map names one. */
  readonly workflows?: { lookup(model: string): Promise<ComfyWorkflow | undefined> };
}

/** A target that will be sent: one task, its inputs' way, what was adapted. */
export interface PlannedEdit extends PlannedTarget {
  readonly inputs: EditRoute;
}

export interface EditPlan extends FanOutPlan<PlannedEdit> {
  /** The inputs as the store knows them (what every target's request carries). */
  readonly inputs: ImageInputs;
}

export interface EditPlanOptions {
  /**
   * Planned to be sent (`edit:run`): a target whose uploads would become public links the user
   * has not agreed to is left out with its sentence, before the caps are counted.
   */
  readonly toSend?: boolean;
}

/**
 * The plan of `input`: nothing stored, nothing sent, nothing uploaded.
 * @throws EditInputError for an edit outside its bounds, an input not in the store, inputs that
 *   do not fit together (a mask of another size).
 */
export async function planEdit(
  deps: EditDeps,
  input: EditInput,
  options: EditPlanOptions = {},
): Promise<EditPlan> {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw new EditInputError(inputProblem(input));
  const { prompt, targets } = parsed.data;
  const inputs = await storedInputsOf(deps.inputs, parsed.data.inputs);
  const settings = deps.settings();
  const plan = await planFanOut<Target, PlannedEdit>(deps, {
    targets,
    noneLeft: sentence('error.edit.noTargetLeft'),
    plan: async (wanted, place): Promise<PlannedEdit | { reason: Sentence }> => {
      const way = await wayOf({ deps, inputs, settings, options }, wanted);
      if ('reason' in way) return way;
      const adapted = adaptRequest(wanted.provider, {
        prompt,
        model: wanted.model,
        ...(wanted.size === undefined ? {} : { size: wanted.size }),
        ...(wanted.quality === undefined ? {} : { quality: wanted.quality }),
      });
      const request: GenerationRequest = { ...adapted.request, inputs };
      const notes = [...adapted.notes, ...safetyNotes(wanted.provider, way.capabilities, inputs)];
      const perTask = [deps.costs.preview(way.target, request, 1).perTask];
      const target: PlannedTarget = {
        ...place,
        target: way.target,
        requests: [request],
        count: 1,
        notes,
        perTask,
      };
      return { ...target, inputs: way.route };
    },
  });
  return { ...plan, inputs };
}

type Target = z.output<typeof targetSchema>;

/** What every target of one plan is weighed against. */
interface Weighing {
  readonly deps: EditDeps;
  readonly inputs: ImageInputs;
  readonly settings: EditSettings;
  readonly options: EditPlanOptions;
}

/** Everything that decides whether a target is kept: what it can do, its route, its key. */
async function wayOf({ deps, inputs, settings, options }: Weighing, wanted: Target) {
  const workflow =
    PROVIDERS[wanted.provider].modelsAreWorkflows === true
      ? await deps.workflows?.lookup(wanted.model)
      : undefined;
  const capabilities = requestCapabilities(wanted.provider, {
    model: wanted.model,
    ...(workflow ? { workflow } : {}),
  });
  const needs = needsOf(inputs);
  if (!capabilities || !canDo(capabilities, needs)) {
    return { reason: cannotSentence(wanted.model, needs) };
  }
  const route = routeOf(wanted.provider, capabilities, inputs, settings);
  if ('reason' in route) return route;
  if (options.toSend && route.consentNeeded) {
    return {
      reason: sentence('error.edit.consentNeeded', { service: PROVIDERS[wanted.provider].label }),
    };
  }
  const target = await usableTarget(deps.credentials, wanted);
  if ('reason' in target) return target;
  return { capabilities, route, target };
}

/** "flux-2-pro cannot do this…: models that can: …", or that none can. */
function cannotSentence(model: string, needs: InputNeeds): Sentence {
  const models = modelsThatCan(needs).map(
    ({ provider, model: other }) => `${PROVIDERS[provider].label} · ${other}`,
  );
  return models.length === 0
    ? sentence('error.edit.noModelCan', { model })
    : sentence('error.edit.modelCannot', { model, models: models.join(', ') });
}

/**
 * The images a model with `capabilities` is sent: the source, the mask in its own convention
 * (when it takes one), the references.
 */
function sentImages(capabilities: ModelCapabilities, inputs: ImageInputs): InputImage[] {
  const mask =
    capabilities.mask === 'white-edit'
      ? inputs.mask
      : capabilities.mask === 'alpha-edit'
        ? inputs.maskAlpha
        : undefined;
  return [inputs.source, ...(mask ? [mask] : []), ...(inputs.references ?? [])];
}

function routeOf(
  provider: ProviderId,
  capabilities: ModelCapabilities,
  inputs: ImageInputs,
  settings: EditSettings,
): EditRoute | { readonly reason: Sentence } {
  const images = sentImages(capabilities, inputs);
  const chosen = chooseRoute(
    capabilities,
    images,
    inputs.route ?? 'auto',
    settings.neverUploadInputs,
  );
  if ('refused' in chosen) return { reason: chosen.refused };
  if (chosen.route === 'inline')
    return { route: 'inline', publicLinks: false, consentNeeded: false };
  const { publicLinks, lifetimeMs } = chosen.transport;
  return {
    route: 'upload',
    publicLinks,
    consentNeeded: publicLinks && !settings.publicUploadConsent.includes(provider),
    ...(lifetimeMs === null ? {} : { lifetimeMs }),
  };
}

/** The safety tolerance asked for, clamped to what the model allows with an input image. */
function safetyNotes(
  provider: ProviderId,
  capabilities: ModelCapabilities,
  inputs: ImageInputs,
): Sentence[] {
  const asked = inputs.safety;
  const max = capabilities.maxSafetyWithInput;
  if (asked === undefined || max === undefined || asked <= max) return [];
  const service = PROVIDERS[provider].label;
  return [sentence('error.edit.safetyClamped', { service, asked, max })];
}

/**
 * The page's inputs with each image as the store knows it (its digest is all that is taken from
 * the page), checked again as a whole (a mask the size of the source, a fill with its mask).
 * @throws EditInputError naming what is wrong; nothing was stored or sent.
 */
async function storedInputsOf(store: StoredInputs, raw: unknown): Promise<ImageInputs> {
  const asked = imageInputsSchema().safeParse(raw);
  if (!asked.success) {
    // Only the whole's own checks failed (a mask's size, a fill's mask): the images do not fit.
    const whole = asked.error.issues.every((issue) => issue.code === 'custom');
    throw new EditInputError(sentence(whole ? 'error.edit.inputsInvalid' : 'error.edit.badInput'));
  }
  const seat = async (image: InputImage): Promise<InputImage> => {
    const stored = await store.describe(image.sha256);
    const checked = inputImageSchema().safeParse(stored);
    if (!checked.success || checked.data.sha256 !== image.sha256) {
      throw new EditInputError(sentence('error.edit.inputMissing'), { code: 'not_found' });
    }
    return checked.data;
  };
  const { source, mask, maskAlpha, references, ...rest } = asked.data;
  const seated = {
    ...rest,
    source: await seat(source),
    ...(mask ? { mask: await seat(mask) } : {}),
    ...(maskAlpha ? { maskAlpha: await seat(maskAlpha) } : {}),
    ...(references ? { references: await Promise.all(references.map(seat)) } : {}),
  };
  const again = imageInputsSchema().safeParse(seated);
  if (!again.success) throw new EditInputError(sentence('error.edit.inputsInvalid'));
  return again.data;
}

/** What is wrong with an edit outside its bounds, in a sentence. */
function inputProblem(input: EditInput): Sentence {
  const targets = Array.isArray(input.targets) ? input.targets.length : 0;
  if (targets < 1 || targets > COMPARE_TARGETS.max) {
    return sentence('error.edit.targetCount', { min: 1, max: COMPARE_TARGETS.max, count: targets });
  }
  return sentence('error.edit.badInput');
}
