/**
 * The compose form's submit, which never blocks (the form stays usable while earlier submits are
 * in flight; new tasks go straight into the list), the service it sends to and the board its
 * images join. Part of the compose slice (compose-slice.ts).
 */
import type { StateCreator } from 'zustand';
import { demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { GenerationRequest } from '../../shared/service/wire';
import type { SubmitTarget } from '../../shared/domain/submit-target';
import type { TaskItem } from '../../shared/ipc/contract';
import { NO_KEY_SENTENCES } from '../../shared/i18n/errors/submit';
import { call, toApiError, type ApiError } from '../lib/api';
import { buildRequest, checkCount, checkSize } from '../lib/request-validation';
import type { AppState } from './app-state';
import { lacksKey, serviceKeyState } from '../lib/service-key-state';
import { withRecent } from './compose-memory';
import { composeBoardOf, composeErrors, composeTarget, defaultModelFor } from './compose-model';
import type { ComposeDraft, ComposeField } from './compose-draft';
import { draftParams, draftSeed } from './compose-params';
import { decimalSeparator } from '../i18n';

/** The order fields are checked (and focused) in. */
const COMPOSE_FIELDS: readonly ComposeField[] = ['prompt', 'model', 'size', 'quality', 'count'];

/**
 * The form takes the chosen service; the setting that remembers it is saved meanwhile (a failure
 * to save is said, the form keeps the choice).
 */
async function chooseService(
  get: () => AppState,
  set: (patch: Partial<AppState>) => void,
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
  if (get().settings === null || get().serviceKeys === null) await get().settingsLoad();
  return composeTarget(get(), provider);
}

/**
 * Sends `count` tasks of `request` to the form's service `provider`, into its board
 * ("Generate into": composeBoardOf), which main makes when the library has none.
 */
async function sendTasks(
  get: () => AppState,
  provider: ProviderId,
  request: GenerationRequest,
  count: number,
): Promise<TaskItem[]> {
  const target = await formTargetOf(get, provider);
  const board = composeBoardOf(get());
  const into = board === null ? {} : { board };
  const items = await call('tasks:submit', { request, target, count, ...into });
  // A board main made is listed from now on (the Board field, the gallery's boards).
  if (board !== null) void get().triageLoadLibrary();
  return items;
}

/** Main's "no key it may send there", for a service the page too knows has no key. */
function missingKeyRefusal(state: AppState, provider: ProviderId, error: ApiError): boolean {
  if (!NO_KEY_SENTENCES.has(error.sentenceKey ?? '') || demoStandsIn(provider)) return false;
  return lacksKey(serviceKeyState(state.serviceKeys?.[provider], false, provider));
}

/** The request the draft makes, with its model's options and seed (compose-params.ts). */
export function requestOf(draft: ComposeDraft): { request: GenerationRequest; count: number } {
  const size = draft.sizeCustom ? checkSize(draft.size) : null;
  const count = checkCount(draft.count);
  const { values } = draftParams(draft, decimalSeparator());
  const seed = draftSeed(draft);
  return {
    request: {
      ...buildRequest({
        prompt: draft.prompt.trim(),
        model: draft.model.trim(),
        size: size?.ok ? size.value : draft.size,
        quality: draft.quality.trim(),
      }),
      ...(Object.keys(values).length > 0 ? { params: values } : {}),
      ...('seed' in seed && seed.seed !== undefined ? { seed: seed.seed } : {}),
    },
    count: count.ok ? count.value : 1,
  };
}

/** Whether the model refuses an option or the seed as typed (the form names which, and why). */
function refusesOptions(draft: ComposeDraft): boolean {
  const { problems } = draftParams(draft, decimalSeparator());
  return Object.keys(problems).length > 0 || 'problem' in draftSeed(draft);
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
    // An unlocked seed was for that submit: the next one draws anew.
    seed: current.seedLocked || current.seed !== sent.seed ? current.seed : '',
  };
}

/** The first field (in the order they are checked) that refuses the draft, if any. */
function firstInvalid(draft: ComposeDraft): ComposeField | undefined {
  const errors = composeErrors(draft);
  return COMPOSE_FIELDS.find((name) => errors[name] !== undefined);
}

type Creator = StateCreator<AppState>;

/** The submit, its error dismissed, and the service the form's tasks go to. */
export function composeSubmitActions(
  set: Parameters<Creator>[0],
  get: Parameters<Creator>[1],
): Pick<
  AppState,
  'composeDismissError' | 'composeChooseService' | 'composeChooseBoard' | 'composeSubmit'
> {
  return {
    composeDismissError() {
      set({ composeSubmitError: null });
    },

    composeChooseService: (provider) => chooseService(get, set, provider),

    composeChooseBoard: (path) => set({ composeBoardChoice: { path } }),

    async composeSubmit() {
      if (get().composeTemplate) return get().composeTemplateRun(); // Main expands it.
      const draft = get().composeDraft;
      const field = firstInvalid(draft);
      // A refused option or seed is named under its own control (model-options.tsx).
      if (field || refusesOptions(draft)) {
        set({ composeAttempted: true });
        return field ? { ok: false, field } : { ok: false };
      }
      const { request, count } = requestOf(draft);
      set((state) => ({
        composePending: state.composePending + 1,
        composeSubmitError: null,
        composeAttempted: false,
      }));
      try {
        const items = await sendTasks(get, draft.provider, request, count);
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
  };
}
