/**
 * One setting at a time: is this value acceptable, and in which form is it kept. Used both for a
 * change from the renderer (a refusal is a sentence) and for a file read from disk (a bad value
 * falls back to that field's default, the others are kept).
 */
import { isAbsolute, resolve } from 'node:path';
import type { ServiceBaseUrls, Settings } from '../../../shared/domain/settings';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { DEFAULT_SETTINGS, UNREAD_SETTINGS, settingsSchema } from '../../../shared/domain/settings';
import { cleanServiceName } from '../../../shared/domain/service-name';
import { UrlPolicyError, checkBaseUrl, localServerAddress } from '../service';
import { migrateStoredSettings } from './settings-migration';
import { isNewerValue, knownConsents } from './settings-newer';

export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as SettingName[];

/** How each setting is named in the log (the user reads it from the catalogue's sentences). */
export const SETTING_LABELS: Readonly<Record<SettingName, string>> = {
  serviceName: 'service name',
  provider: 'service',
  serviceBaseUrls: 'service addresses',
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
  neverUploadInputs: 'never upload inputs',
  publicUploadConsent: 'public upload consent',
  allowedLocalServers: 'allowed local servers',
};

/** What an acceptable value looks like, said to the user when a value is refused. */
const FIELD_RULES: Readonly<Record<SettingName, MainMessageKey>> = {
  serviceName: 'error.settings.ruleServiceName',
  provider: 'error.settings.ruleProvider',
  serviceBaseUrls: 'error.settings.ruleBaseUrl',
  defaultModel: 'error.settings.ruleDefaultModel',
  defaultSize: 'error.settings.ruleDefaultSize',
  defaultQuality: 'error.settings.ruleDefaultQuality',
  defaultCount: 'error.settings.ruleDefaultCount',
  galleryDir: 'error.settings.ruleGalleryDir',
  notifications: 'error.settings.ruleNotifications',
  theme: 'error.settings.ruleTheme',
  language: 'error.settings.ruleLanguage',
  watchTimeoutMinutes: 'error.settings.ruleWatchTimeout',
  updateMode: 'error.settings.ruleUpdateMode',
  neverUploadInputs: 'error.inputs.ruleNeverUpload',
  publicUploadConsent: 'error.inputs.ruleConsent',
  allowedLocalServers: 'error.settings.ruleLocalServers',
};

export function fieldRule(name: SettingName): Sentence {
  return sentence(FIELD_RULES[name]);
}

/**
 * A refused value: `said` is the sentence for the user, or English text for a refusal that
 * came without one.
 */
export type FieldCheck<K extends SettingName> =
  | { readonly ok: true; readonly value: Settings[K] }
  | { readonly ok: false; readonly said: Sentence | string };

/** Checks one value and returns it in the form it is kept (trimmed, normalised URL and path). */
export function checkField<K extends SettingName>(name: K, value: unknown): FieldCheck<K> {
  const parsed = settingsSchema().shape[name].safeParse(value);
  if (!parsed.success) return { ok: false, said: fieldRule(name) };
  const data = parsed.data as Settings[K];
  if (name === 'serviceBaseUrls') return checkAddresses(data as ServiceBaseUrls) as FieldCheck<K>;
  if (name === 'allowedLocalServers') return checkLocalServers(data as string[]) as FieldCheck<K>;
  return (
    typeof data === 'string' ? checkText(name, data.trim()) : { ok: true, value: data }
  ) as FieldCheck<K>;
}

/** Each allowed local server in its kept spelling (`host:port`), each once; any other refused. */
function checkLocalServers(entries: readonly string[]): FieldCheck<'allowedLocalServers'> {
  const kept = entries.map(localServerAddress);
  if (kept.some((address) => address === null)) {
    return { ok: false, said: fieldRule('allowedLocalServers') };
  }
  return { ok: true, value: [...new Set(kept as string[])] };
}

