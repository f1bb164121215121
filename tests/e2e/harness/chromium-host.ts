/**
 * The chromium host: the built renderer in Debian's Chromium, served over loopback HTTP, with the
 * preload's API forwarded to the real main-process code (AppRuntime, handlers, runRequest)
 * running in this test process. See page-bridge.ts, app-server.ts and node-main.ts.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import { readTrustAnchors } from '../../../electron/core/content-credentials/trust-anchors';
import { silentLogger } from '../../../electron/ports/logger';
import { currentTestBuild } from '../../support/test-build';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import {
  DEFAULT_VIEWPORT,
  appEnvironment,
  waitForAppShell,
  type LaunchedApp,
  type LaunchOptions,
  type RestartOptions,
} from './app-types';
import { appClock } from './app-clock';
import { startAppServer, type AppServer } from './app-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './host';
import { startNodeMain, type NodeMain } from './node-main';
import { createOsStandIns, type OsStandIns } from './os-stand-ins';
import { installBridge, type PageBridge } from './page-bridge';
import { startPageImageEngine, type PageImageEngine } from './page-image-engine';
import { installWindowGuards } from './window-guards';

/** No handlers while the app is between a close and a restart (the sender check refuses first). */
const NO_HANDLERS = {} as IpcHandlers;

/**
 * One Chromium per test process, shared by the apps it starts one after another: each app has
 * contexts of its own (its window's and its image renderer's, each a fresh profile in memory) and
 * closes them, so no state passes from one app to the next. Launching a browser for every app cost
 * about 2 s of CPU each, some fifty times a run on 2 cores. Playwright ends the browser with the
 * process.
 */
let sharedBrowser: Promise<Browser> | null = null;

/**
 * The process's Chromium: launched by the first app that asks, and again only once it has gone
 * (it crashed, or its launch failed). Kept as the launch's promise, so apps started at once share
 * one launch instead of racing to make two.
 */
function browserForApps(): Promise<Browser> {
  sharedBrowser ??= chromium
    .launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
    .then(
      (browser) => {
        browser.on('disconnected', () => (sharedBrowser = null));
        return browser;
      },
      (error: unknown) => {
        sharedBrowser = null;
        throw error;
      },
    );
  return sharedBrowser;
}

/**
 * Closes the process's Chromium, if one was launched: for a process that, unlike the test
 * runners, does not end once its work is done (the benchmark run). An app started later
 * launches another.
 */
export async function closeAppsBrowser(): Promise<void> {
  const launched = sharedBrowser;
  sharedBrowser = null;
  if (!launched) return;
  const browser = await launched.catch(() => null);
  await browser?.close();
}

/**
 * One app: its browser context and HTTP server live across restarts, the "main process" does
 * not.
 */
class ChromiumApp implements LaunchedApp {
  readonly host = 'chromium' as const;
  private main: NodeMain | null = null;
  /** The verifier of the current "main process" when the test trusts more (extraTrustAnchors). */
  private verifier: C2paVerifier | null = null;
  private current: Page | null = null;
  private openingWindow = false;
  private browser: Browser | null = null;
  private server: AppServer | null = null;
  private bridge: PageBridge | null = null;
  /** The app's image renderer page, the engine of every "main process" this app starts. */
  private images: PageImageEngine | null = null;
  private context: BrowserContext | null = null;
  private readonly os: OsStandIns;
  /** The clock of every "main process" this app starts (a restart keeps the time it was moved to). */
  private readonly clock = appClock();

  constructor(private readonly options: LaunchOptions) {
    this.os = createOsStandIns({
      userDataDir: options.userDataDir,
      galleryDir: () => this.galleryDir(),
      env: () => ({ ...process.env, ...options.env }),
    });
  }

  get page(): Page {
    if (!this.current) throw new Error('The app is closed: no window.');
    return this.current;
  }

