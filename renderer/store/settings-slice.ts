/** Settings and the key's status: loaded at start, changed through the main process only. */
import type { StateCreator } from 'zustand';
import type { KeyStatus, KeyStatuses } from '../../shared/domain/key-status';
import type { ProviderId } from '../../shared/domain/providers';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import type {
  EventPayload,
  FolderChange,
  FolderChoice,
  RequestOutput,
} from '../../shared/ipc/contract';
import { call, toApiError, type ApiError } from '../lib/api';
import { nameOwnService } from '../lib/service-label';
import type { AppState } from './app-state';

/**
 * Settings › Gallery folder › Change: the folder main's dialog returned and
 * what it holds (`ask`), the move or open under way with its progress (`working`), then what
 * happened (`done`) or why it could not (`failed`).
 */
export type FolderChangeState =
  | { readonly step: 'idle' }
  | { readonly step: 'ask'; readonly choice: FolderChoice }
  | {
      readonly step: 'working';
      readonly choice: FolderChoice;
      readonly action: 'move' | 'open';
      readonly progress: EventPayload<'library:progress'> | null;
      readonly cancelling: boolean;
    }
  | { readonly step: 'done'; readonly result: FolderChange }
  | { readonly step: 'failed'; readonly error: ApiError };

export interface SettingsSlice {
  folderChange: FolderChangeState;
  /** Opens main's folder dialog; a chosen folder leads to the question. */
  folderPick(): Promise<void>;
  /** Moves the library to the chosen folder, or opens the library there. */
  folderApply(action: 'move' | 'open'): Promise<void>;
  /** Asks main to cancel the move under way. */
  folderCancel(): Promise<void>;
  folderProgress(progress: EventPayload<'library:progress'>): void;
  /** Closes the question (main then ends its folder ticket) or the report. */
  folderDismiss(): void;
  /** `null` until the first answer. */
  settings: Settings | null;
  settingsLoad(): Promise<void>;
  /** Main's settings as they are, without taking them (the first paint's language); null: no answer. */
  settingsRead(): Promise<Settings | null>;
  /**
   * Saves a change, shown at once (`settings` carries it while main has not answered); throws
   * ApiError with the reason when the main process refuses it, and the change is taken off.
   */
  settingsUpdate(patch: SettingsPatch): Promise<Settings>;
  /** Takes settings from the main process (an answer or a `settings:changed` event). */
  settingsApply(settings: Settings): void;
  /** Every service's key status (`null` until the first answer). */
  serviceKeys: KeyStatuses | null;
  /**
   * Save: main checks the key with its service, then stores it (never kept in the store); the
   * status it answers is applied. `skipCheck`: the user chose to save it without checking.
   * Throws ApiError.
   */
  serviceKeySave(provider: ProviderId, key: string, saving: KeySaving): Promise<KeySave>;
  serviceKeyClear(provider: ProviderId): Promise<KeyStatus>;
  serviceKeyApply(provider: ProviderId, status: KeyStatus): void;
  /**
   * Asks main to test a service besides today's contract at its saved address with `key` (the
   * key being entered), or else its stored key. Nothing is created there.
   */
  serviceKeyTest(provider: ProviderId, key?: string): Promise<ConnectionReport>;
  /** The "Connect a service" panel is open (the first-run banner's, or Settings'). */
  connectOpen: boolean;
  connectShow(open: boolean): void;
  /** Asks main to test `baseUrl` with `key` (the key being entered), or else its stored key. */
  serviceTest(baseUrl: string, key: string): Promise<ConnectionReport>;
}

/** What "Test connection" heard from the service. */
export type ConnectionReport = RequestOutput<'service:testConnection'>;

/** What Save did with a key (shared/ipc/key-contract.ts `keySaveSchema`). */
export type KeySave = RequestOutput<'keys:set'>;

/** How a key is saved: weakly once the user agreed; unchecked once the user said so. */
export interface KeySaving {
  readonly allowWeakStorage: boolean;
  readonly skipCheck: boolean;
}

/** The request of each answer to the folder question. */
const FOLDER_CHANNELS = { move: 'library:move', open: 'library:open' } as const;

type SliceArgs = Parameters<StateCreator<AppState, [], [], SettingsSlice>>;

/**
 * Closes the folder question or report (never a move under way). A question turned down is told
 * to main, which ends its folder ticket: nothing can spend it on a folder the user declined.
 */
function dismissFolder(get: SliceArgs[1], set: SliceArgs[0]): void {
  const { step } = get().folderChange;
  if (step !== 'working') set({ folderChange: { step: 'idle' } });
  if (step === 'ask') void call('library:cancel').catch(get().showError);
}

/** Every service's key: stored, removed and told through main, never kept in the store. */
function serviceKeyActions(
  set: SliceArgs[0],
  get: SliceArgs[1],
): Pick<
  SettingsSlice,
  'serviceKeys' | 'serviceKeySave' | 'serviceKeyClear' | 'serviceKeyApply' | 'serviceKeyTest'
