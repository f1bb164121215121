/**
 * A settings file Pictor cannot read never turns into an update download the user may have
 * refused. The update mode is read at each decision from the settings; a file that was busy,
 * half-written, damaged, or that holds a value only a newer Pictor knows read as the defaults,
 * and the default is "download in the background": a user who chose "only check and tell me"
 * got the installer downloaded (and installed at quit). Such a file now reads as the cautious
 * stand-ins (UNREAD_SETTINGS): told only, and input images never uploaded (the same kind of
 * choice, a default that acts for the user unasked). No file at all is a first start: the
 * defaults, and the download goes ahead.
 *
 * Real settings files in a temporary folder read by the app's settings service; a busy file is a
 * fault injected on the store's read (EBUSY, as Windows says for a file another process holds);
 * the update mode goes from the settings to the update service over NsisUpdater on a real
 * loopback feed, as main wires it (host/app-updates.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import type { KeyValueStore } from '../../../electron/ports/key-value-store';
import { channelFile } from '../../integration/updates/update-feed';
import { installerBytes } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';

const world = useUpdaterWorld();
const INSTALLER = '/Pictor-Setup-0.2.0.exe';
/** What the user chose, in the file before it was damaged. */
const CHOSEN = { updateMode: 'notify', neverUploadInputs: true, theme: 'dark' };

/** The settings folder, its settings.json written by `write`, and the app's store over it. */
async function settingsAt(write: (file: string) => Promise<void>) {
  const dir = join(world().dir, 'user-data');
  await mkdir(dir, { recursive: true });
  await write(join(dir, 'settings.json'));
  return new JsonFileKv(dir, 'settings');
}
const text = (body: string) => (file: string) => writeFile(file, body);
const json = (settings: unknown) => text(JSON.stringify({ settings }));

/** The store, but every read fails as a file another process holds does. */
function busy(store: KeyValueStore): KeyValueStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'get') return Reflect.get(target, name, receiver) as unknown;
      return () => {
        throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' });
      };
    },
  });
}

/** The app's start over `store`, then a check of the feed as main's schedule makes it. */
async function startAndCheck(store: KeyValueStore) {
  const bytes = installerBytes('0.2.0', 20_000);
  serveChannelFile(world().feed, {
    body: channelFile({ version: '0.2.0', file: INSTALLER.slice(1), bytes }),
  });
  world().feed.files.set(INSTALLER, { body: bytes });
  const settings = new SettingsService({ store, now: () => Date.UTC(2026, 11, 1) });
  const { service } = rig(
    await updaterFor(world(), new NsisUpdater()),
    { kind: 'install' },
    () => settings.get().updateMode,
  );
  return { settings, state: await service.checkNow() };
}

const UNREAD: [string, () => Promise<KeyValueStore>][] = [
  ['half-written (a write cut off)', () => settingsAt(text('{"settings":{"updateMode":"notify"'))],
  ['not JSON at all', () => settingsAt(text('\u0000\u0000\u0000'))],
  ['settings that are a list', () => settingsAt(json(['notify']))],
  ['settings that are null', () => settingsAt(json(null))],
  ['a folder where the file goes', () => settingsAt((file) => mkdir(file))],
  ['busy (EBUSY on every read)', async () => busy(await settingsAt(json(CHOSEN)))],
];

describe('an unreadable settings file and the update mode', () => {
  it.each(UNREAD)('%s: only told, nothing downloaded, inputs never uploaded', async (_, store) => {
    const { settings, state } = await startAndCheck(await store());

    expect(state).toMatchObject({ status: 'available', version: '0.2.0' });
    expect(world().feed.paths()).not.toContain(INSTALLER);
    expect(settings.get()).toMatchObject({ updateMode: 'notify', neverUploadInputs: true });
  });

  it.each([
    ['a newer Pictor wrote', 'off'],
    ['damaged to', 7],
    ['damaged to', ''],
  ])('an update mode %s (%j): only told, nothing downloaded', async (_, value) => {
    const { settings, state } = await startAndCheck(
      await settingsAt(json({ ...CHOSEN, updateMode: value })),
    );

    expect(state).toMatchObject({ status: 'available' });
    expect(world().feed.paths()).not.toContain(INSTALLER);
    expect(settings.get().updateMode).toBe('notify');
  });

  it('a damaged "never upload inputs" reads as never', async () => {
    const { settings } = await startAndCheck(
      await settingsAt(json({ ...CHOSEN, neverUploadInputs: 'yes' })),
    );
    expect(settings.get().neverUploadInputs).toBe(true);
    // Repaired in the file as read: the user sees in Settings what Pictor does.
    const file = join(world().dir, 'user-data', 'settings.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as { settings: typeof CHOSEN };
    expect(written.settings.neverUploadInputs).toBe(true);
  });

  it('control: no file is a first start, and the download goes ahead', async () => {
    const first = await startAndCheck(await settingsAt(() => Promise.resolve()));
    expect(first.state).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(first.settings.get()).toMatchObject({
      updateMode: 'download',
      neverUploadInputs: false,
    });
  });

  it('control: a readable "only tell me" is obeyed', async () => {
    const { state } = await startAndCheck(await settingsAt(json(CHOSEN)));
    expect(state).toMatchObject({ status: 'available' });
    expect(world().feed.paths()).not.toContain(INSTALLER);
  });
});
