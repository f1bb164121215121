/**
 * The compose draft as data: the fields a set of defaults gives, each field's check, an earlier
 * request put back into the form, and where the form's tasks go. Pure; the compose slice's
 * actions (compose-slice.ts) build on it.
 */
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { GenerationRequest } from '../../shared/service/wire';
import { formTarget, type SubmitTarget } from '../../shared/domain/submit-target';
import { keyThere } from '../lib/service-key-state';
import {
  QUALITY_PRESETS,
  SIZE_PRESETS,
  checkCount,
  checkModel,
  checkPrompt,
  checkQuality,
  checkSize,
} from '../lib/request-validation';
import type { AppState } from './app-state';
import type { ComposeDraft, ComposeErrors } from './compose-draft';
import { paramsKey } from './compose-params';

/**
 * Where a task of the form's service `provider` goes, as `state` has Settings and the key now: a
 * key waiting for the OS's storage counts (keyThere), as main's endpointOf counts it.
 */
export function composeTarget(
  state: Pick<AppState, 'settings' | 'serviceKeys'>,
  provider: ProviderId,
): SubmitTarget {
  const keyed = keyThere(state.serviceKeys?.[provider]);
  return formTarget(state.settings ?? DEFAULT_SETTINGS, provider, keyed);
}

/**
 * The board a submit of the form names ("Generate into"): the one chosen in its Board field, else
 * the target board (the one B toggles in the gallery); null: none.
 */
export function composeBoardOf(
  state: Pick<AppState, 'composeBoardChoice' | 'triageTarget'>,
): string | null {
  return state.composeBoardChoice ? state.composeBoardChoice.path : state.triageTarget;
}

function sizeFields(size: string): Pick<ComposeDraft, 'size' | 'sizeCustom'> {
  const preset = size === '' || (SIZE_PRESETS as readonly string[]).includes(size);
  return { size, sizeCustom: !preset };
}

function qualityFields(quality: string): Pick<ComposeDraft, 'quality' | 'qualityCustom'> {
  const preset = quality === '' || (QUALITY_PRESETS as readonly string[]).includes(quality);
  return { quality, qualityCustom: !preset };
}

/** The model a task of `provider` asks for: its own, or Settings' default for a service without one. */
export function defaultModelFor(settings: Settings, provider: ProviderId): string {
  return PROVIDERS[provider].defaultModel ?? settings.defaultModel;
}

/** The draft fields a set of defaults gives. */
export function draftFromDefaults(settings: Settings): Omit<ComposeDraft, 'prompt'> {
  const provider = settings.provider ?? 'pictor';
  return {
    provider,
    model: defaultModelFor(settings, provider),
    ...sizeFields(settings.defaultSize),
    ...qualityFields(settings.defaultQuality),
    count: String(settings.defaultCount),
    params: {},
    seed: '',
    seedLocked: false,
  };
}

/** Every field's reason to refuse the draft (empty when it can be sent). */
export function composeErrors(draft: ComposeDraft): ComposeErrors {
  const errors: ComposeErrors = {};
  const prompt = checkPrompt(draft.prompt);
  if (!prompt.ok) errors.prompt = prompt.reason;
  const model = checkModel(draft.model);
  if (!model.ok) errors.model = model.reason;
  if (draft.sizeCustom) {
    const size = checkSize(draft.size);
    if (!size.ok) errors.size = size.reason;
  }
  if (draft.qualityCustom) {
    const quality = checkQuality(draft.quality);
    if (!quality.ok) errors.quality = quality.reason;
  }
  const count = checkCount(draft.count);
  if (!count.ok) errors.count = count.reason;
  return errors;
}

/** `draft` filled with an earlier request, and with its service when known. */
export function reusedDraft(
  draft: ComposeDraft,
  request: GenerationRequest,
  provider: ProviderId | undefined,
  count: number | undefined,
): ComposeDraft {
  return {
    ...draft,
    ...(provider === undefined ? {} : { provider }),
    ...(count === undefined ? {} : { count: String(count) }),
    prompt: request.prompt,
    model: request.model ?? '',
    ...sizeFields(request.size ?? ''),
    ...qualityFields(request.quality ?? ''),
    ...reusedOptions(draft, request, provider ?? draft.provider),
  };
}

/** An earlier request's options and seed, as the form types them (the seed kept: locked). */
function reusedOptions(
  draft: ComposeDraft,
  request: GenerationRequest,
  provider: ProviderId,
): Pick<ComposeDraft, 'params' | 'seed' | 'seedLocked'> {
  const typed = Object.fromEntries(
    Object.entries(request.params ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const key = paramsKey(provider, request.model ?? '');
  return {
    params: { ...draft.params, [key]: typed },
    seed: request.seed === undefined ? '' : String(request.seed),
    seedLocked: request.seed !== undefined,
  };
}
