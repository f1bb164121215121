/**
 * The app's updates against a real release feed on loopback: electron-updater's own NsisUpdater
 * and DebUpdater (semver comparison, download and sha512 check, as shipped; the channel file read
 * by Pictor's checked provider) behind the adapter (adapters/electron-updater.ts) and the update service
 * (app/updates). Only Electron itself is faked (tests/integration/updates/fake-electron.ts):
 * `app`, Squirrel's `autoUpdater`, and `net.request` carried by Node's http client.
 *
 * The channel file's name follows the OS the test runs on (`latest-linux.yml` here, `latest.yml`
 * on Windows): the feed answers every `latest*.yml` with the same YAML.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DebUpdater, MacUpdater, NsisUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { createAppUpdater, wrapAppUpdater } from '../../../electron/adapters/electron-updater';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import { UpdateService } from '../../../electron/app/updates/update-service';
import { silentLogger } from '../../../electron/ports/logger';
import { shell } from '../../../renderer/i18n/en/shell';
import { ManualClock } from '../../fakes/manual-clock';
import { UpdateFeed, blockmapOf, channelFile, sha512Base64 } from './update-feed';
import { installerBytes } from './installer-files';
import { rig, serveChannelFile, updaterFor as updaterAt, useUpdaterWorld } from './updater-rig';
import { UNTIL } from '../../support/waits';

const INSTALLER = 'Pictor-Setup-0.2.0.exe';
/**
 * A service key in the process's environment (where a CLI user or CI may keep one): nothing of it
 * may reach the update feed. (The updater is given no key at all; this proves it takes none.)
 */
const API_KEY = `sk-live-${randomBytes(12).toString('hex')}`;
const world = useUpdaterWorld({ PICTOR_API_KEY: API_KEY });

function serveRelease(options: { version: string; bytes: Buffer; sha512?: string }): void {
  const { feed } = world();
  const yaml = channelFile({
    ...options,
    file: INSTALLER.replace('0.2.0', options.version),
    releaseNotes: '<h2>Pictor 0.2.0</h2><ul><li>Faster gallery &amp; search</li></ul>',
  });
  serveChannelFile(feed, { body: yaml });
  const file = `/${INSTALLER.replace('0.2.0', options.version)}`;
  feed.files.set(file, { body: options.bytes });
  feed.files.set(`${file}.blockmap`, { body: blockmapOf(options.bytes) });
}

const updaterFor = <T extends Parameters<typeof updaterAt>[1]>(updater: T, url?: string) =>
  updaterAt(world(), updater, url);

async function pendingFiles(): Promise<string[]> {
  return readdir(join(world().dir, 'cache', 'pictor-updater', 'pending')).catch(() => []);
}

