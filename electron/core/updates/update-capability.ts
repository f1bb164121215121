/**
 * Whether this copy of Pictor can update itself, from facts the host reads (packaged or not, the
 * OS, the files electron-builder leaves beside the app). Electron-free so every case is tested.
 */
import type { UpdaterCapability } from '../../ports/updater';

export interface InstallFacts {
  /** `app.isPackaged`: false in development and in the test harnesses. */
  readonly packaged: boolean;
  readonly platform: NodeJS.Platform;
  /** electron-builder wrote `app-update.yml` (the feed) beside the app: installed from a release. */
  readonly hasUpdateConfig: boolean;
  /** `resources/package-type` of a Linux package (`deb`, `rpm`), or null. */
  readonly linuxPackageType: string | null;
  /** Started from an AppImage (`APPIMAGE` is set). */
  readonly appImage: boolean;
}

export function updaterCapability(facts: InstallFacts): UpdaterCapability {
  if (!facts.packaged) return { kind: 'none', reason: 'development' };
  if (!facts.hasUpdateConfig) return { kind: 'none', reason: 'not_installed' };
  if (facts.platform === 'darwin' || facts.platform === 'win32') return { kind: 'install' };
  if (facts.platform === 'linux') {
    if (facts.appImage) return { kind: 'install' };
    // electron-updater could install a deb or rpm, but only as root through a shell command
    // (pkexec or sudo, and apt's --allow-unauthenticated as a fallback); Pictor leaves that to the
    // system's package manager and only says that a new version is out.
    if (facts.linuxPackageType === 'deb' || facts.linuxPackageType === 'rpm')
      return { kind: 'notify' };
  }
  return { kind: 'none', reason: 'not_installed' };
}
