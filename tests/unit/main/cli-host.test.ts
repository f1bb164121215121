/**
 * The installed app run as `pictor <command>`: the real CLI over a real data folder, in the
 * process Electron would start, ending with the CLI's exit code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseKeyStore,
  type KeyStoreFacts,
} from '../../../electron/adapters/linux-secret-service';
import { encryptionReport, runAsCommandLine } from '../../../electron/cli-host';
import { takeKeyVariables } from '../../../electron/cli/key-variables';
import { silentLogger } from '../../../electron/ports/logger';
import { sharpImageEngine } from '../../fakes/sharp-image-engine';
import { TempFolders } from '../../support/temp-folders';

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

/**
 * safeStorage with the asynchronous probe; the synchronous one (which reads the macOS keychain on
 * the main thread) throws, so a host that still asked it would fail here.
 */
function safeStorage(available: boolean, backend = 'gnome_libsecret') {
  return {
    isAsyncEncryptionAvailable: async () => available,
    isEncryptionAvailable: (): boolean => {
      throw new Error('the synchronous probe can block the main thread on a keychain prompt');
    },
    getSelectedStorageBackend: () => backend as 'gnome_libsecret',
  };
}
/** Not Linux: the key store's choice asks no Secret Service of this machine. */
const elsewhere = (): void => undefined;
const services = { safeStorage: safeStorage(true), chooseKeyStore: elsewhere };

/** What main.ts passes: the app's own chooseKeyStore, here on given facts. */
function keyStoreOf(app: ReturnType<typeof fakeApp>['app'], facts: KeyStoreFacts) {
  return () => chooseKeyStore(app, silentLogger, facts);
}

function fakeApp() {
  const calls: string[] = [];
  const switches: string[] = [];
  return {
    calls,
    switches,
    app: {
      commandLine: {
        hasSwitch: (name: string) => switches.some((entry) => entry.startsWith(`--${name}=`)),
        appendSwitch: (name: string, value?: string) => void switches.push(`--${name}=${value}`),
      },
      exit: (code?: number) => void calls.push(`exit ${code}`),
      dock: { hide: () => void calls.push('dock hidden') },
      whenReady: async () => void calls.push('ready'),
      getVersion: () => '9.8.7',
      on: (event: string) => {
        calls.push(`on ${event}`);
        return undefined as never;
      },
    },
  };
}

describe('the app as the pictor command', () => {
  it('runs a command on a library with no window and exits with its code', async () => {
    const dir = await dirs.make('cli-host');
    const { app, calls } = fakeApp();
    const out: string[] = [];
    const code = await runAsCommandLine(app, ['list', '--data-dir', dir], services, {
      env: {},
      stdout: (text) => void out.push(text),
      stderr: (text) => void out.push(text),
    });
    expect(code).toBe(0);
    expect(calls).toEqual(['dock hidden', 'on window-all-closed', 'exit 0']);
  });

  it('passes a usage error on as exit code 2, naming itself pictor', async () => {
    const { app, calls } = fakeApp();
    const err: string[] = [];
    const code = await runAsCommandLine(app, ['resume'], services, {
      env: {},
      stdout: () => undefined,
      stderr: (text) => void err.push(text),
    });
    expect(code).toBe(2);
    expect(calls.at(-1)).toBe('exit 2');
    expect(err.join('')).toContain('Run "pictor help"');
  });
});

