/** IPC handlers of the `settings:` channels. */
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import type { HandlersOf } from './ipc-main-bridge';

export interface SettingsHandlerDeps {
  readonly get: () => Settings;
  /** May ask the user first (a service address on another origin), hence asynchronous. */
  readonly update: (patch: SettingsPatch) => Settings | Promise<Settings>;
}

export function settingsHandlers(deps: SettingsHandlerDeps): HandlersOf<'settings'> {
  return {
    'settings:get': () => deps.get(),
    'settings:update': (patch) => deps.update(patch),
  };
}
