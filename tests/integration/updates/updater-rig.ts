/**
 * What every update test sets up: a temporary folder (electron-updater's cache under it), a feed
 * on loopback, the Electron fake, an updater pointed at the feed through the app-update.yml
 * electron-builder writes, and the update service over the adapter on a manual clock. Unhandled
 * rejections and uncaught exceptions are collected, so a test can say that none happened.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import { vi } from 'vitest';
import type { UpdateMode } from '../../../shared/domain/update-state';
import { wrapAppUpdater } from '../../../electron/adapters/electron-updater';
import { UpdateService } from '../../../electron/app/updates/update-service';
import type { UpdaterCapability } from '../../../electron/ports/updater';
import { ManualClock } from '../../fakes/manual-clock';
import { perTest } from '../../support/per-test';
import { onProcessForTest, setEnvForTest } from '../../support/undone-after-test';
import { FakeApp, installFakeElectron, type FakeElectron } from './fake-electron';
import { UpdateFeed, type ServedFile } from './update-feed';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Every name electron-updater may ask for on the OS the test runs on. */
export const CHANNEL_FILES = [
  '/latest.yml',
  '/latest-linux.yml',
  `/latest-linux-${process.arch}.yml`,
];

export interface UpdaterWorld {
  readonly dir: string;
  readonly feed: UpdateFeed;
  readonly electron: FakeElectron;
  /** Unhandled rejections and uncaught exceptions seen during the test. */
  readonly escaped: unknown[];
}

export interface Rig {
  readonly service: UpdateService;
  readonly installs: ReturnType<typeof vi.fn>;
  readonly warnings: string[];
  readonly clock: ManualClock;
}

/**
 * A world made before each test and ended after it (tests/support/per-test.ts); the getter gives
 * the current one. Its environment variables, escaped-error listeners and the Electron fake are
 * the process's until the test ends (tests/support/undone-after-test.ts), so files that use it
 * may share a process.
 */
export function useUpdaterWorld(env: Record<string, string> = {}): () => UpdaterWorld {
  return perTest(
    'updaterWorld',
    async () => {
      const dir = await tempFolder('updates');
      // electron-updater keeps downloads under the OS cache folder (XDG_CACHE_HOME on Linux).
      for (const [name, value] of Object.entries({ ...env, XDG_CACHE_HOME: join(dir, 'cache') })) {
        setEnvForTest(name, value);
      }
      const feed = new UpdateFeed();
      await feed.start();
      const electron = installFakeElectron(new FakeApp('0.1.0', join(dir, 'user-data')));
      const escaped: unknown[] = [];
      const onEscape = (reason: unknown): void => void escaped.push(reason);
      onProcessForTest('unhandledRejection', onEscape);
      onProcessForTest('uncaughtException', onEscape);
      return { dir, feed, electron, escaped };
    },
    async ({ dir, feed }) => {
      await feed.stop();
      await removeFolder(dir);
    },
  );
}

/** Serves `file` under every channel file name. */
export function serveChannelFile(feed: UpdateFeed, file: ServedFile): void {
  for (const path of CHANNEL_FILES) feed.files.set(path, file);
}

/** The feed each updater was given (app-update.yml's `url`). */
const feedUrls = new WeakMap<AppUpdater, string>();

/** The app-update.yml electron-builder writes into the packaged app, pointing at `url`. */
export async function updaterFor<T extends AppUpdater>(
  world: UpdaterWorld,
  updater: T,
  url = world.feed.url,
): Promise<T> {
  const config = join(world.dir, 'app-update.yml');
  await writeFile(
    config,
    `provider: generic\nurl: ${url}\nupdaterCacheDirName: pictor-updater\npublisherName: null\n`,
  );
  updater.updateConfigPath = config;
  feedUrls.set(updater, url);
  return updater;
}

/** The update service over the adapter over `updater`, with a logger that keeps warnings. */
export function rig(
  updater: AppUpdater,
  capability: UpdaterCapability = { kind: 'install' },
  /** The user's setting, or a function that reads it at each decision (a test that changes it). */
  mode: UpdateMode | (() => UpdateMode) = 'download',
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
  const clock = new ManualClock();
  const url = feedUrls.get(updater);
  if (url === undefined) throw new Error('Give the updater a feed first (updaterFor).');
  const service = new UpdateService({
    updater: wrapAppUpdater(updater, capability, logger, { url, fetch, clock }),
    clock,
    logger,
    mode: typeof mode === 'function' ? mode : () => mode,
  });
  return { service, installs, warnings, clock };
}