  /** Browser, server, bridge and guards: what stays the same across restarts. */
  async start(): Promise<void> {
    const server = await startAppServer({
      rendererRoot: currentTestBuild().rendererDir,
      galleryDir: () => this.galleryDir(),
      heldKeys: () => this.main?.runtime.keptIdPage.heldKeys() ?? [],
      ...(this.options.http2 ? { http2: true } : {}),
    });
    this.server = server;
    this.browser = await browserForApps();
    this.images = await startPageImageEngine(this.browser);
    const context = await this.browser.newContext({
      viewport: this.options.viewport ?? DEFAULT_VIEWPORT,
      ...(this.options.colorScheme ? { colorScheme: this.options.colorScheme } : {}),
      ...(this.options.locale ? { locale: this.options.locale } : {}),
      // The HTTP/2 server's certificate is its own throwaway one (app-server.ts).
      ...(this.options.http2 ? { ignoreHTTPSErrors: true } : {}),
    });
    this.context = context;
    if (this.options.initScript !== undefined) await context.addInitScript(this.options.initScript);
    const target = {
      page: () => this.current,
      origin: server.origin,
      handlers: () => this.main?.handlers ?? NO_HANDLERS,
      logger: () => this.main?.logger ?? silentLogger,
    };
    this.bridge = await installBridge(context, target, server.galleryBase);
    await installWindowGuards(context, {
      ...target,
      isAppWindow: (opened) => this.openingWindow || opened === this.current,
      ...(this.options.guardNavigation === false ? { guardNavigation: false } : {}),
    });
    await this.open(context);
  }

  async restart(options: RestartOptions = {}): Promise<Page> {
    await this.quit();
    await options.whileClosed?.();
    const context = this.context;
    if (!context || !this.browser?.isConnected()) throw new Error('The browser is gone.');
    return this.open(context, options.waitForShell ?? true);
  }

  ipcPayloads(): string[] {
    return [...(this.bridge?.payloads ?? [])];
  }

  osCalls(): { action: string; arg: string }[] {
    return this.os.calls.map((call) => ({ ...call }));
  }

  advanceClock(ms: number): void {
    this.clock.advance(ms);
  }

  setNetworkOnline(online: boolean): void {
    if (!this.bridge) throw new Error('The harness is not started.');
    this.bridge.emit('network:changed', { online });
  }

  async close(): Promise<void> {
    await this.quit();
    await this.images?.close();
    this.images = null;
    await this.context?.close();
    this.context = null;
    this.browser = null;
    await this.server?.close();
    this.server = null;
  }

  private galleryDir(): string {
    return this.main?.runtime.galleryDir() ?? this.options.galleryDir;
  }

  /** As the app starts: the main process first, then its window. */
  private async open(context: BrowserContext, waitForShell = true): Promise<Page> {
    const { bridge, server } = this;
    if (!bridge || !server) throw new Error('The harness is not started.');
    this.verifier = await extraTrustVerifier(this.options.extraTrustAnchors);
    this.main = await startNodeMain({
      userDataDir: this.options.userDataDir,
      galleryDir: this.options.galleryDir,
      env: appEnvironment(this.options),
      os: this.os,
      emit: bridge.emit,
      clock: this.clock,
      galleryBase: server.galleryBase,
      ...(this.images ? { imageEngine: this.images.engine } : {}),
      ...(this.verifier ? { contentCredentials: this.verifier } : {}),
    });
    this.openingWindow = true;
    const opened = await context.newPage().finally(() => (this.openingWindow = false));
    this.current = opened;
    await opened.goto(`${server.origin}/index.html`);
    if (waitForShell) await waitForAppShell(opened);
    return opened;
  }

  /** As the user quitting: the window goes, then the main process shuts down. */
  private async quit(): Promise<void> {
    const closing = this.current;
    this.current = null;
    await closing?.close();
    await this.bridge?.flush();
    await this.main?.close();
    this.main = null;
    await this.verifier?.dispose();
    this.verifier = null;
  }
}

/**
 * The core's own verifier with `extra` certificates trusted beside the shipped list (the journeys'
 * test CA), or none when there are none to add (the core then makes its own).
 */
async function extraTrustVerifier(extra: string | undefined): Promise<C2paVerifier | null> {
  if (!extra) return null;
  return new C2paVerifier({ trustAnchors: `${await readTrustAnchors()}\n${extra}` });
}

export async function launchChromiumApp(options: LaunchOptions): Promise<LaunchedApp> {
  const app = new ChromiumApp(options);
  try {
    await app.start();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
