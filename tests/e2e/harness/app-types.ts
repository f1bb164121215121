/** The harness's public types (re-exported by launch-app.ts), shared by both hosts. */
import type { Page } from '@playwright/test';
import type { Host } from './host';

export interface LaunchOptions {
  /** App data (history, settings, vault, logs). */
  userDataDir: string;
  /** Default gallery folder (PICTOR_GALLERY_DIR). */
  galleryDir: string;
  /** Extra env (e.g. PICTOR_DEMO_DURATION_MS, PICTOR_POLL_INTERVAL_MS). */
  env?: Record<string, string>;
  colorScheme?: 'light' | 'dark';
  /**
   * The system language the window reports (navigator.language), e.g. `de-DE`; default en-US. The
   * Electron host passes it to `--lang` as a bare language on macOS (electron-host.ts' langSwitch).
   */
  locale?: string;
  /** Default 1280x800. */
  viewport?: { width: number; height: number };
  /**
   * Chromium host: serve the window and its gallery files over HTTP/2 (one connection, like
   * Electron's protocol handlers) instead of HTTP/1.1 (at most 6 at once). See app-server.ts.
   */
  http2?: boolean;
  /**
   * Chromium host: default true. False leaves out the navigation guard's Playwright route, which
   * holds every request of the page (each thumbnail) until the harness's Node process lets it go
   * (window-guards.ts); for a benchmark that navigates nowhere.
   */
  guardNavigation?: boolean;
  /**
   * Chromium host only: PEM certificates added to the C2PA trust list Pictor ships, so that images
   * signed under them (tests/fixtures/c2pa/test-ca.pem) verify as a trusted signer's. The Electron
   * host runs the app's own main process, which trusts the shipped list alone: it refuses this.
   */
  extraTrustAnchors?: string;
  /**
   * Chromium host only: a script every page of the app runs before its own, the first window's
   * included (the start-up benchmark marks a cold start's first interactive frame with it). The
   * Electron host opens its first window before a script could be added: it refuses this.
   */
  initScript?: string;
}

export interface RestartOptions {
  /**
   * Wait until the sidebar is drawn before returning (default). The start-up benchmark passes
   * false and times the page itself, so Playwright's selector polling does not run in the page
   * while it starts.
   */
  waitForShell?: boolean;
  /**
   * Runs after the app has quit and before it starts again: the files are closed, so a test can
   * change them as a user could between two launches (the start-up benchmark swaps histories).
   */
  whileClosed?: () => void | Promise<void>;
}

export interface LaunchedApp {
  readonly host: Host;
  /** The app window, shown and loaded (a new page after `restart()`). */
  page: Page;
  /** Closes the app as a user would (tasks keep their ids) and starts it again on the same folders. */
  restart(options?: RestartOptions): Promise<Page>;
  /**
   * Everything main sent to the page over IPC (Results and events), as JSON text, in order: the
   * chromium host only ([] on electron). A spec reads it only behind `host === 'chromium'`, or in
   * a spec skipped on other hosts (tests/unit/e2e/host-only-calls.test.ts fails any other use).
   */
  ipcPayloads(): string[];
  /**
   * The OS calls the app made, in order. Both hosts record {@link RECORDED_ON_EVERY_HOST}; the
   * chromium host's stand-ins also record copyImage, saveAs, startDrag,
   * confirmKeyOrigin…, which a spec reads only behind a host guard (same test).
   */
  osCalls(): { action: string; arg: string }[];
  /**
   * Moves the app's clock `ms` ahead: the chromium host only, whose "main process" runs on a clock
   * the harness holds (app-clock.ts); the Electron host's is the system's and this throws. A spec
   * calls it only behind a host guard (same lint), and lets real time pass on the other host.
   */
  advanceClock(ms: number): void;
  /**
   * Tells the app the computer went offline (false) or back online (true), as main's network
   * watch does (electron/adapters/power-and-network.ts, 'network:changed'): the chromium host only,
   * whose "main process" has no network watch of its own; the Electron host's follows the real
   * network and this throws. A spec calls it only behind a host guard (same lint).
   */
  setNetworkOnline(online: boolean): void;
  close(): Promise<void>;
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * The OS calls both hosts record under these names: the chromium host's stand-ins
 * (os-stand-ins.ts), and on real Electron the main process's recorder (electron-os-recorder.ts),
 * main's own dialogs included (electron-dialog-stand-ins.ts), answered from the same variables.
 */
export const RECORDED_ON_EVERY_HOST = [
  'reveal',
  'trash',
  'openExternal',
  'copyText',
  'chooseFolder',
  'chooseInputImage',
  'chooseExportFile',
  'chooseImportSource',
] as const;

/** The environment the app process sees: the test's, the two folders, then the extras. */
export function appEnvironment(options: LaunchOptions): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return {
    ...inherited,
    PICTOR_USER_DATA_DIR: options.userDataDir,
    PICTOR_GALLERY_DIR: options.galleryDir,
    ...options.env,
  };
}

/** Waits until the renderer has drawn its frame (the sidebar): the window is usable. */
export async function waitForAppShell(page: Page): Promise<void> {
  // By role alone: the sidebar's name is in the window's language.
  await page.getByRole('navigation').first().waitFor({ state: 'visible' });
}
