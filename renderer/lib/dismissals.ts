/**
 * Notices the user hid, kept in the window's localStorage so they stay hidden after a restart.
 * Only for purely cosmetic dismissals (nothing in the main process depends on them), which is
 * why they are not settings: the settings file holds what the app does, not what the page hid.
 * Storage that cannot be read or written (a locked profile) only means the notice shows again.
 */
const PREFIX = 'pictor.dismissed.';

/** The notices that can be hidden for good. */
export type Dismissal = 'demoBanner';

export function isDismissed(name: Dismissal): boolean {
  try {
    return localStorage.getItem(PREFIX + name) === '1';
  } catch {
    return false;
  }
}

export function setDismissed(name: Dismissal, dismissed: boolean): void {
  try {
    if (dismissed) localStorage.setItem(PREFIX + name, '1');
    else localStorage.removeItem(PREFIX + name);
  } catch {
    // Not kept: the notice shows again at the next start, which is harmless.
  }
}
