import { describe, expect, it } from 'vitest';
import {
  LIBSECRET_STORE,
  choosePasswordStore,
  hasPasswordStoreArgument,
  isRecognisedDesktop,
} from '../../../../electron/core/key-vault/linux-password-store';

/** Desktops Electron 45 maps to a store itself (electron.d.ts, getSelectedStorageBackend). */
const RECOGNISED: Record<string, string | undefined>[] = [
  { XDG_CURRENT_DESKTOP: 'GNOME' },
  { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' },
  { XDG_CURRENT_DESKTOP: 'pop:GNOME' },
  { XDG_CURRENT_DESKTOP: 'Budgie:GNOME' },
  { XDG_CURRENT_DESKTOP: 'Unity' },
  { XDG_CURRENT_DESKTOP: 'X-Cinnamon' },
  { XDG_CURRENT_DESKTOP: 'Deepin' },
  { XDG_CURRENT_DESKTOP: 'Pantheon' },
  { XDG_CURRENT_DESKTOP: 'XFCE' },
  { XDG_CURRENT_DESKTOP: 'UKUI' },
  { XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '6' },
  // Chromium falls back on these when XDG_CURRENT_DESKTOP names nothing it knows.
  { DESKTOP_SESSION: 'plasma' },
  { DESKTOP_SESSION: 'kde-plasma' },
  { DESKTOP_SESSION: 'xubuntu' },
  { XDG_CURRENT_DESKTOP: 'sway', DESKTOP_SESSION: 'gnome' },
  { KDE_FULL_SESSION: 'true' },
  { GNOME_DESKTOP_SESSION_ID: 'this-is-deprecated' },
];

/** Desktops Electron leaves on basic_text, where a running Secret Service is ignored. */
const UNRECOGNISED: Record<string, string | undefined>[] = [
  { XDG_CURRENT_DESKTOP: 'sway' },
  { XDG_CURRENT_DESKTOP: 'Hyprland', DESKTOP_SESSION: 'hyprland' },
  { XDG_CURRENT_DESKTOP: 'i3' },
  { XDG_CURRENT_DESKTOP: 'LXQt' },
  { XDG_CURRENT_DESKTOP: 'niri' },
  { XDG_CURRENT_DESKTOP: '' },
  {},
];

const describeEnv = (env: Record<string, string | undefined>) => JSON.stringify(env);

describe('choosePasswordStore', () => {
  describe.each([true, false, null] as const)('when the Secret Service probe says %s', (answer) => {
    it.each(UNRECOGNISED.map((env) => [describeEnv(env), env] as const))(
      'on an unrecognised desktop %s, uses it only when it runs',
      (_name, env) => {
        let probes = 0;
        const choice = choosePasswordStore(
          { platform: 'linux', env, userChoseStore: false },
          () => {
            probes += 1;
            return answer;
          },
        );
        expect(probes).toBe(1);
        expect(choice).toEqual(
          answer === true
            ? { kind: 'use', store: LIBSECRET_STORE }
            : { kind: 'leave', reason: answer === false ? 'no_secret_service' : 'unknown' },
        );
      },
    );

    it.each(RECOGNISED.map((env) => [describeEnv(env), env] as const))(
      'on a recognised desktop %s, leaves Electron’s choice and does not probe',
      (_name, env) => {
        let probes = 0;
        const probe = () => {
          probes += 1;
          return answer;
        };
        expect(
          choosePasswordStore({ platform: 'linux', env, userChoseStore: false }, probe),
        ).toEqual({
          kind: 'leave',
          reason: 'recognised_desktop',
        });
        expect(probes).toBe(0);
      },
    );

    it.each([...UNRECOGNISED, ...RECOGNISED].map((env) => [describeEnv(env), env] as const))(
      'leaves a --password-store the user passed alone (%s) and does not probe',
      (_name, env) => {
        let probes = 0;
        const probe = () => {
          probes += 1;
          return answer;
        };
        expect(
          choosePasswordStore({ platform: 'linux', env, userChoseStore: true }, probe),
        ).toEqual({
          kind: 'leave',
          reason: 'user_switch',
        });
        expect(probes).toBe(0);
      },
    );

    it.each(['darwin', 'win32', 'freebsd'] as const)('does nothing on %s', (platform) => {
      let probes = 0;
      const env = { XDG_CURRENT_DESKTOP: 'sway' };
      const probe = () => {
        probes += 1;
        return answer;
      };
      expect(choosePasswordStore({ platform, env, userChoseStore: false }, probe)).toEqual({
        kind: 'leave',
        reason: 'not_linux',
      });
      expect(probes).toBe(0);
    });
  });

  it('classifies every listed desktop as the table says', () => {
    expect(RECOGNISED.filter((env) => !isRecognisedDesktop(env))).toEqual([]);
    expect(UNRECOGNISED.filter((env) => isRecognisedDesktop(env))).toEqual([]);
  });
});

describe('hasPasswordStoreArgument', () => {
  it.each([
    [['/opt/Pictor/pictor', '--password-store=basic'], true],
    [['/opt/Pictor/pictor', '--password-store', 'kwallet6'], true],
    [['/opt/Pictor/pictor', '--password-store='], true],
    [['/opt/Pictor/pictor'], false],
    [['/opt/Pictor/pictor', '--password-storage=basic'], false],
    [['/opt/Pictor/pictor', 'password-store=basic'], false],
  ])('%j → %s', (argv, expected) => {
    expect(hasPasswordStoreArgument(argv)).toBe(expected);
  });
});
