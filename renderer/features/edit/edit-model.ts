/**
 * What the edit panel may offer: the models that can do what is asked (shared/domain/
 * model-capabilities.ts) on the services the user has set up, each one that cannot be used with
 * the sentence naming the model that would, and the request the panel sends (inputs by digest).
 */
import type {
  ImageOperation,
  InputImage,
  UpscaleFactor,
} from '../../../shared/domain/image-inputs';
import {
  MODEL_CAPABILITIES,
  canDo,
  capabilitiesOf,
  modelsThatCan,
  type InputNeeds,
  type ModelCapabilities,
} from '../../../shared/domain/model-capabilities';
import type { ProviderId } from '../../../shared/domain/providers';
import type { EditInputPayload } from '../../../shared/ipc/inputs-contract';
import { formatBytes, formatDimensions, formatNumber, t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';
import type { EditDraft, EditTarget as Target } from '../../store/edit-draft';

export interface ModelChoice {
  readonly provider: ProviderId;
  readonly model: string;
  /** Why it cannot be chosen, naming the model that would; null: it can. */
  readonly blocked: string | null;
}

/** The first of `found`, on a set-up service when there is one. */
function preferred(found: { provider: ProviderId; model: string }[], setUp: readonly ProviderId[]) {
  return found.find((one) => setUp.includes(one.provider)) ?? found[0];
}

/** Every model whose operations include the one asked, and whether it can be chosen now. */
export function modelChoices(needs: InputNeeds, setUp: readonly ProviderId[]): ModelChoice[] {
  const others = modelsThatCan(needs);
  const instead = preferred(others, setUp);
  return (Object.keys(MODEL_CAPABILITIES) as ProviderId[]).flatMap((provider) =>
    Object.entries(MODEL_CAPABILITIES[provider])
      .filter(([, capabilities]) => capabilities.operations.includes(needs.operation))
      .map(([model, capabilities]) => {
        let blocked: string | null = null;
        if (!canDo(capabilities, needs)) {
          blocked = instead
            ? t('edit.cannot', {
                model: instead.model,
                service: serviceLabel(instead.provider),
              })
            : t('edit.cannotAny');
        } else if (!setUp.includes(provider)) {
          blocked = t('edit.notSetUp', { service: serviceLabel(provider) });
        }
        return { provider, model, blocked };
      }),
  );
}

/**
 * Whether some set-up service can do `operation` (null), or the sentence naming the model that
 * would ("flux-pro-1.0-fill on Black Forest Labs can fill a mask"): a model by the name its
 * checkbox, the plan and the task rows give it.
 */
export function operationBlocked(
  operation: ImageOperation,
  setUp: readonly ProviderId[],
  factor: UpscaleFactor = 2,
): string | null {
  const needs: InputNeeds = operation === 'upscale' ? { operation, factor } : { operation };
  const found = modelsThatCan(needs);
  if (found.some((one) => setUp.includes(one.provider))) return null;
  const first = found[0];
  if (!first) return t('edit.wouldNone');
  const names = { model: first.model, service: serviceLabel(first.provider) };
  return t(`edit.would.${operation}`, { ...names, factor });
}

/** The chosen targets' capabilities. */
function chosenCapabilities(targets: readonly Target[]): ModelCapabilities[] {
  return targets.flatMap(({ provider, model }) => capabilitiesOf(provider, model) ?? []);
}

/** The most references every chosen model takes; null when none is chosen. */
export function referenceLimit(targets: readonly Target[]): number | null {
  const all = chosenCapabilities(targets);
  return all.length === 0 ? null : Math.min(...all.map((one) => one.references));
}

/**
 * The size the source must come down to for every chosen model, with the sentence saying so;
 * null when it fits them all.
 */
export function sizeOffer(
  source: InputImage,
  targets: readonly Target[],
): { maxSide: number; maxBytes: number; text: string } | null {
  const over = targets.filter(({ provider, model }) => {
    const limits = capabilitiesOf(provider, model);
    if (!limits) return false;
    return Math.max(source.width, source.height) > limits.maxSide || source.bytes > limits.maxBytes;
  });
  const first = over[0];
  if (!first) return null;
  const limits = chosenCapabilities(over);
  const maxSide = Math.min(...limits.map((one) => one.maxSide));
  const maxBytes = Math.min(...limits.map((one) => one.maxBytes));
  const text = t('edit.tooLarge', {
    size: formatDimensions(source.width, source.height),
    bytes: formatBytes(source.bytes),
    model: first.model,
    side: formatNumber(maxSide),
    maxBytes: formatBytes(maxBytes),
  });
  return { maxSide, maxBytes, text };
}

/** What a draft asks of a model. */
export function needsOfDraft(
  draft: Pick<EditDraft, 'operation' | 'masks' | 'references' | 'factor'>,
): InputNeeds {
  return {
    operation: draft.operation,
    masks: draft.operation === 'fill' && draft.masks ? ['white-edit', 'alpha-edit'] : [],
    references: draft.references.length,
    ...(draft.operation === 'upscale' ? { factor: draft.factor } : {}),
  };
}

/** The request main plans and runs, or null while something it needs is missing. */
export function editInput(draft: EditDraft): EditInputPayload | null {
  const prompt = draft.prompt.trim();
  if (prompt === '' || draft.targets.length === 0) return null;
  if (draft.operation === 'fill' && !draft.masks) return null;
  const op = draft.operation;
  return {
    prompt,
    inputs: {
      operation: op,
      source: draft.source,
      ...(op === 'fill' && draft.masks
        ? { mask: draft.masks.white, maskAlpha: draft.masks.alpha }
        : {}),
      ...(op !== 'upscale' && draft.references.length > 0
        ? { references: [...draft.references] }
        : {}),
      ...(op === 'upscale' ? { factor: draft.factor } : {}),
      ...(op === 'outpaint' ? { expand: draft.expand } : {}),
      ...(draft.parent ? { parent: draft.parent } : {}),
      route: draft.route,
    },
    targets: draft.targets.map(({ provider, model }) => ({ provider, model })),
  };
}