describe('updates from a loopback feed through electron-updater', () => {
  it('offers a newer version, downloads it in the background, and installs only on "Restart to update"', async () => {
    const bytes = installerBytes('0.2.0', 300_000);
    serveRelease({ version: '0.2.0', bytes });
    const { service, installs } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0', canInstall: true });
    expect(state.releaseNotes).toBe('Pictor 0.2.0\n• Faster gallery & search');
    // The whole installer, checked against the feed's sha512; never a blockmap (differential
    // downloads are off: a blockmap is read whole and parsed without a limit).
    expect(world().feed.paths()).not.toContain(`/${INSTALLER}.blockmap`);
    expect(world().feed.paths()).toContain(`/${INSTALLER}`);
    const downloaded = await readFile(
      join(world().dir, 'cache', 'pictor-updater', 'pending', INSTALLER),
    );
    expect(sha512Base64(downloaded)).toBe(sha512Base64(bytes));
    expect(installs).not.toHaveBeenCalled();

    service.restart();
    expect(installs).toHaveBeenCalledTimes(1);
    expect(installs).toHaveBeenCalledWith(true, true);
  });

  it.each(['0.1.0', '0.0.9'])('does not offer version %s to 0.1.0', async (version) => {
    serveRelease({ version, bytes: installerBytes(version, 10_000) });
    const { service, installs } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state.status).toBe('idle');
    expect(state.version).toBeUndefined();
    expect(
      world()
        .feed.paths()
        .every((path) => path.endsWith('.yml')),
    ).toBe(true);
    expect(world().feed.paths().length).toBeGreaterThan(0);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
  });

  it('refuses a download whose sha512 does not match the feed and installs nothing', async () => {
    const bytes = randomBytes(200_000);
    serveRelease({ version: '0.2.0', bytes, sha512: sha512Base64(randomBytes(200_000)) });
    const { service, installs, warnings } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'error', problem: 'checksum', version: '0.2.0' });
    expect(world().feed.paths()).toContain(`/${INSTALLER}`);
    expect(await pendingFiles()).not.toContain(INSTALLER);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
    // Nothing was left to install on quit either.
    expect(world().electron.app.listenerCount('quit')).toBe(0);
    expect(warnings.join('\n')).toContain('checksum');
  });

  it('only tells, when the user chose so, and downloads when asked', async () => {
    serveRelease({ version: '0.2.0', bytes: installerBytes('0.2.0', 50_000) });
    const { service } = rig(await updaterFor(new NsisUpdater()), { kind: 'install' }, 'notify');

    expect(await service.checkNow()).toMatchObject({ status: 'available', version: '0.2.0' });
    expect(world().feed.paths()).not.toContain(`/${INSTALLER}`);

    expect(await service.download()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().feed.paths()).toContain(`/${INSTALLER}`);
  });

  it('macOS: hands the verified zip to Squirrel through the loopback proxy, installs on restart', async () => {
    const zip = 'Pictor-0.2.0-mac.zip';
    const bytes = installerBytes('0.2.0', 120_000, zip);
    const yaml = channelFile({ version: '0.2.0', file: zip, bytes });
    serveChannelFile(world().feed, { body: yaml });
    world().feed.files.set(`/${zip}`, { body: bytes });
    const updater = await updaterFor(new MacUpdater());
    const { service } = rig(updater);
    // On macOS quitAndInstall is Squirrel's: watched on the fake, not on electron-updater.
    vi.mocked(updater.quitAndInstall).mockRestore();

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
    // Squirrel installs what it holds at quit: it is handed the zip only on the user's word.
    expect(world().electron.autoUpdater.received).toBeNull();
    service.restart();
    await vi.waitFor(() => expect(world().electron.autoUpdater.installs).toBe(1), UNTIL);
    expect(world().electron.autoUpdater.received?.equals(bytes)).toBe(true);
  });

  it('macOS: a zip whose sha512 does not match never reaches Squirrel', async () => {
    const bytes = randomBytes(60_000);
    const zip = 'Pictor-0.2.0-mac.zip';
    const yaml = channelFile({
      version: '0.2.0',
      file: zip,
      bytes,
      sha512: sha512Base64(randomBytes(60_000)),
    });
    serveChannelFile(world().feed, { body: yaml });
    world().feed.files.set(`/${zip}`, { body: bytes });
    const updater = await updaterFor(new MacUpdater());
    const { service } = rig(updater);
    vi.mocked(updater.quitAndInstall).mockRestore();

    expect(await service.checkNow()).toMatchObject({ status: 'error', problem: 'checksum' });
    expect(world().electron.autoUpdater.feed).toBeNull();
    expect(world().electron.autoUpdater.received).toBeNull();
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(world().electron.autoUpdater.installs).toBe(0);
  });

  it('on a Linux package, announces the new version and downloads nothing', async () => {
    const bytes = randomBytes(20_000);
    const yaml = channelFile({ version: '0.2.0', file: 'pictor_0.2.0_amd64.deb', bytes });
    serveChannelFile(world().feed, { body: yaml });
    world().feed.files.set('/pictor_0.2.0_amd64.deb', { body: bytes });
    const { service, installs } = rig(await updaterFor(new DebUpdater()), { kind: 'notify' });

    const state = await service.checkNow();
    expect(state).toMatchObject({ status: 'available', version: '0.2.0', canInstall: false });
    expect((await service.download()).status).toBe('available');
    expect(
      world()
        .feed.paths()
        .some((path) => path.endsWith('.deb')),
    ).toBe(false);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
  });

  it('macOS without a valid signature: announces the version with its dmg’s link, fetches no installer', async () => {
    // The feed as a release publishes it: https, so the link can be opened; its requests are
    // carried to the loopback feed by the fetch the adapter is given.
    const alias = 'https://updates.pictor.example/stable/';
    const toLoopback: typeof fetch = (input, init) =>
      fetch(String(input).replace(alias, world().feed.url), init);
    const sha512 = sha512Base64(randomBytes(1000));
    const entry = (name: string) => [`  - url: ${name}`, `    sha512: ${sha512}`, '    size: 1000'];
    const yaml = [
      'version: 0.2.0',
      'files:',
      ...entry('Pictor-0.2.0-arm64-mac.zip'),
      ...entry('Pictor-0.2.0-mac.zip'),
      ...entry('Pictor-0.2.0-arm64.dmg'),
      ...entry('Pictor-0.2.0.dmg'),
      `releaseDate: '2026-11-20T10:00:00.000Z'`,
      '',
    ].join('\n');
    serveChannelFile(world().feed, { body: yaml });
    const updater = await updaterFor(new MacUpdater(), alias);
    const clock = new ManualClock();
    const service = new UpdateService({
      updater: wrapAppUpdater(updater, { kind: 'notify' }, silentLogger, {
        url: alias,
        fetch: toLoopback,
        clock,
        target: { platform: 'darwin', arch: 'arm64', linuxPackageType: null },
      }),
      clock,
      logger: silentLogger,
      mode: () => 'download',
    });

    const state = await service.checkNow();

    expect(state).toEqual(
      expect.objectContaining({
        status: 'available',
        version: '0.2.0',
        canInstall: false,
        canOpenDownload: true,
      }),
    );
    expect(JSON.stringify(state)).not.toMatch(/https|pictor\.example|\.dmg|\.zip/);
    expect(service.downloadLink()).toBe(`${alias}Pictor-0.2.0-arm64.dmg`);
    expect((await service.download()).status).toBe('available');
    expect(
      world()
        .feed.paths()
        .filter((path) => !path.endsWith('.yml')),
    ).toEqual([]);
    expect(world().electron.autoUpdater.feed).toBeNull();
    expect(() => service.restart()).toThrow(UserFacingError);
  });

  it('a feed over http (a loopback or a misconfigured one) gives a Mac that can only tell no link', async () => {
    const yaml = channelFile({
      version: '0.2.0',
      file: 'Pictor-0.2.0.dmg',
      bytes: randomBytes(500),
    });
    serveChannelFile(world().feed, { body: yaml });
    const { service } = rig(await updaterFor(new MacUpdater()), { kind: 'notify' });
    expect(await service.checkNow()).toMatchObject({
      status: 'available',
      canInstall: false,
      canOpenDownload: false,
    });
    expect(service.downloadLink()).toBeNull();
  });

  it('sends the feed no key, no Authorization header and no cookie', async () => {
    serveRelease({ version: '0.2.0', bytes: installerBytes('0.2.0', 30_000) });
    const { service } = rig(await updaterFor(new NsisUpdater()));
    expect((await service.checkNow()).status).toBe('ready');

    expect(world().feed.requests.length).toBeGreaterThanOrEqual(2);
    // Only the fetch standard's own headers (the channel file, through the app's fetch) and
    // electron-updater's (x-user-staging-id: its random rollout id).
    const allowed = [
      'accept',
      'accept-encoding',
      'accept-language',
      'cache-control',
      'connection',
      'host',
      'pragma',
      'sec-fetch-mode',
      'user-agent',
      'x-user-staging-id',
    ];
    for (const request of world().feed.requests) {
      for (const name of Object.keys(request.headers)) expect(allowed).toContain(name);
      expect(request.headers['authorization']).toBeUndefined();
      expect(request.headers['cookie']).toBeUndefined();
      expect(request.raw).not.toContain(API_KEY);
      expect(request.raw).not.toContain(API_KEY.slice(8));
    }
  });
});

