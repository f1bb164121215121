/**
 * The Updater port on electron-updater: its version comparison (semver), its download (sha512
 * verified against the feed, a mismatch deleted) and its installers. The update service in
 * app/updates decides when; this file only translates. The feed is the one electron-builder
 * wrote into the packaged app (`app-update.yml`, from `publish` in electron-builder.yml); its
 * channel file is read by Pictor (checked-feed-provider.ts), never by electron-updater. The
 * requests carry no header of Pictor's (no key, no Authorization) and go through electron-updater's
 * own network session, apart from the service's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'electron';
import electronUpdater, {
  BaseUpdater,
  CancellationToken,
  MacUpdater,
  type AppUpdater,
  type ProgressInfo,
} from 'electron-updater';
import { downloadLink, type DownloadTarget } from '../app/updates/download-link';
import { readUpdateConfig, type UpdateConfig } from '../app/updates/release-feed';
import { updaterCapability, type MacSignature } from '../app/updates/update-capability';
import { describeUpdateError } from '../app/updates/update-problems';
import { boundDownloads, DeclaredSizes } from './bounded-download';
import { checkInstallers } from './checked-installer';
import { checkedFeedOptions, type FeedAccess } from './checked-feed-provider';
import { handToSquirrel } from './squirrel-handover';
import type { Logger } from '../ports/logger';
import type { UpdateOffer, Updater, UpdaterCapability } from '../ports/updater';

/** electron-updater's logger interface, onto the app's log (its lines name the feed, no secret). */
function updaterLog(logger: Logger): AppUpdater['logger'] {
  const line = (message: unknown): string => String(message).slice(0, 500);
  return {
    info: (message?: unknown) => logger.debug(`updater: ${line(message)}`),
    warn: (message?: unknown) => logger.info(`updater: ${line(message)}`),
    error: (message?: unknown) => logger.info(`updater: ${line(message)}`),
  };
}

/** electron-updater's own switches, as Pictor wants them. */
function configure(updater: AppUpdater, logger: Logger): void {
  // The update service decides when to download, when to restart and whether a download is
  // installed at quit (the port's installOnQuit).
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  updater.allowPrerelease = false;
  updater.disableWebInstaller = true;
  // Always the whole installer: a differential download first fetches two blockmaps, each read
  // whole into memory, gunzipped and parsed with no limit (a 4.7 MB blockmap took 2.1 GB). The
  // installer is checked against the feed's sha512 either way; only bandwidth is saved, and
  // Pictor's installers are small enough to fetch whole once per release.
  updater.disableDifferentialDownload = true;
  updater.logger = updaterLog(logger);
}

