/**
 * electron-updater's download, with the installer's own version checked before the file is kept
 * (installer-version.ts): the feed's label can dress an older signed installer as the
 * newer version. The check runs inside electron-updater's download task, after its sha512 check:
 * a refusal fails the task, so electron-updater deletes the file, keeps nothing in its cache,
 * adds no quit handler that would install it and hands nothing to Squirrel.Mac. A file from its
 * cache (downloaded and checked before) is not read again.
 */
import { MacUpdater, NsisUpdater, type AppUpdater } from 'electron-updater';
import { checkInstallerVersion, type InstallerFormat } from './installer-version';

/** What electron-updater's `executeDownload` is given (its types keep it protected). */
interface DownloadTask {
  readonly task: (destinationFile: string, ...rest: unknown[]) => Promise<unknown>;
  readonly downloadUpdateOptions: {
    readonly updateInfoAndProvider: { readonly info: { readonly version: string } };
  };
}

type Executes = { executeDownload(task: DownloadTask): Promise<unknown> };

/** The format of the installers `updater` runs, when it is one read (by the updater's kind: a
 * file's name from the feed says nothing, Windows runs a PE file whatever its name). */
function formatOf(updater: AppUpdater): InstallerFormat | null {
  if (updater instanceof NsisUpdater) return 'pe';
  return updater instanceof MacUpdater ? 'zip' : null;
}

/** Makes every download of `updater` check its installer's version, where it can be read. */
export function checkInstallers(updater: AppUpdater): void {
  const format = formatOf(updater);
  if (format === null) return;
  const target = updater as unknown as Executes;
  const execute = target.executeDownload.bind(updater);
  target.executeDownload = (options) =>
    execute({
      ...options,
      task: async (destinationFile, ...rest) => {
        const result = await options.task(destinationFile, ...rest);
        const { version } = options.downloadUpdateOptions.updateInfoAndProvider.info;
        await checkInstallerVersion(destinationFile, format, version);
        return result;
      },
    });
}