describe('a feed that cannot be used gives one quiet sentence', () => {
  async function closedPort(): Promise<string> {
    const closed = new UpdateFeed();
    await closed.start();
    const url = closed.url;
    await closed.stop();
    return url;
  }

  const cases: [string, () => Promise<string>, string][] = [
    ['no network (a closed port)', closedPort, 'offline'],
    ['a 404', () => Promise.resolve(world().feed.url), 'feed_missing'],
    [
      'a malformed channel file',
      () => {
        serveChannelFile(world().feed, { body: 'version: [0.2.0\nfiles: {{{' });
        return Promise.resolve(world().feed.url);
      },
      'feed_invalid',
    ],
    [
      'a channel file without a version',
      () => {
        serveChannelFile(world().feed, { body: 'files: []\n' });
        return Promise.resolve(world().feed.url);
      },
      'feed_invalid',
    ],
  ];

  it.each(cases)('%s', async (_name, url, problem) => {
    const { service, installs } = rig(await updaterFor(new NsisUpdater(), await url()));

    const state = await service.checkNow();
    // Let anything electron-updater left running settle before counting unhandled rejections.
    await new Promise((resolve) => setImmediate(resolve));

    expect(state).toMatchObject({ status: 'error', problem });
    const sentence = shell[`update.problem.${state.problem ?? 'failed'}` as keyof typeof shell];
    expect(sentence.match(/[.!?](\s|$)/g)).toHaveLength(1);
    expect(world().escaped).toEqual([]);
    expect(installs).not.toHaveBeenCalled();
    // The service keeps working: the next check runs (and fails the same way) without a crash.
    expect((await service.checkNow()).status).toBe('error');
  });
});

