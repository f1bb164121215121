/**
 * Which password store Electron's safeStorage should use on Linux. Electron picks it from the
 * desktop it recognises (electron.d.ts, `safeStorage.getSelectedStorageBackend`); on any other
 * desktop (sway, Hyprland, i3, LXQt, …) it falls back to `basic_text`, a fixed public password,
 * even when a Secret Service (gnome-keyring, KeePassXC) is running, and the user is asked to accept
 * plain text. When one is running there, we ask for it with `--password-store=gnome-libsecret`.
 *
 * A recognised desktop is never overridden: on KDE that would move the user off KWallet, and a key
 * stored there would then read as `backend_changed`. Where in doubt, the desktop counts as
 * recognised (leave Electron's choice alone).
 */

/** The `--password-store` value that selects libsecret (the Secret Service D-Bus API). */
export const LIBSECRET_STORE = 'gnome-libsecret';

/**
 * Desktops Electron (Chromium's base::nix::GetDesktopEnvironment, then its key storage choice)
 * maps to a real store: the `XDG_CURRENT_DESKTOP` entries, lower-cased.
 */
const RECOGNISED_DESKTOPS = new Set([
  'gnome',
  'unity',
  'x-cinnamon',
  'deepin',
  'pantheon',
  'xfce',
  'ukui',
  'kde',
]);

/** `DESKTOP_SESSION` values (or parts) Chromium falls back on when XDG_CURRENT_DESKTOP says nothing. */
const RECOGNISED_SESSIONS = ['gnome', 'mate', 'kde', 'plasma', 'xfce', 'xubuntu', 'ukui', 'deepin'];

export interface PasswordStoreFacts {
  readonly platform: NodeJS.Platform;
  /** The process environment (XDG_CURRENT_DESKTOP, DESKTOP_SESSION, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user passed `--password-store` themselves: theirs to choose. */
  readonly userChoseStore: boolean;
}

export type PasswordStoreChoice =
  | { readonly kind: 'use'; readonly store: typeof LIBSECRET_STORE }
  | {
      readonly kind: 'leave';
      readonly reason:
        'not_linux' | 'user_switch' | 'recognised_desktop' | 'no_secret_service' | 'unknown';
    };

/**
 * The choice, asking `secretServiceRunning` (a D-Bus probe: true, false, or null when it cannot
 * tell) only when the answer depends on it, since it costs a process at start-up.
 */
export function choosePasswordStore(
  facts: PasswordStoreFacts,
  secretServiceRunning: () => boolean | null,
): PasswordStoreChoice {
  if (facts.platform !== 'linux') return { kind: 'leave', reason: 'not_linux' };
  if (facts.userChoseStore) return { kind: 'leave', reason: 'user_switch' };
  if (isRecognisedDesktop(facts.env)) return { kind: 'leave', reason: 'recognised_desktop' };
  const running = secretServiceRunning();
  if (running === true) return { kind: 'use', store: LIBSECRET_STORE };
  return { kind: 'leave', reason: running === false ? 'no_secret_service' : 'unknown' };
}

/** True when Electron would pick a store other than basic_text on this desktop by itself. */
export function isRecognisedDesktop(env: Readonly<Record<string, string | undefined>>): boolean {
  const desktops = (env['XDG_CURRENT_DESKTOP'] ?? '').split(':').map(normalise);
  if (desktops.some((desktop) => RECOGNISED_DESKTOPS.has(desktop))) return true;
  const session = normalise(env['DESKTOP_SESSION'] ?? '');
  if (session !== '' && RECOGNISED_SESSIONS.some((name) => session.includes(name))) return true;
  return Boolean(env['GNOME_DESKTOP_SESSION_ID'] || env['KDE_FULL_SESSION']);
}

/** True when the arguments carry `--password-store` (as `--password-store=x` or `--password-store x`). */
export function hasPasswordStoreArgument(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--password-store' || arg.startsWith('--password-store='));
}

function normalise(value: string): string {
  return value.trim().toLowerCase();
}
