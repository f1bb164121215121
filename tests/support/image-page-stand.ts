/**
 * The image renderer's page in Debian's Chromium, as the app runs it in its hidden window: the
 * built page served over loopback HTTP with the page's own policy, job bytes from a second
 * loopback origin (the image protocol's stand-in, answering through the same ImageJobSources),
 * and one MessagePort handed to the page after load by a stand-in for the preload. The core's
 * RendererJobs drive it, so tests, the journeys' Chromium host and the bench run the app's engine
 * and the app's page, with a page of Chromium where the app has a window of Electron.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { systemClock } from '../../electron/adapters/system-clock';
import { serveAppRequest } from '../../electron/app/protocol/app-request';
import { imageRendererCsp } from '../../electron/app/protocol/csp';
import { APP_SCHEME, IMAGE_PAGE_HOST } from '../../electron/app/protocol/schemes';
import {
  RendererImageEngine,
  type RendererImageEngineOptions,
} from '../../electron/core/images/renderer-image-engine';
import type {
  ImageRendererConnection,
  ImageRendererEvents,
} from '../../electron/ports/image-renderer-host';
import { IMAGE_PORT_MESSAGE } from '../../shared/image-renderer/protocol';
import { startServer, type TestServer } from './http-servers';
import { sendResponse } from './response-bridge';

/** Where the stand-in preload's answers arrive in Node. */
const ANSWER_BINDING = '__pictorImageAnswer';
/** How Node posts to the page's port (the main process's end of the channel). */
const POST_FUNCTION = '__pictorImagePost';

/** The preload's part, in the page: one channel, its far end handed over once the page loaded. */
const PRELOAD_STAND_IN = `(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => window.${ANSWER_BINDING}(event.data);
  window.${POST_FUNCTION} = (request) => channel.port1.postMessage(request);
  window.addEventListener('load', () =>
    window.postMessage(${JSON.stringify(IMAGE_PORT_MESSAGE)}, location.origin, [channel.port2]));
})();`;

export interface ImagePageStandOptions extends Partial<
  Omit<RendererImageEngineOptions, 'host' | 'pageOrigin'>
> {
  readonly browser: Browser;
  /** The built page: `<build>/dist-electron/image-renderer`. */
  readonly pageRoot: string;
  /** Runs before a job's bytes are served (a test holds them back to keep a job running). */
  readonly beforeServe?: (path: string) => Promise<void>;
}

export interface ImagePageStand {
  readonly engine: RendererImageEngine;
  /** The page server (its requests are recorded) and the bytes server. */
  readonly pageServer: TestServer;
  readonly bytesServer: TestServer;
  /** The running renderer's page, if any. */
  page(): Page | null;
  /** Renderers started so far. */
  starts(): number;
  close(): Promise<void>;
}

/** Opens the page in a fresh context (a partition of its own) and connects its port. */
async function openPage(
  browser: Browser,
  pageUrl: string,
  events: ImageRendererEvents,
): Promise<{ page: Page; connection: ImageRendererConnection }> {
  const context: BrowserContext = await browser.newContext({ serviceWorkers: 'block' });
  let ended = false;
  const end = (reason: string | null) => {
    if (ended) return;
    ended = true;
    void context.close().catch(() => undefined);
    if (reason !== null) events.gone(reason);
  };
  const page = await context.newPage();
  await page.exposeBinding(ANSWER_BINDING, (_source, message: unknown) => events.answer(message));
  await page.addInitScript(PRELOAD_STAND_IN);
  page.on('crash', () => end('its page crashed'));
  page.on('close', () => end('its page closed'));
  await page.goto(pageUrl);
  const connection: ImageRendererConnection = {
    post: (request) => {
      if (ended) return;
      page
        .evaluate(
          ({ name, message }) =>
            (window as unknown as Record<string, (value: unknown) => void>)[name]?.(message),
          { name: POST_FUNCTION, message: request },
        )
        .catch(() => undefined);
    },
    close: () => end(null),
  };
  return { page, connection };
}

export async function startImagePageStand(options: ImagePageStandOptions): Promise<ImagePageStand> {
  const { browser, pageRoot, beforeServe, ...engineOptions } = options;
  let engine: RendererImageEngine | null = null;
  const bytesServer = await startServer((req, res) => {
    const path = req.url ?? '/';
    const request = new Request(`${bytesServer.origin}${path}`, { method: req.method });
    void (beforeServe?.(path) ?? Promise.resolve())
      .then(() => engine!.sources.serve(request))
      .then((response) => sendResponse(response, res))
      .catch(() => res.destroy());
  });
  const csp = imageRendererCsp(bytesServer.origin);
  const pageServer = await startServer((req, res) => {
    const url = `${APP_SCHEME}://${IMAGE_PAGE_HOST}${req.url ?? '/'}`;
    const request = new Request(url, { method: req.method });
    void serveAppRequest(request, pageRoot, csp, IMAGE_PAGE_HOST)
      .then((response) => sendResponse(response, res))
      .catch(() => res.destroy());
  });
  let current: Page | null = null;
  let starts = 0;
  engine = new RendererImageEngine({
    clock: systemClock,
    ...engineOptions,
    pageOrigin: pageServer.origin,
    host: {
      sourceUrl: (token) => `${bytesServer.origin}/job/${token}`,
      async start(events) {
        starts += 1;
        const opened = await openPage(browser, `${pageServer.origin}/index.html`, events);
        current = opened.page;
        return opened.connection;
      },
    },
  });
  const started = engine;
  return {
    engine: started,
    pageServer,
    bytesServer,
    page: () => (started.rendererRunning && current && !current.isClosed() ? current : null),
    starts: () => starts,
    async close() {
      await started.dispose();
      await current
        ?.context()
        .close()
        .catch(() => undefined);
      await Promise.all([pageServer.close(), bytesServer.close()]);
    },
  };
}
