/**
 * settings.json as a newer Pictor wrote it: values of lists a later version extends (a theme, a
 * language, an update mode, a service, another service's address and consent). On real files, the
 * app's start reads them as their defaults and leaves the file as it is (no reset, no repaired
 * file written over it, nothing said), a command reads them too (no refusal), and a later change
 * of this version writes only its own change: the newer values stay, inside the addresses and
 * consents too. A repair of a value that IS damaged replaces only that value. Controls: a value of
 * another kind (a number, text no version writes) is damage, reset and reported as before.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { DEFAULT_SETTINGS, UNREAD_SETTINGS } from '../../../shared/domain/settings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

/** What a newer Pictor keeps: names this version does not know, in every list it reads. */
const NEWER = {
  theme: 'sepia',
  language: 'tlh',
  updateMode: 'nightly',
  provider: 'midjourney',
  serviceBaseUrls: { fal: 'https://fal.example', midjourney: 'https://api.midjourney.example' },
  publicUploadConsent: ['fal', 'midjourney'],
  notifications: false,
  laterSetting: { kept: true },
};

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempFolder('newer-settings');
  file = join(dir, 'settings.json');
});
afterEach(async () => {
  await removeFolder(dir);
});

const write = (settings: unknown) => writeFile(file, JSON.stringify({ settings }, null, 2));
const stored = async () =>
  (JSON.parse(await readFile(file, 'utf8')) as { settings: Record<string, unknown> }).settings;
const appStart = () =>
  new SettingsService({
    store: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
    now: () => Date.UTC(2026, 0, 1),
  });
const commandStart = () =>
  new SettingsService({
    store: new JsonFileKv(dir, 'settings'),
    now: () => Date.UTC(2026, 0, 1),
    damaged: 'refuse',
  });

describe('settings a newer Pictor wrote', () => {
  it('are read as their defaults at the app start, the file left as it is', async () => {
    await write(NEWER);
    const before = await readFile(file, 'utf8');
    const service = appStart();
    const settings = service.get();
    expect(settings.theme).toBe(DEFAULT_SETTINGS.theme);
    expect(settings.language).toBe(DEFAULT_SETTINGS.language);
    expect(settings.updateMode).toBe(UNREAD_SETTINGS.updateMode);
    expect(settings.provider).toBe(DEFAULT_SETTINGS.provider);
    expect(settings.serviceBaseUrls).toEqual({ fal: 'https://fal.example' });
    expect(settings.publicUploadConsent).toEqual(['fal']);
    expect(settings.notifications).toBe(false);
    expect(service.takeProblems()).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(before);
    // No copy set aside (the store's lock file aside).
    const files = await readdir(dir);
    expect(files.filter((name) => !name.endsWith('.lock'))).toEqual(['settings.json']);
  });

  it('are read by a command, which does not refuse the file', async () => {
    await write(NEWER);
    const settings = commandStart().get();
    expect(settings.theme).toBe(DEFAULT_SETTINGS.theme);
    expect(settings.publicUploadConsent).toEqual(['fal']);
  });

  it('stay in the file through this version’s changes, inside addresses and consents too', async () => {
    await write(NEWER);
    const app = appStart();
    app.update({ notifications: true });
    app.update({ serviceBaseUrls: { fal: 'https://other-fal.example' } });
    commandStart().update({ publicUploadConsent: [] });
    const after = await stored();
    expect(after).toMatchObject({
      theme: 'sepia',
      language: 'tlh',
      updateMode: 'nightly',
      provider: 'midjourney',
      notifications: true,
      laterSetting: { kept: true },
    });
    expect(after.serviceBaseUrls).toEqual({
      fal: 'https://other-fal.example',
      midjourney: 'https://api.midjourney.example',
    });
    expect(after.publicUploadConsent).toEqual(['midjourney']);
  });

  it('a change the user makes here replaces the newer value', async () => {
    await write(NEWER);
    appStart().update({ theme: 'dark' });
    expect((await stored()).theme).toBe('dark');
    expect(appStart().get().theme).toBe('dark');
  });

  it('a damaged value beside them is repaired alone', async () => {
    await write({ ...NEWER, defaultCount: 'many' });
    const service = appStart();
    expect(service.takeProblems()).toHaveLength(1);
    const after = await stored();
    expect(after.defaultCount).toBe(DEFAULT_SETTINGS.defaultCount);
    expect(after).toMatchObject({ ...NEWER, defaultCount: DEFAULT_SETTINGS.defaultCount });
  });

  it.each([
    ['theme', 42],
    ['theme', 'dark mode'],
    ['language', 'x'.repeat(65)],
    ['updateMode', ''],
    ['provider', null],
    ['publicUploadConsent', ['fal', 7]],
  ])('a %s of no version (%j) is damage: reset and reported, as before', async (name, value) => {
    await write({ [name]: value });
    const service = appStart();
    expect(service.get()[name as keyof typeof DEFAULT_SETTINGS]).toEqual(
      UNREAD_SETTINGS[name as keyof typeof DEFAULT_SETTINGS],
    );
    expect(service.takeProblems()).toHaveLength(1);
    expect((await stored())[name]).toEqual(UNREAD_SETTINGS[name as keyof typeof DEFAULT_SETTINGS]);
  });
});
