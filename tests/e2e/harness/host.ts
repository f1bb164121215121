/**
 * Which host runs the journeys: real Electron when a binary exists (ELECTRON_OVERRIDE_DIST_PATH,
 * or an installed node_modules/electron/dist), Debian's Chromium otherwise.
 * PICTOR_E2E_HOST=chromium forces Chromium; PICTOR_E2E_HOST=electron insists on Electron.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo-paths';
import { findOnPath } from '../../support/tools';

/** Where the journeys run. */
export type Host = 'chromium' | 'electron';

/**
 * PICTOR_E2E_CHROMIUM (CI sets it to Playwright's browser), else the system's `chromium` on PATH
 * (Debian's here; Playwright's own browsers are not downloaded here).
 */
export const CHROMIUM_PATH =
  process.env.PICTOR_E2E_CHROMIUM ??
  findOnPath('chromium') ??
  findOnPath('chromium-browser') ??
  'chromium';

/**
 * The features Playwright's own launch disables (its chromiumSwitches.ts). Chromium keeps only the
 * last `--disable-features` it is given, and Playwright puts ours after its own, so ours repeats
 * them or they would be enabled again. tests/integration/chromium/chromium-args.test.ts launches Chromium
 * and checks that the switch Chromium keeps names every feature any earlier one did.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's own omnibox popup is a WebUI page (lit, its composebox) that every new tab starts in
 * a renderer of its own, competing with the app's start on 2 cores (a trace showed more CPU there
 * than in the app's page). An Electron window has no omnibox.
 */
const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup'];

/** Flags for a quiet, headless, sandbox-less Chromium in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
];

/** The executable's path inside an Electron dist folder, per platform. */
function executableIn(dist: string): string {
  // The electron package records it in path.txt once installed; the same names otherwise.
  const recorded = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (existsSync(recorded)) return join(dist, readFileSync(recorded, 'utf8').trim());
  const platform = process.platform;
  if (platform === 'darwin') return join(dist, 'Electron.app', 'Contents', 'MacOS', 'Electron');
  if (platform === 'win32') return join(dist, 'electron.exe');
  return join(dist, 'electron');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The Electron binary to launch, or null when there is none on this machine. */
export function electronExecutable(env: NodeJS.ProcessEnv = process.env): string | null {
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override
    ? executableIn(override)
    : executableIn(join(REPO_ROOT, 'node_modules', 'electron', 'dist'));
  return isFile(candidate) ? candidate : null;
}

/** The host this run uses. @throws when PICTOR_E2E_HOST=electron and there is no binary. */
export function hostName(env: NodeJS.ProcessEnv = process.env): Host {
  const wanted = env.PICTOR_E2E_HOST;
  if (wanted === 'chromium') return 'chromium';
  const electron = electronExecutable(env);
  if (wanted === 'electron' && !electron) {
    throw new Error(
      'PICTOR_E2E_HOST=electron, but no Electron binary was found: set ELECTRON_OVERRIDE_DIST_PATH to an Electron dist folder.',
    );
  }
  return electron ? 'electron' : 'chromium';
}

/** The line the suite prints once, saying which host ran. */
export function hostLine(env: NodeJS.ProcessEnv = process.env): string {
  if (hostName(env) === 'electron') return `e2e host: electron (${electronExecutable(env) ?? '?'})`;
  return electronExecutable(env)
    ? 'e2e host: chromium (PICTOR_E2E_HOST=chromium)'
    : 'e2e host: chromium (no Electron binary found)';
}
