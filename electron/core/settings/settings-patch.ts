/** A change to the settings from the renderer: parsed, checked field by field, refused in sentences. */
import type { Settings } from '../../../shared/domain/settings';
import { settingsPatchSchema } from '../../../shared/domain/settings';
import { UserFacingError } from '../errors/user-facing-error';
import type { SettingName } from './settings-fields';
import { SETTING_NAMES, checkField, fieldRule } from './settings-fields';

/**
 * A refused change (`bad_input`: it names its fields) or a failed save (`failed`: no fields).
 * `message` is one or more sentences for the user.
 */
export class SettingsError extends UserFacingError {
  override readonly name = 'SettingsError';
  constructor(
    message: string,
    /** The settings the message is about (empty for a failed save). */
    readonly fields: readonly string[] = [],
  ) {
    super(message, { code: fields.length > 0 ? 'bad_input' : 'failed' });
  }
}

function isSettingName(name: unknown): name is SettingName {
  return typeof name === 'string' && (SETTING_NAMES as string[]).includes(name);
}

/** Sentences for whatever the patch schema refused: unknown names, wrong types. */
function shapeRefusal(patch: unknown): SettingsError | null {
  const parsed = settingsPatchSchema.safeParse(patch);
  if (parsed.success) return null;
  const messages = new Set<string>();
  const fields = new Set<string>();
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        messages.add(`Pictor has no setting called “${key.slice(0, 60)}”.`);
        fields.add(key);
      }
    } else if (isSettingName(issue.path[0])) {
      messages.add(fieldRule(issue.path[0]));
      fields.add(issue.path[0]);
    } else {
      messages.add('The settings change was not a list of settings.');
    }
  }
  return new SettingsError([...messages].join(' '), [...fields]);
}

/**
 * `current` with `patch` applied, every changed value checked and normalised.
 * @throws SettingsError naming every refused setting.
 */
export function applySettingsPatch(current: Settings, patch: unknown): Settings {
  const refusal = shapeRefusal(patch);
  if (refusal) throw refusal;
  const next: Record<string, unknown> = { ...current };
  const messages: string[] = [];
  const fields: string[] = [];
  for (const [name, value] of Object.entries(patch as Record<string, unknown>)) {
    if (!isSettingName(name) || value === undefined) continue;
    const checked = checkField(name, value);
    if (checked.ok) next[name] = checked.value;
    else {
      messages.push(checked.message);
      fields.push(name);
    }
  }
  if (messages.length > 0) throw new SettingsError(messages.join(' '), fields);
  return next as Settings;
}
