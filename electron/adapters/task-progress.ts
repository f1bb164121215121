/**
 * Applies what app/os/task-activity.ts decided to the dock badge (macOS, Linux launchers)
 * and the taskbar progress bar (Windows, Linux launchers).
 */
import { app } from 'electron';
import type { BrowserWindow } from 'electron';
import type { ProgressDisplay } from '../app/os/task-activity';
import { sameDisplay } from '../app/os/task-activity';

export interface TaskProgressPresenter {
  /** Applies `display` unless it is what is shown already. */
  show(display: ProgressDisplay): void;
  /** Applies the last display again (after the window was created or re-created). */
  refresh(): void;
}

/** @param getWindow the main window, or `null` when none is open (the bar needs one). */
export function createTaskProgressPresenter(
  getWindow: () => BrowserWindow | null,
): TaskProgressPresenter {
  let last: ProgressDisplay | null = null;
  const apply = (display: ProgressDisplay) => {
    if (display.badgeCount !== null) app.setBadgeCount(display.badgeCount);
    const window = getWindow();
    if (display.progress !== null && window && !window.isDestroyed()) {
      window.setProgressBar(display.progress, { mode: display.mode });
    }
  };
  return {
    show(display) {
      if (last && sameDisplay(last, display)) return;
      last = display;
      apply(display);
    },
    refresh() {
      if (last) apply(last);
    },
  };
}
