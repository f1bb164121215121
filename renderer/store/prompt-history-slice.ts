/**
 * The prompt history picker (features/compose/prompt-history-picker.tsx): whether it is open, what
 * its search holds and the prompts main answered for it (pinned first, then newest), pins and
 * Forget through main, and the chosen prompt put into the compose form. The prompts are main's
 * (core/history/prompt-history.ts, shared with the CLI); the form's own Up/Down recall
 * (compose-memory.ts) stays as it is.
 */
import type { StateCreator } from 'zustand';
import {
  MAX_PROMPT_ENTRIES,
  MAX_PROMPT_QUERY,
  type PromptEntryOutput,
} from '../../shared/ipc/prompt-contract';
import { ApiError, call } from '../lib/api';
import type { AppState } from './app-state';

export interface PromptHistorySlice {
  promptHistoryOpen: boolean;
  promptHistoryQuery: string;
  /** The prompts main answered for the query shown, pinned first, then newest. */
  promptHistoryEntries: readonly PromptEntryOutput[];
  /** Main's answers for the query shown have arrived. */
  promptHistoryLoaded: boolean;
  /** What the last request refused (a pin past the limit), shown in the picker. */
  promptHistoryError: ApiError | null;
  /** Opens the picker over the Tasks screen (where the form is), its search empty, or closes it. */
  promptHistoryShow(open: boolean): void;
  /** Asks main for the prompts holding `query`; an answer to an older query is dropped. */
  promptHistorySearch(query: string): Promise<void>;
  promptHistoryPin(prompt: string, pinned: boolean): Promise<void>;
  promptHistoryForget(prompt: string): Promise<void>;
  /** Puts `prompt` into the form's prompt box (the rest of the draft stays), closes, focuses it. */
  promptHistoryUse(prompt: string): void;
}

type Creator = StateCreator<AppState, [], [], PromptHistorySlice>;

export const createPromptHistorySlice: Creator = (set, get) => {
  let asked = 0;
  const reload = () => get().promptHistorySearch(get().promptHistoryQuery);
  /** A pin or a Forget, then the list again; a refusal stays in the picker. */
  const change = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
      set({ promptHistoryError: null });
    } catch (error) {
      set({ promptHistoryError: error instanceof ApiError ? error : null });
      if (!(error instanceof ApiError)) get().showError(error);
    }
    await reload();
  };
  return {
    promptHistoryOpen: false,
    promptHistoryQuery: '',
    promptHistoryEntries: [],
    promptHistoryLoaded: false,
    promptHistoryError: null,
    promptHistoryShow(open) {
      if (!open) return set({ promptHistoryOpen: false, promptHistoryError: null });
      if (get().promptHistoryOpen) return;
      get().setView('tasks');
      set({ promptHistoryOpen: true, promptHistoryQuery: '', promptHistoryError: null });
      void get().promptHistorySearch('');
    },
    async promptHistorySearch(query) {
      const mine = ++asked;
      const text = query.slice(0, MAX_PROMPT_QUERY);
      set({ promptHistoryQuery: text, promptHistoryLoaded: false });
      try {
        const { entries } = await call('prompts:history', {
          query: text,
          limit: MAX_PROMPT_ENTRIES,
        });
        if (mine === asked) set({ promptHistoryEntries: entries, promptHistoryLoaded: true });
      } catch (error) {
        if (mine !== asked) return;
        set({ promptHistoryEntries: [], promptHistoryLoaded: true });
        get().showError(error);
      }
    },
    promptHistoryPin: (prompt, pinned) => change(() => call('prompts:pin', { prompt, pinned })),
    promptHistoryForget: (prompt) => change(() => call('prompts:forget', { prompt })),
    promptHistoryUse(prompt) {
      get().composeSetDraft({ prompt });
      set({ promptHistoryOpen: false, promptHistoryError: null });
      get().requestFocus('prompt');
    },
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends PromptHistorySlice {}
}
