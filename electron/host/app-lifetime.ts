/**
 * The app's lifetime follows the window a user can see. Electron's own rule (quit on
 * `window-all-closed`) counts every window, hidden ones included: with the image renderer's hidden
 * window open (it closes a minute after its last job, later while downloads keep it busy),
 * closing Pictor's only window would leave the app running unseen. So:
 *
 * - on Windows and Linux, closing the main window quits the app (a delete or an Undo under way
 *   still holds the close, visibly: adapters/quit-hold.ts); on macOS the app stays in the Dock
 *   until Quit, as Mac apps do;
 * - helper windows (the image renderer, any later one) never decide: `window-all-closed` is
 *   answered with nothing, and once a quit is under way (past `before-quit`, not held) no helper
 *   opens again (an image job then finds the renderer unavailable: its thumbnail waits for the
 *   next start), so none can hold `will-quit` back; the quit (desktop-host.ts) disposes them.
 */
import type { App } from 'electron';

/** What the lifetime needs of the main window: to hear that it closed. */
export interface ClosingWindow {
  once(event: 'closed', listener: () => void): unknown;
}

export interface AppLifetime {
  /** True once a quit is going ahead: helper windows must not open any more. */
  quitting(): boolean;
  /** The main window (each new one): its close quits the app where that is the OS's rule. */
  followMainWindow(window: ClosingWindow): void;
}

/**
 * Registers the app's lifetime on `app`. Call after every other `before-quit` listener that may
 * hold the quit (the trash's quit hold), so a held quit is not taken for one going ahead.
 */
export function appLifetime(
  app: Pick<App, 'on' | 'quit'>,
  platform: NodeJS.Platform = process.platform,
): AppLifetime {
  let quitting = false;
  app.on('window-all-closed', () => {
    // Listening is the point: Electron's default would quit when the last window of any kind
    // closes, and a hidden helper's closing is no reason to quit, nor its staying one to stay.
  });
  app.on('before-quit', (event) => {
    if (!event.defaultPrevented) quitting = true;
  });
  return {
    quitting: () => quitting,
    followMainWindow(window) {
      // A window opened again means no quit is under way (Electron says nothing when a quit is
      // cancelled, by a page that refused to unload).
      quitting = false;
      if (platform === 'darwin') return;
      window.once('closed', () => app.quit());
    },
  };
}
