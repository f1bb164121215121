/**
 * One writer's change applied to the settings as the file holds them now. The app and any number
 * of `pictor` commands write one settings.json, each having read it at its own time: a writer
 * that wrote its whole copy wrote back, unchanged, what it had read before another process's
 * change (a consent given by a command lost at the app's next change of theme). So a change is
 * applied to the file as it is at the moment of writing (read again holding its lock), and only
 * the settings that change alters are written; every other value in the file stays as written,
 * whoever wrote it, a newer Pictor's settings this one does not know among them.
 */
import type { Settings } from '../../../shared/domain/settings';
import { SETTING_NAMES, type SettingName } from './settings-fields';
import { migrateStoredSettings } from './settings-migration';
import { withNewerParts } from './settings-newer';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `patch`, made by a writer that read `base`, as a change of `fresh` (the file now). A list of
 * consents from the page names the whole list as the page saw it: what it adds and what it takes
 * out of `base` is applied to `fresh`'s list, so a consent another process gave meanwhile stays.
 * A list the patch schema would refuse (a service named twice, not a list) is left as given, for
 * the check to refuse. Service addresses need nothing: a patch names only those it changes.
 */
export function rebasePatch(patch: unknown, base: Settings, fresh: Settings): unknown {
  if (!isRecord(patch) || !Array.isArray(patch.publicUploadConsent)) return patch;
  const given: unknown[] = patch.publicUploadConsent;
  if (new Set(given).size !== given.length) return patch;
  const before: readonly unknown[] = base.publicUploadConsent;
  const removed = new Set(before.filter((provider) => !given.includes(provider)));
  const kept: unknown[] = fresh.publicUploadConsent.filter((provider) => !removed.has(provider));
  const added = given.filter((provider) => !before.includes(provider) && !kept.includes(provider));
  return { ...patch, publicUploadConsent: [...kept, ...added] };
}

/**
 * What the file's `settings` value becomes: `stored` (the file's value now; `null` when it has
 * none yet: then `next` whole) with the settings whose value `next` changed from `fresh` (what
 * `stored` reads as); `null` when nothing changed. An earlier version's shape is written as
 * today's (settings-migration.ts), so an address it kept elsewhere does not come back. What a newer
 * Pictor keeps inside a changed setting's value (another service's address) stays
 * (settings-newer.ts).
 */
export function writtenSettings(
  stored: Record<string, unknown> | null,
  fresh: Settings,
  next: Settings,
): Record<string, unknown> | null {
  const changed = SETTING_NAMES.filter(
    (name) => JSON.stringify(next[name]) !== JSON.stringify(fresh[name]),
  );
  if (changed.length === 0) return null;
  if (stored === null) return { ...next };
  return settingsWrittenOver(stored, next, changed);
}

/**
 * `stored` (the file's `settings` value) in today's shape with `names` set to their values in
 * `settings`, each with what a newer Pictor kept inside the stored value: every other value in
 * the file stays as written.
 */
export function settingsWrittenOver(
  stored: Record<string, unknown>,
  settings: Settings,
  names: readonly SettingName[],
): Record<string, unknown> {
  const written = migrateStoredSettings(stored);
  const values = names.map((name) => [name, withNewerParts(name, written[name], settings[name])]);
  return { ...written, ...Object.fromEntries(values) };
}

/** The file's `settings` value as a record to write over, or null when it is none. */
export function storedRecord(raw: unknown): Record<string, unknown> | null {
  return isRecord(raw) ? raw : null;
}
