/**
 * The model of `pictor edit` and `pictor upscale`, and the way its inputs travel, chosen before
 * anything is sent: --model when given (refused, with the reason, when it cannot do what is
 * asked: the operation, the mask's convention, that many references, that factor), else the
 * first model of the provider that can (shared/domain/model-capabilities.ts). The way is
 * input-route.ts's, from --inputs and the "never upload inputs" setting; a service whose uploads
 * become public links is used only once the user has agreed for it.
 */
import type { ComfyWorkflow } from '../../shared/domain/comfy-workflow';
import {
  canDo,
  capabilitiesOf,
  modelsThatCan,
  type InputNeeds,
  type MaskConvention,
  requestCapabilities,
  type ModelCapabilities,
} from '../../shared/domain/model-capabilities';
import type { InputImage, InputRoute } from '../../shared/domain/image-inputs';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';
import { chooseRoute, type RouteChoice } from '../core/inputs';

/** A mask convention as a refusal names it. */
export const MASK_WORDS: Readonly<Record<MaskConvention, string>> = {
  'white-edit':
    'a white-edit mask (a grayscale PNG without alpha: white where to edit, black elsewhere)',
  'alpha-edit': 'an alpha-edit mask (an RGBA PNG whose alpha is 0 where to edit)',
};

/** What the task asks, in words: "fill with an alpha-edit mask and 2 references". */
function askedText(needs: InputNeeds): string {
  const parts: string[] = [needs.factor ? `${needs.operation} ×${needs.factor}` : needs.operation];
  const [mask] = needs.masks ?? [];
  if (mask) parts.push(`with a ${mask} mask`);
  if ((needs.references ?? 0) > 0) parts.push(`with ${needs.references} reference image(s)`);
  return parts.join(' ');
}

/** Why `capabilities` cannot do `needs`, in a sentence naming what it wants. */
function whyNot(model: string, c: ModelCapabilities, needs: InputNeeds): string {
  if (!c.operations.includes(needs.operation))
    return `${model} does not ${needs.operation}; it does: ${c.operations.join(', ')}.`;
  const [mask] = needs.masks ?? [];
  if (mask && c.mask === undefined) return `${model} takes no mask.`;
  if (mask && c.mask !== mask)
    return `${model} reads ${MASK_WORDS[c.mask ?? 'white-edit']}, and the --mask file is ${MASK_WORDS[mask]}: give the mask in the convention it reads.`;
  if ((needs.references ?? 0) > c.references)
    return `${model} takes at most ${c.references} reference image(s) (--ref); there were ${needs.references ?? 0}.`;
  return `${model} upscales by ×${c.upscale.join(' or ×')} only.`;
}

/** The models of other providers that can, for a refusal. */
function elsewhere(needs: InputNeeds): string {
  const found = modelsThatCan(needs).map(({ provider, model }) => `${provider} ${model}`);
  return found.length > 0 ? ` Models that can: ${found.join(', ')}.` : '';
}

/**
 * The model for `needs` on `provider`: `wanted`, or the first of the provider's that can.
 * @throws UsageError naming what the model wants, or the models that would do.
 */
export function chooseModel(
  provider: ProviderId,
  wanted: string | undefined,
  needs: InputNeeds,
  workflow?: ComfyWorkflow,
): { model: string; capabilities: ModelCapabilities } {
  if (wanted !== undefined) {
    const { label } = PROVIDERS[provider];
    const capabilities = requestCapabilities(provider, {
      model: wanted,
      ...(workflow ? { workflow } : {}),
    });
    if (capabilities === null)
      throw new UsageError(
        `--model of ${label} takes no image as far as Pictor knows (pictor models --capabilities lists those that do).${elsewhere(needs)} Nothing was sent.`,
      );
    if (!canDo(capabilities, needs))
      throw new UsageError(`${whyNot(wanted, capabilities, needs)} Nothing was sent.`);
    return { model: wanted, capabilities };
  }
  const first = modelsThatCan(needs).find((one) => one.provider === provider);
  const capabilities = first ? capabilitiesOf(provider, first.model) : null;
  if (!first || capabilities === null) throw new UsageError(noModelText(provider, needs));
  return { model: first.model, capabilities };
}

/**
 * Why no model of `provider` can: one of its models would with the mask in the other convention
 * (named, with the convention it reads), or none would (naming other providers' that can).
 */
function noModelText(provider: ProviderId, needs: InputNeeds): string {
  if ((needs.masks ?? []).length > 0) {
    for (const { model } of modelsThatCan({ ...needs, masks: [] })) {
      const other = capabilitiesOf(provider, model);
      if (other?.mask) return `${whyNot(model, other, needs)} Nothing was sent.`;
    }
  }
  const { label } = PROVIDERS[provider];
  return `No model of ${label} can ${askedText(needs)}.${elsewhere(needs)} Nothing was sent.`;
}

/** What the route step needs to know of the user's choices and settings. */
export interface RouteAsked {
  readonly route: InputRoute;
  /** The "never upload inputs" setting. */
  readonly neverUpload: boolean;
  /** The user agreed to public upload links for this provider (before, or with this command). */
  readonly consented: boolean;
}

/**
 * The way the inputs travel to the model.
 * @throws UsageError when there is none (too large to go inline with no upload, uploads
 *   forbidden, a public-link upload not agreed to).
 */
export function routeOf(
  provider: ProviderId,
  capabilities: ModelCapabilities,
  images: readonly InputImage[],
  asked: RouteAsked,
): Exclude<RouteChoice, { refused: unknown }> {
  const choice = chooseRoute(capabilities, images, asked.route, asked.neverUpload);
  if ('refused' in choice) {
    if (asked.route === 'never' && choice.refused.key === 'error.inputs.uploadRefused')
      throw new UsageError(
        'This model takes its images only by upload, and --inputs never forbids uploads. Nothing was sent.',
      );
    throw new UsageError(englishText(choice.refused));
  }
  if (choice.route === 'upload' && choice.transport.publicLinks && !asked.consented) {
    const { label } = PROVIDERS[provider];
    throw new UsageError(
      `${label} makes every uploaded image a public link: anyone with the link can see it. Pictor uploads there only once you agree: run the command again with --allow-public-upload (remembered for ${label}), or with --inputs inline when the images fit in the request. Nothing was sent.`,
    );
  }
  return choice;
}