describe('pictor self-test in the installed app', () => {
  it('prints one JSON line with the app’s version and safeStorage’s answer, and exits 0', async () => {
    const { app, calls } = fakeApp();
    const out: string[] = [];
    const code = await runAsCommandLine(
      app,
      ['self-test'],
      {
        safeStorage: safeStorage(true),
        imageEngine: async () => sharpImageEngine(),
        chooseKeyStore: elsewhere,
      },
      { env: {}, stdout: (text) => void out.push(text), stderr: (text) => void out.push(text) },
    );
    expect(code, out.join('')).toBe(0);
    expect(out).toHaveLength(1);
    const report = JSON.parse(out[0] ?? '') as Record<string, unknown>;
    expect(report).toMatchObject({ ok: true, version: '9.8.7', imageEngine: 'sharp-native' });
    expect(calls).toEqual(['dock hidden', 'on window-all-closed', 'ready', 'exit 0']);
  });

  it('exits 1 and names the step when the app has no image engine', async () => {
    const { app, calls } = fakeApp();
    const err: string[] = [];
    const code = await runAsCommandLine(
      app,
      ['self-test'],
      { safeStorage: safeStorage(true), chooseKeyStore: elsewhere },
      { env: {}, stdout: () => undefined, stderr: (text) => void err.push(text) },
    );
    expect(code).toBe(1);
    expect(calls.at(-1)).toBe('exit 1');
    expect(err.join('')).toBe('Self-test failed at image-png: this host has no image engine\n');
  });

  it('reports safeStorage’s answer after ready, asked asynchronously, with the Linux secret store', async () => {
    const { app, calls } = fakeApp();
    expect(await encryptionReport(app, safeStorage(false, 'basic_text'), 'linux')).toEqual({
      state: 'unavailable',
      backend: 'basic_text',
    });
    expect(await encryptionReport(app, safeStorage(true), 'darwin')).toEqual({
      state: 'available',
    });
    expect(calls).toEqual(['ready', 'ready']);
  });

  it('takes the key variables out of the process’s environment before anything is started', async () => {
    const dir = await dirs.make('cli-host');
    const keys = { SERVICE_API_KEY: 'sk-host-env-4a1c', PICTOR_KEY_FAL: 'fal-host-env-9d2e' };
    Object.assign(process.env, keys, { PICTOR_HOST_ENV_KEPT: 'kept' });
    try {
      const seen: (string | undefined)[] = [];
      const code = await runAsCommandLine(
        fakeApp().app,
        ['list', '--data-dir', dir],
        {
          ...services,
          // The key store's probe starts programs (dbus-send, busctl): they see no key.
          chooseKeyStore: () =>
            void seen.push(process.env.SERVICE_API_KEY, process.env.PICTOR_KEY_FAL),
        },
        { env: {}, stdout: () => undefined, stderr: () => undefined },
      );
      expect(code).toBe(0);
      expect(seen).toEqual([undefined, undefined]);
      expect([process.env.SERVICE_API_KEY, process.env.PICTOR_KEY_FAL]).toEqual([
        undefined,
        undefined,
      ]);
      expect(process.env.PICTOR_HOST_ENV_KEPT).toBe('kept');
    } finally {
      for (const name of [...Object.keys(keys), 'PICTOR_HOST_ENV_KEPT'])
        Reflect.deleteProperty(process.env, name);
    }
  });

  it('gives the command the keys it takes out of the environment', () => {
    const env = { SERVICE_API_KEY: 'sk-a', PICTOR_KEY_BFL: 'bfl-b', PATH: '/bin' };
    expect(takeKeyVariables(env)).toEqual({
      SERVICE_API_KEY: 'sk-a',
      PICTOR_KEY_BFL: 'bfl-b',
      PATH: '/bin',
    });
    expect(env).toEqual({ PATH: '/bin' });
  });
});

describe('the key store of the pictor command', () => {
  const quiet = { env: {}, stdout: () => undefined, stderr: () => undefined };

  it.each(['sway', 'Hyprland', 'i3', 'sway:wlroots'])(
    'is the app’s on %s, a desktop Electron does not recognise: the Secret Service where one runs',
    async (desktop) => {
      const { app, switches } = fakeApp();
      const keyStore = {
        platform: 'linux' as const,
        env: { XDG_CURRENT_DESKTOP: desktop },
        argv: ['pictor', 'self-test'],
        probe: () => true,
      };
      await runAsCommandLine(
        app,
        ['help'],
        { safeStorage: safeStorage(true), chooseKeyStore: keyStoreOf(app, keyStore) },
        quiet,
      );
      expect(switches).toEqual(['--password-store=gnome-libsecret']);
    },
  );

  it('leaves a recognised desktop, a user’s own switch and a missing Secret Service alone', async () => {
    const cases = [
      { env: { XDG_CURRENT_DESKTOP: 'KDE' }, argv: [], probe: () => true },
      {
        env: { XDG_CURRENT_DESKTOP: 'sway' },
        argv: ['--password-store=kwallet5'],
        probe: () => true,
      },
      { env: { XDG_CURRENT_DESKTOP: 'sway' }, argv: [], probe: () => false },
    ];
    for (const facts of cases) {
      const { app, switches } = fakeApp();
      const keyStore = { platform: 'linux' as const, ...facts };
      await runAsCommandLine(
        app,
        ['help'],
        { safeStorage: safeStorage(true), chooseKeyStore: keyStoreOf(app, keyStore) },
        quiet,
      );
      expect(switches, JSON.stringify(facts)).toEqual([]);
    }
  });

  it('is chosen before anything waits for ready, as safeStorage reads the switch when it starts', async () => {
    const { app, calls, switches } = fakeApp();
    const keyStore = {
      platform: 'linux' as const,
      env: { XDG_CURRENT_DESKTOP: 'Hyprland' },
      argv: [],
      probe: () => true,
    };
    const ready = app.whenReady;
    app.whenReady = async () => {
      calls.push(`ready with ${switches.join(' ') || 'no switch'}`);
      return ready();
    };
    await runAsCommandLine(
      app,
      ['self-test'],
      {
        safeStorage: safeStorage(true),
        imageEngine: async () => sharpImageEngine(),
        chooseKeyStore: keyStoreOf(app, keyStore),
      },
      quiet,
    );
    expect(calls).toContain('ready with --password-store=gnome-libsecret');
  });
});
