/**
 * The app's own updater: asks the release feed for a newer version, downloads it (checked against
 * the feed's sha512) and installs it on a restart. The update service (app/updates) drives it and
 * owns the state; the adapter (adapters/electron-updater.ts) wraps electron-updater. Nothing of the
 * API key, the service or the library passes through it.
 */

/** What the feed offers when it has a version newer than this one. */
export interface UpdateOffer {
  /** The feed's version, already found newer than the running one. */
  readonly version: string;
  /** The release notes as the feed gave them (text or HTML, or per-version notes); not trusted. */
  readonly releaseNotes: unknown;
  /**
   * Where to get it by hand, for a copy that only announces updates (see download-link.ts): an
   * https file of the release on the feed's origin. Stays in the main process; the page only
   * learns whether there is one.
   */
  readonly downloadUrl?: string;
}

/**
 * How far this copy of the app can update itself:
 * - `install`: check, download, restart into the new version (macOS zip/dmg, Windows NSIS);
 * - `notify`: check and announce only; the package manager installs (Linux deb and rpm);
 * - `none`: no updates at all (development runs, builds without a feed).
 */
export type UpdaterCapability =
  | { readonly kind: 'install' }
  | { readonly kind: 'notify' }
  | { readonly kind: 'none'; readonly reason: 'development' | 'not_installed' };

export interface Updater {
  readonly capability: UpdaterCapability;
  /**
   * Asks the feed. Resolves the newer version, or `null` when the feed's is older or the same.
   * Never downloads.
   * @throws whatever the feed or the network did (the service turns it into one sentence).
   */
  check(): Promise<UpdateOffer | null>;
  /**
   * Downloads the version the last {@link check} offered and verifies its sha512; resolves once
   * it is ready to install. A file that does not match is deleted, never installed.
   * @param onProgress the fraction done, 0–1.
   * @param signal stops the download: it then rejects, its request closed and nothing kept.
   */
  download(onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void>;
  /**
   * Whether a downloaded version is installed when the app quits (the service says so as the
   * user's setting changes: only while it is "download in the background"). A version the user
   * chose to install ({@link quitAndInstall}) is installed either way.
   */
  installOnQuit(allowed: boolean): void;
  /**
   * The app is quitting: where the OS's installer must hold a downloaded version before the app
   * ends (Squirrel.Mac), it is handed it now, if {@link installOnQuit} allows. Resolves once
   * that is done, failed or gave up (bounded); never rejects.
   */
  beforeQuit(): Promise<void>;
  /** Quits the app and installs the downloaded version, which then starts. */
  quitAndInstall(): void;
}
