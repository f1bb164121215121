/**
 * The compose form's draft actions: the draft as typed, defaults followed, an earlier request
 * reused, and a refused submit's draft brought back (with its banner). Part of the compose slice
 * (compose-slice.ts).
 */
import type { StateCreator } from 'zustand';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { TaskRefusal } from '../../shared/ipc/contract';
import type { AppState } from './app-state';
import { loadComposeMemory } from './compose-memory';
import { draftFromDefaults, reusedDraft } from './compose-model';
import type { ComposeDraft, ComposeRefusal } from './compose-draft';

type Creator = StateCreator<AppState>;

type Set = Parameters<Creator>[0];
type Get = Parameters<Creator>[1];

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

/** A refused submit: the banner counts it, what was sent comes back into the form. */
export function composeRefusalActions(
  set: Set,
  get: Get,
): Pick<AppState, 'composeApplyRefusal' | 'composeRestoreRefused' | 'composeDismissRefusal'> {
  return {
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
  };
}

/** The draft: restored at start, typed, following changed defaults, filled from a request. */
export function composeDraftActions(
  set: Set,
  get: Get,
): Pick<AppState, 'composeRestore' | 'composeSetDraft' | 'composeApplyDefaults' | 'reusePrompt'> {
  return {
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

    reusePrompt(request, provider, count, template) {
      set((state) => ({
        composeDraft: reusedDraft(state.composeDraft, request, provider, count),
        composeAttempted: false,
      }));
      // A task made from a template: "Run again with…" its template, values, mode and seed.
      if (template) get().reuseTemplate(template);
      else get().composeChooseTemplate(null);
    },
  };
}
