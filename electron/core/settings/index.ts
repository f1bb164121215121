/**
 * The settings module (electron/core/settings/), its face: the one file other modules and the
 * fronts import from it. The app's settings.
 */
export { SettingsError, applySettingsPatch } from './settings-patch';
export { type SettingsProblem, SettingsService } from './settings-service';
export type { WindowBounds } from './window-bounds';
