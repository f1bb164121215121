/**
 * Whether this copy of Pictor can update itself, from facts the host reads (packaged or not, the
 * OS, the files electron-builder leaves beside the app, the macOS signature). Electron-free so
 * every case is tested.
 */
import type { CodeSignatureReader, CodesignRun } from '../../ports/code-signature';
import type { UpdaterCapability } from '../../ports/updater';

/**
 * What codesign says of the running macOS app: `valid` is a real identity's signature (Developer
 * ID); `ad-hoc` (what an unsigned build gets on Apple silicon) and `unsigned` cannot take an
 * update through Squirrel.Mac; `invalid` was changed after signing; `unknown`: codesign did not
 * answer.
 */
export type MacSignature = 'valid' | 'ad-hoc' | 'unsigned' | 'invalid' | 'unknown';

export interface InstallFacts {
  /** `app.isPackaged`: false in development and in the test harnesses. */
  readonly packaged: boolean;
  readonly platform: NodeJS.Platform;
  /** electron-builder wrote `app-update.yml` (the feed) beside the app: installed from a release. */
  readonly hasUpdateConfig: boolean;
  /** `resources/package-type` of a Linux package (`deb`, `rpm`), or null. */
  readonly linuxPackageType: string | null;
  /** macOS: the running app's signature ({@link readMacSignature}); absent: not checked. */
  readonly macSignature?: MacSignature;
  /**
   * Windows: app-update.yml names the publisher an update's installer must be signed by
   * (electron-builder writes it for a signed build only); absent: not checked.
   */
  readonly windowsPublisherNamed?: boolean;
}

export function updaterCapability(facts: InstallFacts): UpdaterCapability {
  if (!facts.packaged) return { kind: 'none', reason: 'development' };
  if (!facts.hasUpdateConfig) return { kind: 'none', reason: 'not_installed' };
  // NsisUpdater runs a downloaded installer after checking its sha512 against the feed and its
  // Authenticode publisher against app-update.yml's publisherName; an unsigned build has none,
  // and then nothing but the feed vouches for the installer. Such a copy only announces, as a
  // Linux package does, and the user downloads the installer the way they got this one.
  if (facts.platform === 'win32')
    return facts.windowsPublisherNamed === true ? { kind: 'install' } : { kind: 'notify' };
  // Squirrel.Mac installs only over a signature of the same identity; anything less (ad hoc,
  // none, not checked) would download the update and then fail at "Restart to update".
  if (facts.platform === 'darwin')
    return facts.macSignature === 'valid' ? { kind: 'install' } : { kind: 'notify' };
  if (facts.platform === 'linux') {
    // No AppImage is built (electron-builder.yml), so `APPIMAGE` says nothing of this copy: it is
    // inherited by whatever a program run as an AppImage starts (a terminal, a launcher). Trusted,
    // it made a deb or rpm install (electron-updater's DebUpdater, as root through pkexec), and a
    // copy without a package type overwrite that other program's file with Pictor's. The package
    // type electron-builder writes beside the app decides alone.
    // electron-updater could install a deb or rpm, but only as root through a shell command
    // (pkexec or sudo, and apt's --allow-unauthenticated as a fallback); Pictor leaves that to the
    // system's package manager and only says that a new version is out.
    if (facts.linuxPackageType === 'deb' || facts.linuxPackageType === 'rpm')
      return { kind: 'notify' };
  }
  return { kind: 'none', reason: 'not_installed' };
}

/** The signature of `codesign`'s two answers (see {@link CodeSignatureReader}). */
export function classifySignature(verify: CodesignRun, display: CodesignRun): MacSignature {
  if (verify.status === null || display.status === null) return 'unknown';
  if (verify.status !== 0) return /not signed at all/.test(verify.output) ? 'unsigned' : 'invalid';
  if (/^Signature=adhoc$/m.test(display.output) || /^TeamIdentifier=not set$/m.test(display.output))
    return 'ad-hoc';
  return /^TeamIdentifier=\w+$/m.test(display.output) && /^Authority=/m.test(display.output)
    ? 'valid'
    : 'unknown';
}

/** The running app's signature: `bundle` is the `.app` folder. */
export async function readMacSignature(
  bundle: string,
  reader: CodeSignatureReader,
): Promise<MacSignature> {
  const [verify, display] = await Promise.all([reader.verify(bundle), reader.display(bundle)]);
  return classifySignature(verify, display);
}
