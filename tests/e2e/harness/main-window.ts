/**
 * The journeys' page is the app's main window, found by what it shows (`pictor-app://app/
 * index.html`, APP_ENTRY_URL), never by the order windows opened in: the app also opens a hidden
 * image window (adapters/chromium-image-engine.ts) that can be the first, and a journey that sized
 * or waited on that one would fail for nothing the user sees. Unit-tested with fake pages
 * (tests/unit/e2e/main-window.test.ts).
 */
import type { Clock } from '../../../electron/ports/clock';
import { APP_ENTRY_URL } from '../../../electron/app/protocol/schemes';

/** What this needs of a Playwright Page. */
export interface WindowLike {
  url(): string;
}

/** What this needs of Playwright's ElectronApplication. */
export interface WindowSource<W extends WindowLike> {
  windows(): W[];
}

/** Whether `url` is the main window's page (its query or fragment aside). */
export function isMainWindowUrl(url: string): boolean {
  return url.split(/[?#]/)[0] === APP_ENTRY_URL;
}

/** How often the windows are looked at while none is the main one yet. */
const POLL_MS = 50;

/**
 * The app's main window: the one whose page is APP_ENTRY_URL, once one is (a new window shows
 * about:blank until it navigates). Fails after `timeoutMs` naming the windows it saw.
 */
export async function mainWindow<W extends WindowLike>(
  app: WindowSource<W>,
  clock: Clock,
  timeoutMs = 30_000,
): Promise<W> {
  const end = clock.now() + timeoutMs;
  for (;;) {
    const windows = app.windows();
    const main = windows.find((window) => isMainWindowUrl(window.url()));
    if (main) return main;
    if (clock.now() >= end) {
      const seen = windows.map((window) => window.url()).join(', ') || 'none';
      throw new Error(
        `No window showed ${APP_ENTRY_URL} within ${Math.round(timeoutMs / 1000)} s (windows: ${seen}).`,
      );
    }
    await new Promise<void>((resolve) => clock.setTimeout(resolve, POLL_MS));
  }
}
