/**
 * One setting at a time: is this value acceptable, and in which form is it kept. Used both for a
 * change from the renderer (a refusal is a sentence) and for a file read from disk (a bad value
 * falls back to that field's default, the others are kept).
 */
import { isAbsolute, resolve } from 'node:path';
import type { Settings } from '../../../shared/domain/settings';
import { DEFAULT_SETTINGS, settingsSchema } from '../../../shared/domain/settings';
import { UrlPolicyError, checkBaseUrl } from '../service/url-policy';

export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as SettingName[];

/** How each setting is named to the user. */
export const SETTING_LABELS: Readonly<Record<SettingName, string>> = {
  baseUrl: 'service URL',
  defaultModel: 'default model',
  defaultSize: 'default size',
  defaultQuality: 'default quality',
  defaultCount: 'default number of tasks',
  galleryDir: 'gallery folder',
  notifications: 'notifications',
  theme: 'theme',
  language: 'language',
  watchTimeoutMinutes: 'watch timeout',
  updateMode: 'updates',
};

/** What an acceptable value looks like, said to the user when a value is refused. */
const FIELD_RULES: Readonly<Record<SettingName, string>> = {
  baseUrl: 'The service URL must be a web address of at most 2,000 characters, or empty.',
  defaultModel: 'The default model name must be text of at most 200 characters.',
  defaultSize:
    'The default size must look like 1024x1024 (width x height in whole pixels), or be empty.',
  defaultQuality: 'The default quality must be text of at most 100 characters.',
  defaultCount: 'The default number of tasks must be a whole number from 1 to 10.',
  galleryDir:
    'The gallery folder must be a full path (such as /Users/you/Pictures/Pictor), or empty for the default folder.',
  notifications: 'Notifications must be switched on or off.',
  theme: 'The theme must be system, light or dark.',
  language: 'The language must be system or one of the languages Pictor offers.',
  watchTimeoutMinutes:
    'The watch timeout must be a whole number of minutes from 0 (watch forever) to 10,080 (one week).',
  updateMode: 'Updates must be downloaded automatically or only announced.',
};

export function fieldRule(name: SettingName): string {
  return FIELD_RULES[name];
}

export type FieldCheck<K extends SettingName> =
  | { readonly ok: true; readonly value: Settings[K] }
  | { readonly ok: false; readonly message: string };

/** Checks one value and returns it in the form it is kept (trimmed, normalised URL and path). */
export function checkField<K extends SettingName>(name: K, value: unknown): FieldCheck<K> {
  const parsed = settingsSchema.shape[name].safeParse(value);
  if (!parsed.success) return { ok: false, message: FIELD_RULES[name] };
  const data = parsed.data as Settings[K];
  return (
    typeof data === 'string' ? checkText(name, data.trim()) : { ok: true, value: data }
  ) as FieldCheck<K>;
}

function checkText(name: SettingName, text: string): FieldCheck<SettingName> {
  if (name === 'baseUrl' && text !== '') {
    try {
      return { ok: true, value: checkBaseUrl(text) };
    } catch (error) {
      if (error instanceof UrlPolicyError) return { ok: false, message: error.message };
      throw error;
    }
  }
  if (name === 'galleryDir' && text !== '' && !isAbsolute(text)) {
    return { ok: false, message: FIELD_RULES.galleryDir };
  }
  return { ok: true, value: name === 'galleryDir' && text !== '' ? resolve(text) : text };
}

export interface StoredSettings {
  readonly settings: Settings;
  /** Settings present in the file with a value that was refused (their defaults are used). */
  readonly invalid: readonly SettingName[];
  /** The stored value is not an object of settings at all. */
  readonly unusable: boolean;
}

/**
 * Reads what the settings file holds, field by field: a missing field takes its default
 * silently (a newer version added it), a bad one takes its default and is listed.
 */
export function parseStoredSettings(raw: unknown): StoredSettings {
  if (raw === undefined) return { settings: { ...DEFAULT_SETTINGS }, invalid: [], unusable: false };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { settings: { ...DEFAULT_SETTINGS }, invalid: [], unusable: true };
  }
  const record = raw as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const invalid: SettingName[] = [];
  for (const name of SETTING_NAMES) {
    if (!Object.hasOwn(record, name)) continue;
    const checked = checkField(name, record[name]);
    if (checked.ok) settings[name] = checked.value;
    else invalid.push(name);
  }
  return { settings: settings as Settings, invalid, unusable: false };
}
