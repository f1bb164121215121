/**
 * The Electron host: the built app launched by Playwright's `_electron` from the run's test build
 * (tests/support/test-build.ts: `npm run build` into a temporary folder laid out like the
 * repository), on the given folders through PICTOR_USER_DATA_DIR / PICTOR_GALLERY_DIR.
 * The page is the app's real main window, picked and sized by its page's address
 * (main-window.ts), never by the order windows opened in; IPC is Electron's own, so the harness records none of it
 * (ipcPayloads is empty). The OS calls made through `shell` and `clipboard` are recorded by a
 * test-only preload of the main process (electron-os-recorder.ts), named as the chromium host
 * names them (RECORDED_ON_EVERY_HOST); it answers main's open and save dialogs as the chromium
 * host does, from the same PICTOR_E2E_* variables (cancelled by default), and records them too.
 *
 * The development binary runs with `--use-mock-keychain`: on macOS its safeStorage then never
 * touches the login keychain, so the journeys create no "Pictor Safe Storage" item that the
 * installed app (another code identity) would later have to ask the user about.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import { buildSync } from 'esbuild';
import {
  DEFAULT_VIEWPORT,
  appEnvironment,
  waitForAppShell,
  type LaunchedApp,
  type LaunchOptions,
  type RestartOptions,
} from './app-types';
import type { OsCall } from './os-stand-ins';
import { currentTestBuild } from '../../support/test-build';
import { REPO_ROOT } from './repo-paths';
import { mainWindow } from './main-window';
import { windowSizeProblem } from './screen-fit';
import { systemClock } from '../../../electron/adapters/system-clock';
import { APP_ENTRY_URL } from '../../../electron/app/protocol/schemes';
import { tempFolderSync } from '../../support/temp-folders';

/**
 * The command line of the app, whose folder is the test build's: the OS-call recorder preloaded
 * (`-r`, read by Electron's default app), the mock keychain, and Chromium's sandbox off for root
 * (its setuid helper is missing in a container).
 */
export function electronArgs(
  appDir: string,
  recorder: string,
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
): string[] {
  return [
    '--use-mock-keychain',
    ...(platform === 'linux' && uid === 0 ? ['--no-sandbox'] : []),
    '-r',
    recorder,
    appDir,
  ];
}

/** Chromium's pseudo-locales: tags whose region is the whole point. */
const PSEUDO_LOCALES = new Set(['en-XA', 'ar-XB']);

/**
 * Chromium's `--lang` switch for a journey's system language. On macOS Electron wants a bare
 * language there (`de`, not `de-DE`); elsewhere, and for a pseudo-locale, the tag goes as it is.
 */
export function langSwitch(locale: string, platform: NodeJS.Platform = process.platform): string {
  const bare = platform === 'darwin' && !PSEUDO_LOCALES.has(locale);
  return `--lang=${bare ? (locale.split(/[-_]/)[0] ?? locale) : locale}`;
}

/** The app's environment: ELECTRON_RUN_AS_NODE would make the binary a plain Node. */
export function electronEnv(options: LaunchOptions, osCalls: string): Record<string, string> {
  const env = appEnvironment(options);
  delete env.ELECTRON_RUN_AS_NODE;
  return { ...env, PICTOR_E2E_OS_CALLS: osCalls };
}

let recorderFile: string | null = null;

/** The recorder, bundled to CommonJS once per worker (Electron preloads it with `require`). */
function osRecorder(): string {
  if (recorderFile) return recorderFile;
  const file = join(tempFolderSync('os-recorder'), 'os-recorder.cjs');
  buildSync({
    entryPoints: [join(REPO_ROOT, 'tests', 'e2e', 'harness', 'electron-os-recorder.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['electron'],
    logLevel: 'warning',
  });
  recorderFile = file;
  return file;
}

/** The calls recorded so far, the recorder's own line left out. */
function readOsCalls(file: string): OsCall[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as OsCall)
    .filter((call) => call.action !== 'recorder');
}

/**
 * Sizes the main window's content (found by its page's address, never as the first window: the
 * hidden image window can be that) and checks it got that size: a screen too small for it
 * (Windows runners start at 1024x768, virtual Macs have had 1176x694) would otherwise fail a
 * layout journey for the runner's sake, so the failure names the screen's work area.
 */
async function sizeWindow(app: ElectronApplication, size: { width: number; height: number }) {
  const got = await app.evaluate(
    ({ BrowserWindow, screen }, { wanted, entry }) => {
      const window = BrowserWindow.getAllWindows().find(
        (candidate) => candidate.webContents.getURL().split(/[?#]/)[0] === entry,
      );
      if (!window) return null;
      window.setContentSize(wanted.width, wanted.height);
      const [width = 0, height = 0] = window.getContentSize();
      const area = screen.getDisplayMatching(window.getBounds()).workAreaSize;
      return { width, height, workArea: { width: area.width, height: area.height } };
    },
    { wanted: size, entry: APP_ENTRY_URL },
  );
  if (!got) throw new Error(`No window shows ${APP_ENTRY_URL}: there is no main window to size.`);
  const problem = windowSizeProblem(got, size, got.workArea, process.platform);
  if (problem) throw new Error(problem);
}

export async function launchElectronApp(
  options: LaunchOptions,
  executablePath: string,
): Promise<LaunchedApp> {
  if (options.extraTrustAnchors) {
    throw new Error(
      'The Electron host runs the app’s own main process: it trusts the shipped list alone.',
    );
  }
  if (options.initScript !== undefined) {
    throw new Error(
      'The Electron host opens its first window before an init script could be added.',
    );
  }
  let app: ElectronApplication | null = null;
  let page: Page | null = null;
  // One record for the test's every launch, as the chromium host keeps its calls across restarts.
  const osCalls = join(tempFolderSync('os-calls'), 'os-calls.jsonl');
  writeFileSync(osCalls, '');
  const open = async (waitForShell = true): Promise<Page> => {
    const launched = await _electron.launch({
      executablePath,
      // Chromium's --lang goes before the app folder: after it, it would be the app's argument.
      args: [
        ...(options.locale ? [langSwitch(options.locale)] : []),
        ...electronArgs(currentTestBuild().root, osRecorder()),
      ],
      cwd: REPO_ROOT,
      env: electronEnv(options, osCalls),
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    });
    app = launched;
    const window = await mainWindow(launched, systemClock);
    // Preloaded before the app's own code ran, so it is there by the first window.
    if (!readFileSync(osCalls, 'utf8').includes('"recorder"'))
      throw new Error('The OS-call recorder was not preloaded: osCalls() would see nothing.');
    await sizeWindow(launched, options.viewport ?? DEFAULT_VIEWPORT);
    if (waitForShell) await waitForAppShell(window);
    page = window;
    return window;
  };
  /** Quits the way the user does: main's will-quit stops the engine and closes the history. */
  const quit = async (): Promise<void> => {
    const closing = app;
    app = null;
    page = null;
    await closing?.close();
  };

  await open();
  return {
    host: 'electron',
    get page(): Page {
      if (!page) throw new Error('The app is closed: no window.');
      return page;
    },
    async restart(restartOptions: RestartOptions = {}) {
      await quit();
      await restartOptions.whileClosed?.();
      return open(restartOptions.waitForShell ?? true);
    },
    ipcPayloads: () => [],
    osCalls: () => readOsCalls(osCalls),
    advanceClock: () => {
      throw new Error('The Electron host runs on the system clock: only real time moves it.');
    },
    setNetworkOnline: () => {
      throw new Error('The Electron host follows the real network: a spec cannot switch it.');
    },
    close: quit,
  };
}
