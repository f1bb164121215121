/**
 * electron-updater's download, with the installer's own version checked before the file is kept
 * (installer-version.ts): the feed's label can dress an older signed installer as the
 * newer version. The check runs inside electron-updater's download task, after its sha512 check:
 * a refusal fails the task, so electron-updater deletes the file, keeps nothing in its cache,
 * adds no quit handler that would install it and hands nothing to Squirrel.Mac.
 *
 * A file electron-updater takes from its pending cache instead (the same sha512, downloaded
 * before by this run or by an earlier Pictor that did not read versions) skips that task, and
 * would go straight to the quit handler or to Squirrel.Mac: it is read as the cache hands it
 * over (the cache helper's `validateDownloadedPath`), and a refused one fails the download with
 * the rest of the pending cache deleted. An updater whose installers Pictor cannot read
 * (anything but NSIS and Squirrel.Mac) keeps nothing.
 */
import { MacUpdater, NsisUpdater, type AppUpdater } from 'electron-updater';
import { ERR_INSTALLER_VERSION } from '../app/updates/update-problems';
import { checkInstallerVersion, type InstallerFormat } from './installer-version';

/** What electron-updater's `executeDownload` is given (its types keep it protected). */
interface DownloadTask {
  readonly task: (destinationFile: string, ...rest: unknown[]) => Promise<unknown>;
  readonly downloadUpdateOptions: {
    readonly updateInfoAndProvider: { readonly info: { readonly version: string } };
  };
}

/** electron-updater's pending cache (DownloadedUpdateHelper). */
interface PendingCache {
  validateDownloadedPath(
    file: string,
    info: { readonly version: string },
    ...rest: unknown[]
  ): Promise<string | null>;
  clear(): Promise<void>;
}

interface Executes {
  executeDownload(task: DownloadTask): Promise<unknown>;
  getOrCreateDownloadHelper(): Promise<PendingCache>;
}

/** The format of the installers `updater` runs, when it is one read (by the updater's kind: a
 * file's name from the feed says nothing, Windows runs a PE file whatever its name). */
function formatOf(updater: AppUpdater): InstallerFormat | null {
  if (updater instanceof NsisUpdater) return 'pe';
  return updater instanceof MacUpdater ? 'zip' : null;
}

/** Makes every download of `updater` check its installer's version, where it can be read. */
export function checkInstallers(updater: AppUpdater): void {
  const format = formatOf(updater);
  const target = updater as unknown as Executes;
  const execute = target.executeDownload.bind(updater);
  target.executeDownload = (options) => {
    if (format === null) {
      const message = 'Pictor cannot read the version of this kind of installer.';
      return Promise.reject(Object.assign(new Error(message), { code: ERR_INSTALLER_VERSION }));
    }
    const { version } = options.downloadUpdateOptions.updateInfoAndProvider.info;
    return execute({
      ...options,
      task: async (destinationFile, ...rest) => {
        const result = await options.task(destinationFile, ...rest);
        await checkInstallerVersion(destinationFile, format, version);
        return result;
      },
    });
  };
  if (format === null) return;
  const helperOf = target.getOrCreateDownloadHelper.bind(updater);
  const read = new WeakSet<PendingCache>();
  target.getOrCreateDownloadHelper = async () => {
    const cache = await helperOf();
    if (read.has(cache)) return cache;
    read.add(cache);
    const validate = cache.validateDownloadedPath.bind(cache);
    cache.validateDownloadedPath = async (file, info, ...rest) => {
      const cached = await validate(file, info, ...rest);
      if (cached === null) return null;
      try {
        await checkInstallerVersion(cached, format, info.version);
      } catch (error) {
        await cache.clear();
        throw error;
      }
      return cached;
    };
    return cache;
  };
}
