/**
 * The compose form: the draft as typed, its validation, and the submit that never blocks (the
 * form stays usable while earlier submits are in flight; new tasks go straight into the list).
 */
import type { StateCreator } from 'zustand';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { TaskItem, TaskRefusal } from '../../shared/ipc/contract';
import type { GenerationRequest } from '../../shared/service/wire';
import { formTarget, type SubmitTarget } from '../../shared/domain/submit-target';
import { NO_KEY_SENTENCES } from '../../shared/i18n/errors/submit';
import type { MessageKey } from '../i18n';
import { call, toApiError, type ApiError } from '../lib/api';
import {
  QUALITY_PRESETS,
  SIZE_PRESETS,
  buildRequest,
  checkCount,
  checkModel,
  checkPrompt,
  checkQuality,
  checkSize,
} from '../lib/request-validation';
import type { AppState } from './app-state';
import { lacksKey, serviceKeyState } from '../lib/service-key-state';
import { loadComposeMemory, withRecent } from './compose-memory';

/**
 * The form as typed. `provider` is the service its tasks go to (carried with the submit, never
 * read from the settings when it is sent); `size`/`quality` hold a preset, '' (service default)
 * or the custom text.
 */
export interface ComposeDraft {
  readonly provider: ProviderId;
  readonly prompt: string;
  readonly model: string;
  readonly size: string;
  readonly sizeCustom: boolean;
  readonly quality: string;
  readonly qualityCustom: boolean;
  readonly count: string;
}

export type ComposeField = 'prompt' | 'model' | 'size' | 'quality' | 'count';
export type ComposeErrors = Partial<Record<ComposeField, MessageKey>>;

/** The order fields are checked (and focused) in. */
const COMPOSE_FIELDS: readonly ComposeField[] = ['prompt', 'model', 'size', 'quality', 'count'];

export type ComposeOutcome =
  | { readonly ok: true; readonly items: TaskItem[] }
  | {
      readonly ok: false;
      readonly field?: ComposeField;
      readonly error?: ApiError;
      /** Main had no key for the chosen service, which the form's missing-key notice names. */
      readonly missingKey?: boolean;
    };

/** A submit refused for the account (one banner for every such attempt until dismissed). */
export interface ComposeRefusal {
  readonly kind: TaskRefusal['kind'];
  /** The service that refused: the banner shows only while the form has that service. */
  readonly provider: ProviderId;
  /** Attempts refused since the banner appeared. */
  readonly count: number;
}

export interface ComposeSlice {
  composeDraft: ComposeDraft;
  /** The account-level refusal to show in a banner, or null. */
  composeRefusal: ComposeRefusal | null;
  /** The last submit the service has not accepted or refused yet: its draft comes back if refused. */
  composeLastSent: { readonly draft: ComposeDraft; readonly localIds: readonly string[] } | null;
  /** A submit was refused for the account: the banner counts it, the draft comes back. */
  composeApplyRefusal(refusal: TaskRefusal): void;
  /**
   * A task of the last submit was refused (`submit_failed`): what was sent comes back into the
   * form, unless the user has already typed something else there.
   */
  composeRestoreRefused(localId: string): void;
  composeDismissRefusal(): void;
  /** True after a submit was refused for an invalid field, until the next good submit. */
  composeAttempted: boolean;
  composeSubmitError: ApiError | null;
  /** Submits sent and not answered yet (the form stays usable meanwhile). */
  composePending: number;
  /** Models used in this session, most recent first (offered before older ones). */
  composeModels: string[];
  /** Prompts sent lately, newest first (Up in an empty prompt recalls them; kept across restarts). */
  composeRecent: string[];
  /** Brings back the draft and the recent prompts the last run left (once, at start). */
  composeRestore(): void;
  composeSetDraft(patch: Partial<ComposeDraft>): void;
  /** Follows changed defaults in fields the user has not changed from the old default. */
  composeApplyDefaults(next: Settings, previous: Settings | null): void;
  /**
   * Fills the form with an earlier request (gallery's "use this prompt again"), and with its
   * service when given (a model is a name on one service) and a batch's number of tasks.
   */
  reusePrompt(request: GenerationRequest, provider?: ProviderId, count?: number): void;
  composeDismissError(): void;
  composeSubmit(): Promise<ComposeOutcome>;
  /**
   * Chooses the service the form's tasks go to, at once; the model follows the service's default
   * unless the user typed another. The choice is also remembered as a setting (kept across
   * restarts), in the background: a submit never waits for it, nor reads it.
   */
  composeChooseService(provider: ProviderId): Promise<void>;
}

