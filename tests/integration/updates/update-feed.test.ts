/**
 * The app's updates against a real release feed on loopback: electron-updater's own NsisUpdater
 * and DebUpdater (its providers, semver comparison, blockmap fetch, download and sha512 check, as
 * shipped) behind the adapter (adapters/electron-updater.ts) and the update service
 * (core/updates). Only Electron itself is faked (tests/integration/updates/fake-electron.ts):
 * `app`, Squirrel's `autoUpdater`, and `net.request` carried by Node's http client.
 *
 * The channel file's name follows the OS the test runs on (`latest-linux.yml` here, `latest.yml`
 * on Windows): the feed answers every `latest*.yml` with the same YAML.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebUpdater, MacUpdater, NsisUpdater, type AppUpdater } from 'electron-updater';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateMode } from '../../../shared/domain/update-state';
import { createAppUpdater, wrapAppUpdater } from '../../../electron/adapters/electron-updater';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import { UpdateService } from '../../../electron/core/updates/update-service';
import { silentLogger } from '../../../electron/ports/logger';
import type { UpdaterCapability } from '../../../electron/ports/updater';
import { shell } from '../../../renderer/i18n/en/shell';
import { ManualClock } from '../../fakes/manual-clock';
import { FakeApp, installFakeElectron, type FakeElectron } from './fake-electron';
import { UpdateFeed, blockmapOf, channelFile, sha512Base64 } from './update-feed';

const INSTALLER = 'Pictor-Setup-0.2.0.exe';
const CHANNEL_FILES = ['/latest.yml', '/latest-linux.yml', `/latest-linux-${process.arch}.yml`];
/**
 * A service key in the process's environment (where a CLI user or CI may keep one): nothing of it
 * may reach the update feed. (The updater is given no key at all; this proves it takes none.)
 */
const API_KEY = `sk-live-${randomBytes(12).toString('hex')}`;

let dir: string;
let feed: UpdateFeed;
let electron: FakeElectron;
let savedCacheHome: string | undefined;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-updates-'));
  savedCacheHome = process.env['XDG_CACHE_HOME'];
  // electron-updater keeps downloads under the OS cache folder (XDG_CACHE_HOME on Linux).
  process.env['XDG_CACHE_HOME'] = join(dir, 'cache');
  process.env['PICTOR_API_KEY'] = API_KEY;
  feed = new UpdateFeed();
  await feed.start();
  electron = installFakeElectron(new FakeApp('0.1.0', join(dir, 'user-data')));
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  process.off('unhandledRejection', onUnhandled);
  electron.uninstall();
  await feed.stop();
  if (savedCacheHome === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = savedCacheHome;
  delete process.env['PICTOR_API_KEY'];
  await rm(dir, { recursive: true, force: true });
});

function serveRelease(options: { version: string; bytes: Buffer; sha512?: string }): void {
  const yaml = channelFile({
    ...options,
    file: INSTALLER.replace('0.2.0', options.version),
    releaseNotes: '<h2>Pictor 0.2.0</h2><ul><li>Faster gallery &amp; search</li></ul>',
  });
  for (const path of CHANNEL_FILES) feed.files.set(path, { body: yaml });
  const file = `/${INSTALLER.replace('0.2.0', options.version)}`;
  feed.files.set(file, { body: options.bytes });
  feed.files.set(`${file}.blockmap`, { body: blockmapOf(options.bytes) });
}

/** The app-update.yml electron-builder writes into the packaged app, pointing at `url`. */
async function updaterFor<T extends AppUpdater>(updater: T, url = feed.url): Promise<T> {
  const config = join(dir, 'app-update.yml');
  await writeFile(
    config,
    `provider: generic\nurl: ${url}\nupdaterCacheDirName: pictor-updater\npublisherName: null\n`,
  );
  updater.updateConfigPath = config;
  return updater;
}

interface Rig {
  readonly service: UpdateService;
  readonly installs: ReturnType<typeof vi.fn>;
  readonly warnings: string[];
}

