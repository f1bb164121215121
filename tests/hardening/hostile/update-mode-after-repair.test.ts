/**
 * A damaged settings file is moved aside and the start reads the cautious stand-ins
 * (UNREAD_SETTINGS: an update only announced, input images never uploaded), which Settings shows.
 * The file was then gone: the NEXT start found none, read that as a first start, and took the
 * defaults the user may have refused in the damaged file (the update downloaded and installed at
 * quit, inputs uploaded), with nothing said. Now a file of the stand-ins takes the damaged one's
 * place: every later start reads what the user was shown, until they change it; the copy stays
 * beside it, and the problem is said once.
 *
 * Real settings files in a temporary folder, read by the app's settings service at two starts;
 * the update mode goes to the update service over NsisUpdater on a real loopback feed.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
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

const folder = (): string => join(world().dir, 'user-data');

/** One start of the app's settings over the folder (a new store, as a new process opens it). */
function start(): SettingsService {
  return new SettingsService({
    store: new JsonFileKv(folder(), 'settings'),
    now: () => Date.UTC(2026, 11, 1),
  });
}

const DAMAGED: [string, (file: string) => Promise<void>][] = [
  ['half-written', (file) => writeFile(file, '{"settings":{"updateMode":"notify"')],
  ['not JSON at all', (file) => writeFile(file, '\u0000\u0000\u0000')],
  ['settings that are a list', (file) => writeFile(file, '{"settings":["notify"]}')],
  ['settings that are null', (file) => writeFile(file, '{"settings":null}')],
  ['a folder where the file goes', (file) => mkdir(file)],
];

describe('the start after a damaged settings file was moved aside', () => {
  it.each(DAMAGED)('%s: still told only and never uploading', async (_, damage) => {
    await mkdir(folder(), { recursive: true });
    await damage(join(folder(), 'settings.json'));
    const first = start();
    expect(first.get()).toMatchObject({ updateMode: 'notify', neverUploadInputs: true });
    expect(first.takeProblems()).toHaveLength(1);

    const next = start();

    expect(next.get()).toMatchObject({ updateMode: 'notify', neverUploadInputs: true });
    expect(next.takeProblems()).toEqual([]);
    const files = await readdir(folder());
    expect(files.filter((name) => name.startsWith('settings.corrupt-'))).toHaveLength(1);
    // The update: announced, not downloaded.
    const bytes = installerBytes('0.2.0', 20_000);
    serveChannelFile(world().feed, {
      body: channelFile({ version: '0.2.0', file: INSTALLER.slice(1), bytes }),
    });
    world().feed.files.set(INSTALLER, { body: bytes });
    const { service } = rig(
      await updaterFor(world(), new NsisUpdater()),
      { kind: 'install' },
      () => next.get().updateMode,
    );
    expect(await service.checkNow()).toMatchObject({ status: 'available', version: '0.2.0' });
    expect(world().feed.paths()).not.toContain(INSTALLER);

    // The user's own choice, made after, is kept as any change is.
    next.update({ updateMode: 'download', theme: 'dark' });
    expect(start().get()).toMatchObject({
      updateMode: 'download',
      neverUploadInputs: true,
      theme: 'dark',
    });
  });
});
