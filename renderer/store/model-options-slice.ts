/**
 * The models' options kept beside the shipped ones (`models:` channels): read from main when the
 * window starts, and again after "Refresh options", "Options from a file…", "Use none" or a model's first use,
 * then used by the form
 * as main uses them (shared/domain/model-param-schemas.ts), without a restart. The page names a
 * provider and a model only; main fetches, with the key it holds, and keeps what it read.
 */
import type { StateCreator } from 'zustand';
import { PUBLISHING_SERVICES } from '../../shared/domain/fetched-param-schema';
import { useParamSchemas } from '../../shared/domain/model-param-schemas';
import type { ProviderId } from '../../shared/domain/providers';
import type { Sentence } from '../../shared/i18n/sentence';
import type { RequestOutput } from '../../shared/ipc/contract';
import { ApiError, call } from '../lib/api';
import type { AppState } from './app-state';
import { paramsKey } from './compose-params';

type Kept = RequestOutput<'models:kept'>;

export interface ModelOptionsSlice {
  /** The kept schemas in use (bumped each time they are read, so the form shows them). */
  modelOptionsKept: Kept;
  /** The model whose options are being fetched (`paramsKey`), or null. */
  modelOptionsBusy: string | null;
  /** Why the last refresh of a model failed (its `paramsKey`), or null. */
  modelOptionsProblem: { readonly key: string; readonly problem: Sentence | ApiError } | null;
  /** The models whose first use asked for their options once already (never again this session). */
  modelOptionsAsked: ReadonlySet<string>;
  modelOptionsLoad(): Promise<void>;
  /** "Refresh options": fetches `model`'s options from its service; true when they were kept. */
  modelOptionsRefresh(provider: ProviderId, model: string): Promise<boolean>;
  /** "Options from a file…": main's open dialog, then main reads and keeps the file's options. */
  modelOptionsFromFile(provider: ProviderId, model: string): Promise<boolean>;
  /** A model's first use: its published options fetched once, quietly, when none are kept. */
  modelOptionsFirstUse(provider: ProviderId, model: string): void;
  /** "Use none": main forgets the options a file gave `model`. */
  modelOptionsForget(provider: ProviderId, model: string): Promise<void>;
}

type Creator = StateCreator<AppState, [], [], ModelOptionsSlice>;

/** "Use none": main forgets the options a file gave `model`; a refusal is kept as its problem. */
async function forgetFileOptions(
  set: Parameters<Creator>[0],
  use: (kept: Kept) => void,
  provider: ProviderId,
  model: string,
): Promise<void> {
  set({ modelOptionsProblem: null });
  try {
    use(await call('models:forget', { provider, model: model.trim() }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    set({ modelOptionsProblem: { key: paramsKey(provider, model), problem: error } });
  }
}

export const createModelOptionsSlice: Creator = (set, get) => {
  const use = (kept: Kept) => {
    useParamSchemas(kept);
    set({ modelOptionsKept: kept });
  };
  /** One ask of main for `model`'s options (a refresh, a file): busy meanwhile, its sentence kept. */
  const ask = async (
    channel: 'models:refresh' | 'models:fromFile',
    provider: ProviderId,
    model: string,
  ): Promise<boolean> => {
    const key = paramsKey(provider, model);
    set({ modelOptionsBusy: key, modelOptionsProblem: null });
    try {
      const answer = await call(channel, { provider, model: model.trim() });
      use(answer.kept);
      const problem = answer.ok ? null : (answer.problem ?? null);
      set({ modelOptionsProblem: problem === null ? null : { key, problem } });
      return answer.ok;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      set({ modelOptionsProblem: { key, problem: error } });
      return false;
    } finally {
      set({ modelOptionsBusy: null });
    }
  };
  return {
    modelOptionsKept: [],
    modelOptionsBusy: null,
    modelOptionsProblem: null,
    modelOptionsAsked: new Set(),
    async modelOptionsLoad() {
      use(await call('models:kept'));
    },
    modelOptionsRefresh: (provider, model) => ask('models:refresh', provider, model),
    modelOptionsFromFile: (provider, model) => ask('models:fromFile', provider, model),
    modelOptionsForget: (provider, model) => forgetFileOptions(set, use, provider, model),
    modelOptionsFirstUse(provider, model) {
      const key = paramsKey(provider, model);
      const state = get();
      if (
        !PUBLISHING_SERVICES.has(provider) ||
        model.trim() === '' ||
        state.modelOptionsAsked.has(key)
      )
        return;
      if (state.modelOptionsKept.some((kept) => paramsKey(kept.provider, kept.model) === key))
        return;
      set({ modelOptionsAsked: new Set([...state.modelOptionsAsked, key]) });
      void call('models:refresh', { provider, model: model.trim() }).then(
        (answer) => use(answer.kept),
        () => undefined,
      );
    },
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends ModelOptionsSlice {}
}
