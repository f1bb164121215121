/**
 * The app's tasks on the desktop, besides the page: a line in the log per change, a notification
 * when a task ends while the window is not in front (app/os/notification-policy.ts), and the
 * count and progress of running tasks on the dock or taskbar (app/os/task-activity.ts). It
 * observes the one core once, before its engine starts (ipc/wire-app.ts `observeCore`).
 */
import type { BrowserWindow } from 'electron';
import { createDesktopNotifier } from '../adapters/notifications';
import { systemClock } from '../adapters/system-clock';
import { createTaskProgressPresenter } from '../adapters/task-progress';
import { NotificationPolicy } from '../app/os/notification-policy';
import { TaskActivity } from '../app/os/task-activity';
import { createTaskEventLog } from '../core/logging';
import type { PictorCore } from '../core/pictor-core';
import type { Disposable } from '../ports/disposable';
import type { Logger } from '../ports/logger';

export interface TaskPresenceOptions {
  readonly logger: Logger;
  readonly window: () => BrowserWindow | null;
  /** The user's choice in Settings (off until the runtime has started). */
  readonly notificationsOn: () => boolean;
  /** A click on a notification: the window shows the tasks. */
  readonly onNotificationClick: () => void;
  /** Notifications cannot be shown on this desktop: the page is told once. */
  readonly onNotificationsFailed: () => void;
}

export interface TaskPresence extends Disposable {
  /** Follows the core's tasks (the wiring's `observeCore`); dispose to stop. */
  observe(core: PictorCore): Disposable;
  /** Shows the progress again on a new window. */
  refresh(): void;
}

export function taskPresence(options: TaskPresenceOptions): TaskPresence {
  const { logger, window } = options;
  const activity = new TaskActivity(process.platform);
  const progress = createTaskProgressPresenter(window);
  const logTask = createTaskEventLog(logger);
  const notifications = new NotificationPolicy({
    clock: systemClock,
    isEnabled: options.notificationsOn,
    isWindowFocused: () => window()?.isFocused() ?? false,
    show: createDesktopNotifier({
      onClick: options.onNotificationClick,
      onShown: () => logger.info('notifications are shown'),
      onFailed: (error) => {
        logger.warn('notifications cannot be shown', { error });
        options.onNotificationsFailed();
      },
    }),
  });
  return {
    observe(core) {
      for (const record of core.history.unfinished())
        progress.show(activity.update({ ...record, downloads: 0 }));
      return core.engine.onDidUpdate(({ record, live }) => {
        logTask(record);
        notifications.observe(record);
        const { localId, status, hold } = record;
        progress.show(activity.update({ localId, status, hold, downloads: live.downloads }));
      });
    },
    refresh: () => progress.refresh(),
    dispose: () => notifications.dispose(),
  };
}