/**
 * The form takes the chosen service; the setting that remembers it is saved meanwhile (a failure
 * to save is said, the form keeps the choice).
 */
async function chooseService(
  get: () => AppState,
  set: (patch: Partial<ComposeSlice>) => void,
  provider: ProviderId,
): Promise<void> {
  const { composeDraft: draft, settings } = get();
  const defaults = settings ?? DEFAULT_SETTINGS;
  const followModel = draft.model === defaultModelFor(defaults, draft.provider);
  // Why the last submit failed is not about this service (a refusal banner names its service).
  const stale = draft.provider === provider ? {} : { composeSubmitError: null };
  set({
    ...stale,
    composeDraft: {
      ...draft,
      provider,
      model: followModel ? defaultModelFor(defaults, provider) : draft.model,
    },
  });
  if (settings?.provider === provider) return;
  try {
    await get().settingsUpdate({ provider });
  } catch (error) {
    get().showError(error);
  }
}

/**
 * Where the form's tasks go: its service, at the address Settings gives it (shared/domain/
 * submit-target.ts). Settings and the key's status are read first when they have not come yet,
 * so an early submit never goes to the demo by mistake.
 */
async function formTargetOf(get: () => AppState, provider: ProviderId): Promise<SubmitTarget> {
  if (get().settings === null || get().keyStatus === null) await get().settingsLoad();
  return composeTarget(get(), provider);
}

/** Where a task of the form's service `provider` goes, as `state` has Settings and the key now. */
export function composeTarget(
  state: Pick<AppState, 'settings' | 'keyStatus'>,
  provider: ProviderId,
): SubmitTarget {
  const ready = state.keyStatus?.state === 'ready';
  return formTarget(state.settings ?? DEFAULT_SETTINGS, provider, ready);
}

/** The refusal banner after `refusal`: one more of the same, or a new one. */
function counted(state: AppState, refusal: TaskRefusal): ComposeRefusal {
  // The service of the submit refused (the form may have another one by now).
  const sent = state.composeLastSent;
  const provider = sent?.localIds.includes(refusal.localId)
    ? sent.draft.provider
    : state.composeDraft.provider;
  const before = state.composeRefusal;
  const again = before?.kind === refusal.kind && before.provider === provider;
  return { kind: refusal.kind, provider, count: again ? before.count + 1 : 1 };
}

/** Main's "no key it may send there", for a service the page too knows has no key. */
function missingKeyRefusal(state: AppState, provider: ProviderId, error: ApiError): boolean {
  if (!NO_KEY_SENTENCES.has(error.sentenceKey ?? '') || provider === 'pictor') return false;
  return lacksKey(serviceKeyState(state.serviceKeys?.[provider]));
}

function sizeFields(size: string): Pick<ComposeDraft, 'size' | 'sizeCustom'> {
  const preset = size === '' || (SIZE_PRESETS as readonly string[]).includes(size);
  return { size, sizeCustom: !preset };
}

function qualityFields(quality: string): Pick<ComposeDraft, 'quality' | 'qualityCustom'> {
  const preset = quality === '' || (QUALITY_PRESETS as readonly string[]).includes(quality);
  return { quality, qualityCustom: !preset };
}

/** The model a task of `provider` asks for: Settings' default (today's contract), or its own. */
function defaultModelFor(settings: Settings, provider: ProviderId): string {
  return provider === 'pictor' ? settings.defaultModel : (PROVIDERS[provider].defaultModel ?? '');
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

function requestOf(draft: ComposeDraft): { request: GenerationRequest; count: number } {
  const size = draft.sizeCustom ? checkSize(draft.size) : null;
  const count = checkCount(draft.count);
  return {
    request: buildRequest({
      prompt: draft.prompt.trim(),
      model: draft.model.trim(),
      size: size?.ok ? size.value : draft.size,
      quality: draft.quality.trim(),
    }),
    count: count.ok ? count.value : 1,
  };
}

/** `draft` filled with an earlier request, and with its service when known. */
function reusedDraft(
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
  };
}

/**
 * The draft once `sent` was accepted: the prompt is cleared and the count goes back to the
 * default, so "Generate 3" once does not silently make 3 of every later prompt. A field the user
 * changed meanwhile (the next prompt started, another count typed) is kept.
 */
function afterSubmit(current: ComposeDraft, sent: ComposeDraft, settings: Settings): ComposeDraft {
  return {
    ...current,
    prompt: current.prompt === sent.prompt ? '' : current.prompt,
    count: current.count === sent.count ? String(settings.defaultCount) : current.count,
  };
}