function rig(
  updater: AppUpdater,
  capability: UpdaterCapability = { kind: 'install' },
  mode: UpdateMode = 'download',
): Rig {
  const warnings: string[] = [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message: string, fields?: object) =>
      void warnings.push(`${message} ${JSON.stringify(fields)}`),
    error: (message: string) => void warnings.push(message),
  };
  // The installer never runs in a test: quitAndInstall is watched, not executed.
  const installs = vi.fn();
  vi.spyOn(updater, 'quitAndInstall').mockImplementation(installs);
  const service = new UpdateService({
    updater: wrapAppUpdater(updater, capability, logger),
    clock: new ManualClock(),
    logger,
    mode: () => mode,
  });
  return { service, installs, warnings };
}

async function pendingFiles(): Promise<string[]> {
  return readdir(join(dir, 'cache', 'pictor-updater', 'pending')).catch(() => []);
}

describe('updates from a loopback feed through electron-updater', () => {
  it('offers a newer version, downloads it in the background, and installs only on "Restart to update"', async () => {
    const bytes = randomBytes(300_000);
    serveRelease({ version: '0.2.0', bytes });
    const { service, installs } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0', canInstall: true });
    expect(state.releaseNotes).toBe('Pictor 0.2.0\n• Faster gallery & search');
    // The blockmap was fetched for a differential download; with no earlier installer cached
    // the updater fell back to the whole file, which it checked against the feed's sha512.
    expect(feed.paths()).toContain(`/${INSTALLER}.blockmap`);
    expect(feed.paths()).toContain(`/${INSTALLER}`);
    const downloaded = await readFile(join(dir, 'cache', 'pictor-updater', 'pending', INSTALLER));
    expect(sha512Base64(downloaded)).toBe(sha512Base64(bytes));
    expect(installs).not.toHaveBeenCalled();

    service.restart();
    expect(installs).toHaveBeenCalledTimes(1);
    expect(installs).toHaveBeenCalledWith(true, true);
  });

  it.each(['0.1.0', '0.0.9'])('does not offer version %s to 0.1.0', async (version) => {
    serveRelease({ version, bytes: randomBytes(10_000) });
    const { service, installs } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state.status).toBe('idle');
    expect(state.version).toBeUndefined();
    expect(feed.paths().every((path) => path.endsWith('.yml'))).toBe(true);
    expect(feed.paths().length).toBeGreaterThan(0);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
  });

  it('refuses a download whose sha512 does not match the feed and installs nothing', async () => {
    const bytes = randomBytes(200_000);
    serveRelease({ version: '0.2.0', bytes, sha512: sha512Base64(randomBytes(200_000)) });
    const { service, installs, warnings } = rig(await updaterFor(new NsisUpdater()));

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'error', problem: 'checksum', version: '0.2.0' });
    expect(feed.paths()).toContain(`/${INSTALLER}`);
    expect(await pendingFiles()).not.toContain(INSTALLER);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
    // Nothing was left to install on quit either.
    expect(electron.app.listenerCount('quit')).toBe(0);
    expect(warnings.join('\n')).toContain('checksum');
  });

  it('only tells, when the user chose so, and downloads when asked', async () => {
    serveRelease({ version: '0.2.0', bytes: randomBytes(50_000) });
    const { service } = rig(await updaterFor(new NsisUpdater()), { kind: 'install' }, 'notify');

    expect(await service.checkNow()).toMatchObject({ status: 'available', version: '0.2.0' });
    expect(feed.paths()).not.toContain(`/${INSTALLER}`);

    expect(await service.download()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(feed.paths()).toContain(`/${INSTALLER}`);
  });

  it('macOS: hands the verified zip to Squirrel through the loopback proxy, installs on restart', async () => {
    const bytes = randomBytes(120_000);
    const zip = 'Pictor-0.2.0-mac.zip';
    const yaml = channelFile({ version: '0.2.0', file: zip, bytes });
    for (const path of CHANNEL_FILES) feed.files.set(path, { body: yaml });
    feed.files.set(`/${zip}`, { body: bytes });
    const updater = await updaterFor(new MacUpdater());
    const { service } = rig(updater);
    // On macOS quitAndInstall is Squirrel's: watched on the fake, not on electron-updater.
    vi.mocked(updater.quitAndInstall).mockRestore();

    const state = await service.checkNow();

    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(electron.autoUpdater.received?.equals(bytes)).toBe(true);
    expect(electron.autoUpdater.installs).toBe(0);
    service.restart();
    expect(electron.autoUpdater.installs).toBe(1);
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
    for (const path of CHANNEL_FILES) feed.files.set(path, { body: yaml });
    feed.files.set(`/${zip}`, { body: bytes });
    const updater = await updaterFor(new MacUpdater());
    const { service } = rig(updater);
    vi.mocked(updater.quitAndInstall).mockRestore();

    expect(await service.checkNow()).toMatchObject({ status: 'error', problem: 'checksum' });
    expect(electron.autoUpdater.feed).toBeNull();
    expect(electron.autoUpdater.received).toBeNull();
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(electron.autoUpdater.installs).toBe(0);
  });

  it('on a Linux package, announces the new version and downloads nothing', async () => {
    const bytes = randomBytes(20_000);
    const yaml = channelFile({ version: '0.2.0', file: 'pictor_0.2.0_amd64.deb', bytes });
    for (const path of CHANNEL_FILES) feed.files.set(path, { body: yaml });
    feed.files.set('/pictor_0.2.0_amd64.deb', { body: bytes });
    const { service, installs } = rig(await updaterFor(new DebUpdater()), { kind: 'notify' });

    const state = await service.checkNow();
    expect(state).toMatchObject({ status: 'available', version: '0.2.0', canInstall: false });
    expect((await service.download()).status).toBe('available');
    expect(feed.paths().some((path) => path.endsWith('.deb'))).toBe(false);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(installs).not.toHaveBeenCalled();
  });

  it('sends the feed no key, no Authorization header and no cookie', async () => {
    serveRelease({ version: '0.2.0', bytes: randomBytes(30_000) });
    const { service } = rig(await updaterFor(new NsisUpdater()));
    expect((await service.checkNow()).status).toBe('ready');

    expect(feed.requests.length).toBeGreaterThanOrEqual(3);
    // Only electron-updater's own headers (x-user-staging-id: its random rollout id).
    const allowed = [
      'accept',
      'cache-control',
      'connection',
      'host',
      'user-agent',
      'x-user-staging-id',
    ];
    for (const request of feed.requests) {
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
    ['a 404', () => Promise.resolve(feed.url), 'feed_missing'],
    [
      'a malformed channel file',
      () => {
        for (const path of CHANNEL_FILES)
          feed.files.set(path, { body: 'version: [0.2.0\nfiles: {{{' });
        return Promise.resolve(feed.url);
      },
      'feed_invalid',
    ],
    [
      'a channel file without a version',
      () => {
        for (const path of CHANNEL_FILES) feed.files.set(path, { body: 'files: []\n' });
        return Promise.resolve(feed.url);
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
    expect(unhandled).toEqual([]);
    expect(installs).not.toHaveBeenCalled();
    // The service keeps working: the next check runs (and fails the same way) without a crash.
    expect((await service.checkNow()).status).toBe('error');
  });
});

describe("the app's own updater (createAppUpdater) on an installed Linux package", () => {
  it('reads the feed electron-builder left beside the app and only announces', async () => {
    const bytes = randomBytes(20_000);
    const yaml = channelFile({ version: '0.2.0', file: 'pictor_0.2.0_amd64.deb', bytes });
    for (const path of CHANNEL_FILES) feed.files.set(path, { body: yaml });
    const resources = join(dir, 'resources');
    await mkdir(resources);
    await writeFile(
      join(resources, 'app-update.yml'),
      `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: pictor-updater\n`,
    );
    await writeFile(join(resources, 'package-type'), 'deb');
    Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
    try {
      const updater = createAppUpdater(electron.app, silentLogger);
      expect(updater.capability).toEqual({ kind: 'notify' });
      const service = new UpdateService({
        updater,
        clock: new ManualClock(),
        logger: silentLogger,
        mode: () => 'download',
      });

      expect(await service.checkNow()).toMatchObject({
        status: 'available',
        version: '0.2.0',
        canInstall: false,
      });
      expect(feed.paths().some((path) => path.startsWith('/latest'))).toBe(true);
      expect(feed.paths().some((path) => path.endsWith('.deb'))).toBe(false);
    } finally {
      Reflect.deleteProperty(process, 'resourcesPath');
    }
  });

  it('has no updates in a copy that is not packaged', () => {
    electron.app.isPackaged = false;
    expect(createAppUpdater(electron.app, silentLogger).capability).toEqual({
      kind: 'none',
      reason: 'development',
    });
  });
});