describe("the app's own updater (createAppUpdater) on an installed package", () => {
  it('reads the feed electron-builder left beside the app and only announces', async () => {
    const bytes = randomBytes(20_000);
    const yaml = channelFile({ version: '0.2.0', file: 'pictor_0.2.0_amd64.deb', bytes });
    serveChannelFile(world().feed, { body: yaml });
    const resources = join(world().dir, 'resources');
    await mkdir(resources);
    await writeFile(
      join(resources, 'app-update.yml'),
      `provider: generic\nurl: ${world().feed.url}\nupdaterCacheDirName: pictor-updater\n`,
    );
    await writeFile(join(resources, 'package-type'), 'deb');
    Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
    try {
      const clock = new ManualClock();
      const updater = createAppUpdater(world().electron.app, silentLogger, { fetch, clock });
      expect(updater.capability).toEqual({ kind: 'notify' });
      const service = new UpdateService({
        updater,
        clock,
        logger: silentLogger,
        mode: () => 'download',
      });

      expect(await service.checkNow()).toMatchObject({
        status: 'available',
        version: '0.2.0',
        canInstall: false,
      });
      expect(
        world()
          .feed.paths()
          .some((path) => path.startsWith('/latest')),
      ).toBe(true);
      expect(
        world()
          .feed.paths()
          .some((path) => path.endsWith('.deb')),
      ).toBe(false);
    } finally {
      Reflect.deleteProperty(process, 'resourcesPath');
    }
  });

  it.each([
    ['an unsigned build (no publisherName) only announces', '', 'notify'],
    ['a signed build (publisherName) installs', 'publisherName:\n  - Pictor Ltd\n', 'install'],
  ] as const)('on Windows, %s', async (_name, publisher, kind) => {
    const resources = join(world().dir, 'resources');
    await mkdir(resources, { recursive: true });
    await writeFile(
      join(resources, 'app-update.yml'),
      `provider: generic\nurl: ${world().feed.url}\nupdaterCacheDirName: pictor-updater\n${publisher}`,
    );
    Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { value: 'win32', configurable: true });
    try {
      const network = { fetch, clock: new ManualClock() };
      expect(createAppUpdater(world().electron.app, silentLogger, network).capability).toEqual({
        kind,
      });
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform);
      Reflect.deleteProperty(process, 'resourcesPath');
    }
  });

  it('has no updates in a copy that is not packaged', () => {
    world().electron.app.isPackaged = false;
    const network = { fetch, clock: new ManualClock() };
    expect(createAppUpdater(world().electron.app, silentLogger, network).capability).toEqual({
      kind: 'none',
      reason: 'development',
    });
  });
});
