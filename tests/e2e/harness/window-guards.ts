/**
 * What electron/adapters/window-guards.ts does for the app's window, for the chromium host, with
 * the same decisions (isAppNavigation, checkExternalUrl): a navigation away from the app is
 * stopped; `window.open` opens nothing and returns null (Electron's `{ action: 'deny' }`),
 * the link going to the OS browser only if it passes the check; any other page that appears
 * (a target=_blank link) is closed the same way.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { checkExternalUrl, isAppNavigation } from '../../../electron/app/protocol/external-url';

const OPEN_BINDING = '__pictorE2eWindowOpen';

export interface WindowGuardTarget {
  /** The app's page now. */
  readonly page: () => Page | null;
  /** True for a page the harness opened as the app's window (checked when it appears). */
  readonly isAppWindow: (page: Page) => boolean;
  /** The app's origin: navigation stays inside it. */
  readonly origin: string;
  /** What the OS would be asked to do (recorded by the stand-ins). */
  readonly openExternal: (url: string) => void;
  /**
   * Default true. The navigation guard is a Playwright route: it pauses every request the page
   * makes (a thumbnail too) until this Node process has looked at it. Electron's `will-navigate`
   * costs other requests nothing, so a benchmark that navigates nowhere turns it off.
   */
  readonly guardNavigation?: boolean;
}

/** Runs in the page before its scripts: window.open never opens a window. */
function denyWindowOpen(bindingName: string): void {
  const ask = (window as unknown as Record<string, unknown>)[bindingName];
  Object.defineProperty(window, 'open', {
    value: (url?: string | URL) => {
      if (typeof ask === 'function') void (ask as (u: string) => Promise<void>)(String(url ?? ''));
      return null;
    },
  });
}

function openLinkSafely(target: WindowGuardTarget, url: string): void {
  const checked = checkExternalUrl(url);
  if (checked.ok) target.openExternal(checked.url);
}

export async function installWindowGuards(
  context: BrowserContext,
  target: WindowGuardTarget,
): Promise<void> {
  await context.exposeBinding(OPEN_BINDING, (source, url: unknown) => {
    if (source.page === target.page() && typeof url === 'string') openLinkSafely(target, url);
  });
  await context.addInitScript(denyWindowOpen, OPEN_BINDING);
  if (target.guardNavigation === false) return watchNewPages(context, target);
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (request.isNavigationRequest() && !isAppNavigation(request.url(), target.origin)) {
      // A 204 answer leaves the current document in place, as preventDefault on will-navigate.
      await route.fulfill({ status: 204 });
      return;
    }
    await route.fallback();
  });
  watchNewPages(context, target);
}

function watchNewPages(context: BrowserContext, target: WindowGuardTarget): void {
  context.on('page', (opened) => {
    if (target.isAppWindow(opened)) return;
    // A window the app did not open itself: its link goes the checked way, the window goes.
    void opened
      .waitForEvent('request', { timeout: 5_000 })
      .then((request) => openLinkSafely(target, request.url()))
      .catch(() => undefined)
      .finally(() => void opened.close().catch(() => undefined));
  });
}
