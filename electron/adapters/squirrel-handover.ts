/**
 * Squirrel.Mac, handed a downloaded version, installs it as the app ends whatever the app says
 * later; electron-updater's MacUpdater hands it over as the download ends when
 * `autoInstallOnAppQuit` is set then. Pictor keeps that flag off for MacUpdater and hands the
 * version over only at quit, while the user's setting is "download in the background"
 * (electron-updater.ts's beforeQuit), or on "Restart to update" (MacUpdater's quitAndInstall).
 */
import type { MacUpdater } from 'electron-updater';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';

/**
 * How long a quit waits for Squirrel.Mac to take the downloaded version from MacUpdater: it
 * unpacks the zip and checks the app's signature before it says so (seconds for a large app on a
 * slow disk). The quit's other steps run meanwhile (desktop-host.ts), within its overall limit.
 */
export const SQUIRREL_HANDOVER_MS = 30_000;

/** Squirrel's side of MacUpdater (Electron's `autoUpdater`; its types keep it private). */
interface NativeUpdater {
  checkForUpdates(): void;
  once(event: 'update-downloaded' | 'error', listener: () => void): unknown;
  off(event: 'update-downloaded' | 'error', listener: () => void): unknown;
}

/**
 * Has Squirrel.Mac fetch the downloaded zip from MacUpdater's loopback server (still serving it
 * since the download ended); it installs it as the app ends. Resolves once it holds it, or said
 * it failed, or {@link SQUIRREL_HANDOVER_MS} passed: the quit goes ahead either way.
 */
export function handToSquirrel(updater: MacUpdater, clock: Clock, logger: Logger): Promise<void> {
  const mac = updater as unknown as {
    readonly nativeUpdater: NativeUpdater;
    /** Squirrel said it holds the version (the user's "Restart to update" handed it over). */
    readonly squirrelDownloadedUpdate: boolean;
  };
  const native = mac.nativeUpdater;
  if (mac.squirrelDownloadedUpdate) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const end = (outcome: string): void => {
      clock.clearTimeout(timer);
      native.off('update-downloaded', held);
      native.off('error', failed);
      logger.info('the downloaded update at quit', { outcome });
      resolve();
    };
    const held = (): void => end('handed to Squirrel.Mac');
    const failed = (): void => end('Squirrel.Mac refused it');
    const timer = clock.setTimeout(
      () => end('Squirrel.Mac did not take it in time'),
      SQUIRREL_HANDOVER_MS,
    );
    native.once('update-downloaded', held);
    native.once('error', failed);
    try {
      native.checkForUpdates();
    } catch {
      failed();
    }
  });
}