> {
  return {
    serviceKeys: null,
    async serviceKeySave(provider, key, { allowWeakStorage, skipCheck }) {
      const saved = await call('keys:set', {
        provider,
        key,
        allowWeakStorage,
        ...(skipCheck ? { skipCheck } : {}),
      });
      if ('status' in saved) get().serviceKeyApply(provider, saved.status);
      return saved;
    },
    async serviceKeyClear(provider) {
      const status = await call('keys:clear', { provider });
      get().serviceKeyApply(provider, status);
      return status;
    },
    serviceKeyTest(provider, key = '') {
      const entered = key.trim();
      return call('service:testService', { provider, ...(entered === '' ? {} : { key: entered }) });
    },
    serviceKeyApply(provider, status) {
      set((state) => ({
        ...(state.serviceKeys ? { serviceKeys: { ...state.serviceKeys, [provider]: status } } : {}),
      }));
    },
  };
}

/** Connecting a service: the panel, the address as typed in Settings, and its test. */
function connectionActions(
  set: SliceArgs[0],
): Pick<SettingsSlice, 'connectOpen' | 'connectShow' | 'serviceTest'> {
  return {
    connectOpen: false,
    connectShow(connectOpen) {
      set({ connectOpen });
    },
    serviceTest(baseUrl, key) {
      const entered = key.trim();
      return call('service:testConnection', {
        baseUrl: baseUrl.trim(),
        ...(entered === '' ? {} : { key: entered }),
      });
    },
  };
}

/**
 * The settings the page shows: main's last word with the changes still on their way to it laid
 * over, in the order they were made. A choice (a radio, a checkbox) shows at once, not one IPC
 * round trip later (a controlled control held at main's value meanwhile puts the old choice back
 * under the pointer); a change main refuses is taken off again, and an answer or a
 * `settings:changed` event that arrives meanwhile does not undo a later change still pending.
 * The compose form follows main's word only: a change shown and then refused never moved it.
 */
function settingsView(get: SliceArgs[1], set: SliceArgs[0]) {
  let saved: Settings | null = null;
  let pending: Array<{ readonly patch: SettingsPatch }> = [];
  const show = () => {
    if (!saved) return;
    set({
      settings: pending.reduce<Settings>((shown, { patch }) => ({ ...shown, ...patch }), saved),
    });
  };
  const take = (settings: Settings) => {
    const before = saved;
    saved = settings;
    // The window names the user's own service by main's word, not by a change still pending.
    nameOwnService(settings);
    show();
    get().composeApplyDefaults(settings, before);
  };
  return {
    take,
    async change(patch: SettingsPatch): Promise<Settings> {
      const entry = { patch };
      const settle = () => (pending = pending.filter((other) => other !== entry));
      pending = [...pending, entry];
      show();
      try {
        const settings = await call('settings:update', patch);
        settle();
        take(settings);
        return settings;
      } catch (error) {
        settle();
        show();
        throw error;
      }
    },
  };
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => {
  const view = settingsView(get, set);
  return {
    settings: null,
    folderChange: { step: 'idle' },

    async folderPick() {
      try {
        const { choice } = await call('library:pick');
        set({ folderChange: choice ? { step: 'ask', choice } : { step: 'idle' } });
      } catch (error) {
        set({ folderChange: { step: 'failed', error: toApiError(error) } });
      }
    },

    async folderApply(action) {
      const current = get().folderChange;
      if (current.step !== 'ask') return;
      const { choice } = current;
      set({ folderChange: { step: 'working', choice, action, progress: null, cancelling: false } });
      try {
        const result = await call(FOLDER_CHANNELS[action], { ticket: choice.ticket });
        set({ folderChange: { step: 'done', result } });
      } catch (error) {
        set({ folderChange: { step: 'failed', error: toApiError(error) } });
      }
    },

    async folderCancel() {
      const current = get().folderChange;
      if (current.step !== 'working' || current.action !== 'move') return;
      set({ folderChange: { ...current, cancelling: true } });
      await call('library:cancel').catch(get().showError);
    },

    folderProgress(progress) {
      const current = get().folderChange;
      if (current.step === 'working') set({ folderChange: { ...current, progress } });
    },

    folderDismiss() {
      dismissFolder(get, set);
    },

    async settingsLoad() {
      // Independent: a key store that cannot be read must not keep the settings away.
      await Promise.all([
        call('settings:get').then(get().settingsApply, get().showError),
        call('keys:getStatuses').then((serviceKeys) => set({ serviceKeys }), get().showError),
      ]);
    },

    settingsRead: () => call('settings:get').catch(() => null),

    settingsUpdate: (patch) => view.change(patch),

    settingsApply(settings) {
      view.take(settings);
    },

    ...serviceKeyActions(set, get),

    ...connectionActions(set),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends SettingsSlice {}
}
