/** A change to the settings from the renderer: parsed, checked field by field, refused in sentences. */
import type { Settings } from '../../../shared/domain/settings';
import { settingsPatchSchema } from '../../../shared/domain/settings';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import type { SettingName } from './settings-fields';
import { SETTING_NAMES, checkField, fieldRule } from './settings-fields';
import { PROVIDERS } from '../../../shared/domain/providers';
import { serviceLabel } from '../service';
import { sharedAddress } from '../credentials';

/**
 * A refused change (`bad_input`: it names its fields) or a failed save (`failed`: no fields).
 * Its sentence is the first refusal; when there were several, the others are in `detail`.
 */
export class SettingsError extends UserFacingError {
  override readonly name = 'SettingsError';
  constructor(
    said: Sentence | string,
    /** The settings the message is about (empty for a failed save). */
    readonly fields: readonly string[] = [],
    detail?: string,
  ) {
    super(said, {
      code: fields.length > 0 ? 'bad_input' : 'failed',
      ...(detail === undefined ? {} : { detail }),
    });
  }
}

function isSettingName(name: unknown): name is SettingName {
  return typeof name === 'string' && (SETTING_NAMES as string[]).includes(name);
}

function textOf(said: Sentence | string): string {
  return typeof said === 'string' ? said : englishText(said);
}

/**
 * The error for `refusals` (at least one): the first is its sentence, and with more than one
 * every refusal is listed in English in `detail` (the page changes one setting at a time).
 */
function refusalError(refusals: readonly (Sentence | string)[], fields: string[]): SettingsError {
  const first = refusals[0] ?? sentence('error.settings.notAList');
  const texts = [...new Set(refusals.map(textOf))];
  return new SettingsError(first, fields, texts.length > 1 ? texts.join(' ') : undefined);
}

/** Sentences for whatever the patch schema refused: unknown names, wrong types. */
function shapeRefusal(patch: unknown): SettingsError | null {
  const parsed = settingsPatchSchema().safeParse(patch);
  if (parsed.success) return null;
  const refusals: (Sentence | string)[] = [];
  const fields = new Set<string>();
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        refusals.push(sentence('error.settings.unknownSetting', { name: key.slice(0, 60) }));
        fields.add(key);
      }
    } else if (isSettingName(issue.path[0])) {
      refusals.push(fieldRule(issue.path[0]));
      fields.add(issue.path[0]);
    } else {
      refusals.push(sentence('error.settings.notAList'));
    }
  }
  return refusalError(refusals, [...fields]);
}

/**
 * `current` with `patch` applied, every changed value checked and normalised.
 * @throws SettingsError naming every refused setting.
 */
export function applySettingsPatch(current: Settings, patch: unknown): Settings {
  const refusal = shapeRefusal(patch);
  if (refusal) throw refusal;
  const next: Record<string, unknown> = { ...current };
  const refusals: (Sentence | string)[] = [];
  const fields: string[] = [];
  for (const [name, given] of Object.entries(patch as Record<string, unknown>)) {
    if (!isSettingName(name) || given === undefined) continue;
    // A change of addresses names the services it changes ('' gives one back its default); the
    // others keep theirs, the user's own service's too.
    const value =
      name === 'serviceBaseUrls' ? { ...current.serviceBaseUrls, ...(given as object) } : given;
    const checked = checkField(name, value);
    if (checked.ok) next[name] = checked.value;
    else {
      refusals.push(checked.said);
      fields.push(name);
    }
  }
  if (refusals.length > 0) throw refusalError(refusals, fields);
  const settings = next as Settings;
  const touched = Object.hasOwn(patch as object, 'serviceBaseUrls') ? ['serviceBaseUrls'] : [];
  const shared = touched.length > 0 ? sharedAddress(settings) : null;
  if (shared !== null) {
    // A key is bound to its service's address: two services there would make an endpoint
    // name two keys, and Pictor would have to guess which one to send.
    const said = sentence('error.settings.addressShared', {
      first: PROVIDERS[shared.first].label,
      second: PROVIDERS[shared.second].label,
      host: serviceLabel(shared.baseUrl),
    });
    throw new SettingsError(said, touched);
  }
  return settings;
}
