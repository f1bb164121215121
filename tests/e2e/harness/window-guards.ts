/**
 * What electron/adapters/window-guards.ts does for the app's window, for the chromium host, with
 * the same decision (isAppNavigation): a navigation away from the app is stopped; `window.open`
 * opens nothing and returns null (Electron's `{ action: 'deny' }`), and no link goes to the OS
 * browser; any other page that appears (a target=_blank link) is closed the same way, its link
 * opened nowhere.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { isAppNavigation } from '../../../electron/app/protocol/external-url';

export interface WindowGuardTarget {
  /** The app's page now. */
  readonly page: () => Page | null;
  /** True for a page the harness opened as the app's window (checked when it appears). */
  readonly isAppWindow: (page: Page) => boolean;
  /** The app's origin: navigation stays inside it. */
  readonly origin: string;
  /**
   * Default true. The navigation guard is a Playwright route: it pauses every request the page
   * makes (a thumbnail too) until this Node process has looked at it. Electron's `will-navigate`
   * costs other requests nothing, so a benchmark that navigates nowhere turns it off.
   */
  readonly guardNavigation?: boolean;
}

/** Runs in the page before its scripts: window.open never opens a window, or anything else. */
function denyWindowOpen(): void {
  Object.defineProperty(window, 'open', { value: () => null });
}

export async function installWindowGuards(
  context: BrowserContext,
  target: WindowGuardTarget,
): Promise<void> {
  await context.addInitScript(denyWindowOpen);
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
    // A window the app did not open itself goes, and its link is opened nowhere.
    void opened.close().catch(() => undefined);
  });
}
