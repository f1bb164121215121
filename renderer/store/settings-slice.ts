/** Settings and the key's status: loaded at start, changed through the main process only. */
import type { StateCreator } from 'zustand';
import type { KeyStatus } from '../../shared/domain/key-status';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import { call } from '../lib/api';
import type { AppState } from './app-state';

export interface SettingsSlice {
  /** `null` until the first answer. */
  settings: Settings | null;
  keyStatus: KeyStatus | null;
  settingsLoad(): Promise<void>;
  /** Saves a change; throws ApiError with the reason when the main process refuses it. */
  settingsUpdate(patch: SettingsPatch): Promise<Settings>;
  /** Takes settings from the main process (an answer or a `settings:changed` event). */
  settingsApply(settings: Settings): void;
  /** Stores a key (never kept in the store); throws ApiError. */
  keySet(key: string, allowWeakStorage: boolean): Promise<KeyStatus>;
  keyClear(): Promise<KeyStatus>;
  keyApply(status: KeyStatus): void;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => ({
  settings: null,
  keyStatus: null,

  async settingsLoad() {
    // Independent: a key store that cannot be read must not keep the settings away.
    await Promise.all([
      call('settings:get').then(get().settingsApply, get().showError),
      call('key:getStatus').then(get().keyApply, get().showError),
    ]);
  },

  async settingsUpdate(patch) {
    const settings = await call('settings:update', patch);
    get().settingsApply(settings);
    return settings;
  },

  settingsApply(settings) {
    const previous = get().settings;
    set({ settings });
    get().composeApplyDefaults(settings, previous);
  },

  async keySet(key, allowWeakStorage) {
    const status = await call('key:set', { key, allowWeakStorage });
    get().keyApply(status);
    return status;
  },

  async keyClear() {
    const status = await call('key:clear');
    get().keyApply(status);
    return status;
  },

  keyApply(keyStatus) {
    set({ keyStatus });
  },
});