/** A service address as kept (checkBaseUrl's spelling), or the URL policy's refusal of it. */
function checkAddress(text: string): { ok: true; value: string } | FieldCheck<'serviceName'> {
  try {
    return { ok: true, value: checkBaseUrl(text) };
  } catch (error) {
    if (error instanceof UrlPolicyError)
      return { ok: false, said: error.sentence ?? error.message };
    throw error;
  }
}

/** Each service's own address checked; an empty one is dropped (its default, or none). */
function checkAddresses(addresses: ServiceBaseUrls): FieldCheck<'serviceBaseUrls'> {
  const kept: Record<string, string> = {};
  for (const [provider, raw] of Object.entries(addresses)) {
    const text = raw?.trim() ?? '';
    if (text === '') continue;
    const checked = checkAddress(text);
    if (!checked.ok) return checked;
    kept[provider] = checked.value;
  }
  return { ok: true, value: kept };
}

function checkText(name: SettingName, text: string): FieldCheck<SettingName> {
  if (name === 'serviceName') return { ok: true, value: cleanServiceName(text) };
  if (name === 'galleryDir' && text !== '' && !isAbsolute(text)) {
    return { ok: false, said: fieldRule('galleryDir') };
  }
  return { ok: true, value: name === 'galleryDir' && text !== '' ? resolve(text) : text };
}

export interface StoredSettings {
  readonly settings: Settings;
  /** Settings present in the file with a value that was refused (their defaults are used). */
  readonly invalid: readonly SettingName[];
  /**
   * Settings whose value a newer Pictor wrote (settings-newer.ts): their stand-ins are used for
   * this run, and the file's value is kept (no repair, no write over it).
   */
  readonly newer: readonly SettingName[];
  /** The stored value is not an object of settings at all. */
  readonly unusable: boolean;
}

/**
 * The addresses a file holds, each checked on its own: a bad one is dropped (`refused`), never
 * the other services' addresses with it.
 */
function storedAddresses(raw: unknown): { value: ServiceBaseUrls; refused: boolean } {
  const parsed = settingsSchema().shape.serviceBaseUrls.safeParse(raw);
  if (!parsed.success) return { value: {}, refused: true };
  const value: Record<string, string> = {};
  let refused = false;
  for (const [provider, text] of Object.entries(parsed.data)) {
    const checked = checkAddresses({ [provider]: text });
    if (checked.ok) Object.assign(value, checked.value);
    else refused = true;
  }
  return { value, refused };
}

/**
 * Reads what the settings file holds, field by field: a missing field takes its default
 * silently (a newer version added it), a bad one takes its stand-in ({@link UNREAD_SETTINGS}) and
 * is listed, and so is one a newer version wrote (its own list: kept in the file). A file of an
 * earlier version is read as today's first (see settings-migration.ts).
 */
export function parseStoredSettings(raw: unknown): StoredSettings {
  const none = { invalid: [], newer: [] };
  if (raw === undefined) return { settings: { ...DEFAULT_SETTINGS }, ...none, unusable: false };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { settings: { ...UNREAD_SETTINGS }, ...none, unusable: true };
  }
  const record = migrateStoredSettings(raw as Record<string, unknown>);
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const invalid: SettingName[] = [];
  const newer: SettingName[] = [];
  for (const name of SETTING_NAMES) {
    if (!Object.hasOwn(record, name)) continue;
    if (name === 'serviceBaseUrls') {
      const addresses = storedAddresses(record[name]);
      settings[name] = addresses.value;
      if (addresses.refused) invalid.push(name);
      continue;
    }
    const value = name === 'publicUploadConsent' ? knownConsents(record[name]) : record[name];
    if (value !== record[name]) newer.push(name);
    const checked = checkField(name, value);
    if (checked.ok) settings[name] = checked.value;
    else {
      settings[name] = UNREAD_SETTINGS[name];
      if (isNewerValue(name, value)) newer.push(name);
      else invalid.push(name);
    }
  }
  return { settings: settings as Settings, invalid, newer, unusable: false };
}
