/**
 * Shows the notifications the core's NotificationPolicy decides on, through Electron's
 * Notification. When to notify is decided in app/os/notification-policy.ts, not here.
 */
import { Notification } from 'electron';
import type { NotificationContent } from '../app/os/notification-policy';
import { messageOf } from '../core/errors';

/** Notifications kept referenced so their click handler survives garbage collection. */
const MAX_RETAINED = 20;

export interface DesktopNotifierOptions {
  /** Clicked: focus the window and show the task (`null`: the task list). */
  readonly onClick: (localId: string | null) => void;
  /** Shown beside the text on Linux and Windows. */
  readonly icon?: string;
  /**
   * The system refused to show one (Electron's `failed` event, macOS and Windows: an unsigned
   * macOS build cannot use UNNotification). Called once; Pictor stops trying until restarted.
   */
  readonly onFailed?: (error: string) => void;
  /** The system showed one (Electron's `show` event): called once, for the log. */
  readonly onShown?: () => void;
}

/**
 * Returns the `show` function for NotificationPolicy. It returns `false` when the system has
 * no notifications (some Linux desktops), refused this one, or refused one before; `true` means
 * only "asked": whether it was shown arrives later (`show` → `onShown`, `failed` → `onFailed`).
 * Every way of not showing is reported once through `onFailed`, then nothing more is asked until
 * restart. Never throws.
 */
export function createDesktopNotifier(
  options: DesktopNotifierOptions,
): (content: NotificationContent) => boolean {
  const retained = new Set<Notification>();
  const release = (notification: Notification) => retained.delete(notification);
  let failed = false;
  let shown = false;
  const fail = (error: string) => {
    if (failed) return;
    failed = true;
    options.onFailed?.(error);
  };
  return (content) => {
    if (failed) return false;
    if (!Notification.isSupported()) {
      fail('This system offers no desktop notifications (Notification.isSupported() is false).');
      return false;
    }
    try {
      const notification = new Notification({
        title: content.title,
        body: content.body,
        ...(options.icon ? { icon: options.icon } : {}),
      });
      notification.on('click', () => {
        release(notification);
        options.onClick(content.localId);
      });
      notification.on('close', () => release(notification));
      notification.on('show', () => {
        if (shown) return;
        shown = true;
        options.onShown?.();
      });
      notification.on('failed', (_event, error) => {
        release(notification);
        fail(String(error));
      });
      retained.add(notification);
      if (retained.size > MAX_RETAINED) release(retained.values().next().value as Notification);
      notification.show();
      return true;
    } catch (error) {
      fail(messageOf(error));
      return false;
    }
  };
}
