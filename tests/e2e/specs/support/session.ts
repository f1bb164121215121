/**
 * The app of one test: fresh folders before each test, and the app (when the test launched it)
 * closed and the folders removed after it, whatever the test's outcome.
 */
import { test } from '@playwright/test';
import { makeAppFolders, type AppFolders } from '../../harness/disk';
import { launchApp, type LaunchedApp, type LaunchOptions } from '../../harness/launch-app';
import { connectToService } from './ui';

/**
 * Fast polling, and a fast built-in demo service, for journeys that are not about timing (tasks
 * sent to a demo process take the time that process is told to): a task takes 200 ms and is
 * asked after every 100 ms, as in the packaged app's boot test, so a journey waits on its tasks
 * for a few tenths of a second instead of a second and more each.
 */
export const FAST_ENV: Readonly<Record<string, string>> = {
  PICTOR_DEMO_DURATION_MS: '200',
  PICTOR_POLL_INTERVAL_MS: '100',
};

/** Launch options other than the folders, which the session owns; `env` defaults to FAST_ENV. */
export type SessionLaunchOptions = Omit<LaunchOptions, 'userDataDir' | 'galleryDir'>;

export interface AppSession {
  /** The current test's folders. */
  readonly folders: AppFolders;
  /** The running app; throws when the test has not launched it or has closed it. */
  readonly app: LaunchedApp;
  /** Starts Pictor on the test's folders. */
  launch(options?: SessionLaunchOptions): Promise<LaunchedApp>;
  /** Starts Pictor and connects it to the service at `baseUrl` with `key`, as a user does. */
  launchConnected(
    baseUrl: string,
    key: string,
    options?: SessionLaunchOptions,
  ): Promise<LaunchedApp>;
  /** Closes the app (the history can be read only then); nothing happens if it is not running. */
  close(): Promise<void>;
}

/**
 * Registers the per-test hooks of the spec file that calls this (at its top level); `label`
 * names the temp folders.
 */
export function useAppSession(label: string): AppSession {
  let folders: AppFolders | undefined;
  let app: LaunchedApp | undefined;
  test.beforeEach(async () => {
    folders = await makeAppFolders(label);
  });
  test.afterEach(async () => {
    await app?.close();
    app = undefined;
    await folders?.remove();
    folders = undefined;
  });
  const session: AppSession = {
    get folders() {
      if (!folders) throw new Error('The folders exist only while a test runs.');
      return folders;
    },
    get app() {
      if (!app) throw new Error('The app is not running.');
      return app;
    },
    async launch(options = {}) {
      const { userDataDir, galleryDir } = session.folders;
      app = await launchApp({ userDataDir, galleryDir, env: FAST_ENV, ...options });
      return app;
    },
    async launchConnected(baseUrl, key, options) {
      const launched = await session.launch(options);
      await connectToService(launched.page, baseUrl, key);
      return launched;
    },
    async close() {
      await app?.close();
      app = undefined;
    },
  };
  return session;
}
