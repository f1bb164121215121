/**
 * The settings module's face (electron/core/settings/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The app's settings.
 */
export { SettingsError, applySettingsPatch } from './settings-patch';
export { EditSettings } from './edit-settings';
export { type SettingsProblem, SettingsService } from './settings-service';
export type { WindowBounds } from './window-bounds';
