/**
 * The compose form: the draft as typed, its validation, and the submit that never blocks (the
 * form stays usable while earlier submits are in flight; new tasks go straight into the list).
 */
import type { StateCreator } from 'zustand';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { EventPayload, TaskItem } from '../../shared/ipc/contract';
import type { GenerationRequest } from '../../shared/service/wire';
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
import { loadComposeMemory, withRecent } from './compose-memory';

/** The form as typed. `size`/`quality` hold a preset, '' (service default) or the custom text. */
export interface ComposeDraft {
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
  | { readonly ok: false; readonly field?: ComposeField; readonly error?: ApiError };

/** A submit refused for the account (one banner for every such attempt until dismissed). */
export interface ComposeRefusal {
  readonly kind: EventPayload<'task:refused'>['kind'];
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
  composeApplyRefusal(refusal: EventPayload<'task:refused'>): void;
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
  /** Fills the form with an earlier request (gallery's "use this prompt again"). */
  reusePrompt(request: GenerationRequest): void;
  composeDismissError(): void;
  composeSubmit(): Promise<ComposeOutcome>;
  /**
   * Chooses the service new tasks go to (a setting, so it is kept across restarts); the model
   * follows the service's default unless the user typed another. A submit waits for it.
   */
  composeChooseService(provider: ProviderId): Promise<void>;
}

/** The service change on its way to main: a submit waits for it, so it goes where chosen. */
let serviceChange: Promise<unknown> = Promise.resolve();

/** Saves the chosen service (settings:update); the model follows through composeApplyDefaults. */
async function chooseService(get: () => AppState, provider: ProviderId): Promise<void> {
  const change = get().settingsUpdate({ provider });
  serviceChange = change.catch(() => undefined);
  try {
    await change;
  } catch (error) {
    get().showError(error);
  }
}

function sizeFields(size: string): Pick<ComposeDraft, 'size' | 'sizeCustom'> {
  const preset = size === '' || (SIZE_PRESETS as readonly string[]).includes(size);
  return { size, sizeCustom: !preset };
}

function qualityFields(quality: string): Pick<ComposeDraft, 'quality' | 'qualityCustom'> {
  const preset = quality === '' || (QUALITY_PRESETS as readonly string[]).includes(quality);
  return { quality, qualityCustom: !preset };
}

/** The model a new task asks for: the Settings default for today's contract, else the provider's. */
function defaultModelFor(settings: Settings): string {
  const provider = settings.provider ?? 'pictor';
  return provider === 'pictor' ? settings.defaultModel : (PROVIDERS[provider].defaultModel ?? '');
}

/** The draft fields a set of defaults gives. */
export function draftFromDefaults(settings: Settings): Omit<ComposeDraft, 'prompt'> {
  return {
    model: defaultModelFor(settings),
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
    set((state) => ({
      composeRefusal: {
        kind: refusal.kind,
        count: state.composeRefusal?.kind === refusal.kind ? state.composeRefusal.count + 1 : 1,
      },
    }));
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
      composeDraft: draft ?? state.composeDraft,
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

  reusePrompt(request) {
    set((state) => ({
      composeDraft: {
        ...state.composeDraft,
        prompt: request.prompt,
        model: request.model ?? '',
        ...sizeFields(request.size ?? ''),
        ...qualityFields(request.quality ?? ''),
      },
      composeAttempted: false,
    }));
  },

  composeDismissError() {
    set({ composeSubmitError: null });
  },

  composeChooseService: (provider) => chooseService(get, provider),

  async composeSubmit() {
    await serviceChange;
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
      const items = await call('tasks:submit', { request, count });
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
      set({ composeSubmitError: apiError });
      return { ok: false, error: apiError };
    } finally {
      set((state) => ({ composePending: state.composePending - 1 }));
    }
  },
});