export const createComposeSlice: StateCreator<AppState, [], [], ComposeSlice> = (set, get) => ({
  composeDraft: { prompt: '', ...draftFromDefaults(DEFAULT_SETTINGS) },
  composeRefusal: null,
  composeLastSent: null,

  composeApplyRefusal(refusal) {
    set((state) => ({ composeRefusal: counted(state, refusal) }));
    get().composeRestoreRefused(refusal.localId);
  },

  composeRestoreRefused(localId) {
    set((state) => {
      const sent = state.composeLastSent;
      if (!sent?.localIds.includes(localId)) return {};
      // Something new typed meanwhile is the user's: it stays.
      if (state.composeDraft.prompt.trim() !== '') return { composeLastSent: null };
      return { composeDraft: sent.draft, composeLastSent: null, composeAttempted: false };
    });
  },

  composeDismissRefusal: () => set({ composeRefusal: null }),
  composeAttempted: false,
  composeSubmitError: null,
  composePending: 0,
  composeModels: [],
  composeRecent: [],

  composeRestore() {
    const { draft, recent } = loadComposeMemory();
    set((state) => ({
      // The service is not part of what is kept: it is the setting's (composeApplyDefaults).
      composeDraft: draft ? { ...state.composeDraft, ...draft } : state.composeDraft,
      composeRecent: recent,
    }));
  },

  composeSetDraft(patch) {
    set((state) => ({ composeDraft: { ...state.composeDraft, ...patch } }));
  },

  composeApplyDefaults(next, previous) {
    const before = draftFromDefaults(previous ?? DEFAULT_SETTINGS);
    const after = draftFromDefaults(next);
    const draft = get().composeDraft;
    const patch: { -readonly [K in keyof ComposeDraft]?: ComposeDraft[K] } = {};
    if (draft.provider === before.provider) patch.provider = after.provider;
    if (draft.model === before.model) patch.model = after.model;
    if (draft.size === before.size && draft.sizeCustom === before.sizeCustom) {
      Object.assign(patch, { size: after.size, sizeCustom: after.sizeCustom });
    }
    if (draft.quality === before.quality && draft.qualityCustom === before.qualityCustom) {
      Object.assign(patch, { quality: after.quality, qualityCustom: after.qualityCustom });
    }
    if (draft.count === before.count) patch.count = after.count;
    get().composeSetDraft(patch);
  },

  reusePrompt(request, provider, count) {
    set((state) => ({
      composeDraft: reusedDraft(state.composeDraft, request, provider, count),
      composeAttempted: false,
    }));
  },

  composeDismissError() {
    set({ composeSubmitError: null });
  },

  composeChooseService: (provider) => chooseService(get, set, provider),

  async composeSubmit() {
    const draft = get().composeDraft;
    const errors = composeErrors(draft);
    const field = COMPOSE_FIELDS.find((name) => errors[name] !== undefined);
    if (field) {
      set({ composeAttempted: true });
      return { ok: false, field };
    }
    const { request, count } = requestOf(draft);
    set((state) => ({
      composePending: state.composePending + 1,
      composeSubmitError: null,
      composeAttempted: false,
    }));
    try {
      const target = await formTargetOf(get, draft.provider);
      const items = await call('tasks:submit', { request, target, count });
      get().tasksInsert(items);
      // Refused already (no key, or the answer came first): what was typed stays in the form.
      const refused = items.every((item) => item.record.status === 'submit_failed');
      set((state) => ({
        composeRecent: withRecent(state.composeRecent, request.prompt),
        composeModels: request.model
          ? [request.model, ...state.composeModels.filter((model) => model !== request.model)]
          : state.composeModels,
        ...(refused
          ? {}
          : {
              composeDraft: afterSubmit(
                state.composeDraft,
                draft,
                state.settings ?? DEFAULT_SETTINGS,
              ),
              composeLastSent: { draft, localIds: items.map((item) => item.record.localId) },
            }),
      }));
      return { ok: true, items };
    } catch (error) {
      const apiError = toApiError(error);
      // No key for the chosen service: the notice under the form names it, with its link.
      const missingKey = missingKeyRefusal(get(), draft.provider, apiError);
      if (missingKey) return { ok: false, error: apiError, missingKey };
      set({ composeSubmitError: apiError });
      return { ok: false, error: apiError };
    } finally {
      set((state) => ({ composePending: state.composePending - 1 }));
    }
  },
});
