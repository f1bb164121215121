/**
 * The installed app run as `pictor <command>`: the real CLI over a real data folder, in the
 * process Electron would start, ending with the CLI's exit code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptionReport, runAsCommandLine } from '../../../electron/cli-host';
import { sharpImageEngine } from '../../fakes/sharp-image-engine';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
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
const services = { safeStorage: safeStorage(true) };

function fakeApp() {
  const calls: string[] = [];
  return {
    calls,
    app: {
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
    const dir = await mkdtemp(join(tmpdir(), 'pictor-cli-host-'));
    dirs.push(dir);
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
      { safeStorage: safeStorage(true), imageEngine: async () => sharpImageEngine() },
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
      { safeStorage: safeStorage(true) },
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
});