/** One electron-updater download, its progress reported and `signal` cancelling it. */
async function downloadOnce(
  updater: AppUpdater,
  onProgress: (fraction: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const listener = (info: ProgressInfo): void => onProgress(info.percent / 100);
  // electron-updater's cancellation rejects the download and empties its cache; the request
  // itself is closed by bounded-download.ts, which closes every download that fails.
  const token = new CancellationToken();
  const cancel = (): void => token.cancel();
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  updater.on('download-progress', listener);
  try {
    await updater.downloadUpdate(token);
  } finally {
    updater.off('download-progress', listener);
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The port over one electron-updater instance (the app's `autoUpdater`; the tests' own
 * NsisUpdater or DebUpdater against a loopback feed).
 */
export function wrapAppUpdater(
  updater: AppUpdater,
  capability: UpdaterCapability,
  logger: Logger,
  feed: FeedAccess & {
    /** The machine, for the file a copy that only announces updates links to (default: this). */
    readonly target?: DownloadTarget;
  },
): Updater {
  const target = feed.target ?? {
    platform: process.platform,
    arch: process.arch,
    linuxPackageType: null,
  };
  configure(updater, logger);
  let installOnQuit = false;
  /** A verified download is held (the last download resolved). */
  let downloaded = false;
  // Squirrel.Mac is handed a file as the download ends when this flag is set then, and once it
  // holds it, installs it at quit whatever is said later: for a MacUpdater the flag stays off
  // (its quitAndInstall then hands the file over itself) and the file is handed at quit only
  // while the user's setting wants it (beforeQuit).
  const quitFlag = (): boolean => installOnQuit && !(updater instanceof MacUpdater);
  // The installer is read no further than the size the checked feed declares, and refused
  // unless its own version is the one offered (an older release relabelled).
  const sizes = new DeclaredSizes();
  boundDownloads(updater, sizes, feed.clock);
  checkInstallers(updater);
  updater.setFeedURL(checkedFeedOptions(feed, updater, sizes));
  return {
    capability,
    async check(): Promise<UpdateOffer | null> {
      const result = await updater.checkForUpdates();
      if (!result?.isUpdateAvailable) return null;
      const { version, releaseNotes, files } = result.updateInfo;
      const link = capability.kind === 'notify' ? downloadLink(files, feed.url, target) : null;
      return { version, releaseNotes, ...(link === null ? {} : { downloadUrl: link }) };
    },
    async download(onProgress, signal): Promise<void> {
      if (capability.kind !== 'install')
        throw new Error('This copy of Pictor cannot install updates.');
      // NSIS (BaseUpdater) adds its quit handler as a download ends only if the flag is set
      // then, and it reads the flag again at quit: set for its sake, then the user's wish.
      updater.autoInstallOnAppQuit = updater instanceof BaseUpdater;
      downloaded = false;
      try {
        await downloadOnce(updater, onProgress, signal);
        downloaded = true;
      } finally {
        updater.autoInstallOnAppQuit = quitFlag();
      }
    },
    installOnQuit(allowed): void {
      installOnQuit = allowed && capability.kind === 'install';
      updater.autoInstallOnAppQuit = quitFlag();
    },
    async beforeQuit(): Promise<void> {
      if (!(updater instanceof MacUpdater) || !downloaded || !installOnQuit) return;
      await handToSquirrel(updater, feed.clock, logger);
    },
    quitAndInstall(): void {
      if (capability.kind !== 'install')
        throw new Error('This copy of Pictor cannot install updates.');
      // Silent (the installer asks nothing it asked at first install), and start again after.
      updater.quitAndInstall(true, true);
    },
  };
}

/** An updater that has nothing to do: the service shows "unavailable" and never calls it. */
function noUpdater(capability: UpdaterCapability): Updater {
  const refuse = (): never => {
    throw new Error('Updates are not available in this copy of Pictor.');
  };
  return {
    capability,
    check: refuse,
    download: refuse,
    installOnQuit: () => undefined,
    beforeQuit: () => Promise.resolve(),
    quitAndInstall: refuse,
  };
}

function readPackageType(resources: string): string | null {
  try {
    return readFileSync(join(resources, 'package-type'), 'utf8').trim().slice(0, 20);
  } catch {
    return null;
  }
}

/**
 * The app's updater: electron-updater's `autoUpdater` where this copy can update, else none.
 * `network` is how the channel file is fetched (the app: electron-updater's own session).
 */
export function createAppUpdater(
  app: Pick<App, 'isPackaged'>,
  logger: Logger,
  network: Pick<FeedAccess, 'fetch' | 'clock'>,
  /** macOS: the running app's signature (read at start); absent elsewhere. */
  macSignature?: MacSignature,
): Updater {
  const resources = process.resourcesPath;
  const hasUpdateConfig = app.isPackaged && existsSync(join(resources, 'app-update.yml'));
  let config: UpdateConfig | null = null;
  if (hasUpdateConfig) {
    try {
      config = readUpdateConfig(readFileSync(join(resources, 'app-update.yml'), 'utf8'));
    } catch (error) {
      logger.warn('no usable update feed in app-update.yml', {
        detail: describeUpdateError(error),
      });
      return noUpdater({ kind: 'none', reason: 'not_installed' });
    }
  }
  const linuxPackageType = app.isPackaged ? readPackageType(resources) : null;
  const capability = updaterCapability({
    packaged: app.isPackaged,
    platform: process.platform,
    hasUpdateConfig,
    linuxPackageType,
    ...(macSignature ? { macSignature } : {}),
    windowsPublisherNamed: (config?.publisherNames.length ?? 0) > 0,
  });
  if (capability.kind === 'none' || config === null) return noUpdater(capability);
  // `autoUpdater` is built on first read: never in development.
  return wrapAppUpdater(electronUpdater.autoUpdater, capability, logger, {
    ...network,
    url: config.url,
    channel: config.channel,
    target: { platform: process.platform, arch: process.arch, linuxPackageType },
  });
}
