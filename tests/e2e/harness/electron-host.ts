/**
 * The Electron host: the built app launched by Playwright's `_electron` from the run's test build
 * (tests/support/test-build.ts: `npm run build` into a temporary folder laid out like the
 * repository), on the given folders through PICTOR_USER_DATA_DIR / PICTOR_GALLERY_DIR.
 * The page is the app's real window; IPC and OS calls are Electron's own, so the harness records
 * none of them (ipcPayloads and osCalls are empty).
 */
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import {
  DEFAULT_VIEWPORT,
  appEnvironment,
  waitForAppShell,
  type LaunchedApp,
  type LaunchOptions,
  type RestartOptions,
} from './app-types';
import { currentTestBuild } from '../../support/test-build';
import { REPO_ROOT } from './repo-paths';

/**
 * The command line of the app, whose folder is the test build's: Chromium's sandbox needs a
 * setuid helper root in CI lacks.
 */
export function electronArgs(
  appDir: string,
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
): string[] {
  return platform === 'linux' && uid === 0 ? ['--no-sandbox', appDir] : [appDir];
}

/** The app's environment: ELECTRON_RUN_AS_NODE would make the binary a plain Node. */
export function electronEnv(options: LaunchOptions): Record<string, string> {
  const env = appEnvironment(options);
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

export async function launchElectronApp(
  options: LaunchOptions,
  executablePath: string,
): Promise<LaunchedApp> {
  let app: ElectronApplication | null = null;
  let page: Page | null = null;
  const open = async (waitForShell = true): Promise<Page> => {
    const launched = await _electron.launch({
      executablePath,
      // Chromium's --lang goes before the app folder: after it, it would be the app's argument.
      args: [
        ...(options.locale ? [`--lang=${options.locale}`] : []),
        ...electronArgs(currentTestBuild().root),
      ],
      cwd: REPO_ROOT,
      env: electronEnv(options),
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    });
    app = launched;
    const window = await launched.firstWindow();
    await launched.evaluate(({ BrowserWindow }, size) => {
      BrowserWindow.getAllWindows()[0]?.setContentSize(size.width, size.height);
    }, options.viewport ?? DEFAULT_VIEWPORT);
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
    osCalls: () => [],
    close: quit,
  };
}
