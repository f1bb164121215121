import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  PROBE_TIMEOUT_MS,
  secretServiceRunning,
  selectLinuxPasswordStore,
  type SpawnSyncText,
} from '../../../electron/adapters/linux-secret-service';
import type { LogFields, Logger } from '../../../electron/ports/logger';
import { UNTIL } from '../../support/waits';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';

const DBUS_TRUE = '   boolean true\n';
const DBUS_FALSE = '   boolean false\n';
const BUSCTL_TRUE = 'b true\n';

/** A spawn that answers from a table by command, recording every call. */
function scriptedSpawn(
  answers: Record<string, { status?: number | null; stdout?: string; error?: string }>,
) {
  const calls: { command: string; args: readonly string[]; shell?: unknown; timeout?: number }[] =
    [];
  const spawn: SpawnSyncText = (command, args, options) => {
    calls.push({ command, args, shell: options.shell, timeout: options.timeout });
    const answer = answers[command] ?? { error: 'ENOENT' };
    if (answer.error) {
      const error = Object.assign(new Error(`spawnSync ${command} ${answer.error}`), {
        code: answer.error,
      });
      return { status: null, stdout: '', error };
    }
    return { status: answer.status === undefined ? 0 : answer.status, stdout: answer.stdout ?? '' };
  };
  return { spawn, calls };
}

describe('secretServiceRunning (injected spawn)', () => {
  it.each([
    ['dbus-send says true', { 'dbus-send': { stdout: DBUS_TRUE } }, true, ['dbus-send']],
    ['dbus-send says false', { 'dbus-send': { stdout: DBUS_FALSE } }, false, ['dbus-send']],
    [
      'no dbus-send, busctl says true',
      { busctl: { stdout: BUSCTL_TRUE } },
      true,
      ['dbus-send', 'busctl'],
    ],
    [
      'dbus-send fails (no session bus), busctl says false',
      { 'dbus-send': { status: 1 }, busctl: { stdout: 'b false\n' } },
      false,
      ['dbus-send', 'busctl'],
    ],
    ['neither tool installed', {}, null, ['dbus-send', 'busctl']],
    [
      'dbus-send hangs (a hung bus: busctl is not tried)',
      { 'dbus-send': { error: 'ETIMEDOUT' }, busctl: { stdout: BUSCTL_TRUE } },
      null,
      ['dbus-send'],
    ],
    [
      'busctl hangs',
      { 'dbus-send': { status: 1 }, busctl: { error: 'ETIMEDOUT' } },
      null,
      ['dbus-send', 'busctl'],
    ],
    [
      'answers that are not a boolean reply',
      {
        'dbus-send': { stdout: 'Error org.freedesktop.DBus.Error.ServiceUnknown\n' },
        busctl: { stdout: 'b maybe\nboolean true but not really\n' },
      },
      null,
      ['dbus-send', 'busctl'],
    ],
    [
      'a killed tool that printed true first',
      { 'dbus-send': { status: null, stdout: DBUS_TRUE }, busctl: { status: 1 } },
      null,
      ['dbus-send', 'busctl'],
    ],
  ] as const)('%s', (_name, answers, expected, tools) => {
    const { spawn, calls } = scriptedSpawn(answers);
    expect(secretServiceRunning(spawn, {})).toBe(expected);
    expect(calls.map((call) => call.command)).toEqual(tools);
    for (const call of calls) {
      expect(call.shell).toBeUndefined();
      expect(call.timeout).toBeGreaterThan(0);
      expect(call.args.join(' ')).toContain('org.freedesktop.secrets');
    }
  });
});

describe('secretServiceRunning (real processes, tools on a private PATH)', () => {
  const bin = tempFolderSync('dbus');
  afterAll(() => removeFolderSync(bin));

  function tool(name: string, script: string): void {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
  }

  it.runIf(process.platform === 'linux')(
    'reads the reply of a dbus-send on PATH, and falls back to busctl',
    () => {
      tool('dbus-send', `printf '   boolean true\\n'`);
      expect(secretServiceRunning(undefined, { PATH: bin })).toBe(true);
      rmSync(join(bin, 'dbus-send'));
      tool('busctl', `printf 'b false\\n'`);
      expect(secretServiceRunning(undefined, { PATH: bin })).toBe(false);
      rmSync(join(bin, 'busctl'));
      expect(secretServiceRunning(undefined, { PATH: bin })).toBeNull();
    },
  );

  it.runIf(process.platform === 'linux')(
    'gives up on a tool that hangs, within its time limit',
    () => {
      tool('dbus-send', 'exec sleep 30');
      tool('busctl', 'exec sleep 30');
      const started = performance.now();
      expect(secretServiceRunning(undefined, { PATH: `${bin}:/bin:/usr/bin` })).toBeNull();
      const elapsed = performance.now() - started;
      // Killed at twice the bus limit; busctl is not tried on a hung bus (it would hang too).
      // That it gave up at all is shown by its return: the tools sleep 30 s, past this test's own
      // 20 s limit, which fails a synchronous test that overruns it (no upper bound on the clock
      // here: a loaded machine's slow spawn cannot fail it).
      // The lower bound shows it waited for the limit; spawnSync's timer runs on libuv's clock,
      // kept in whole milliseconds, so it can end a fraction of one before performance.now says.
      expect(elapsed).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS * 2 - 5);
    },
    20_000,
  );
});

/** A private session bus (dbus-daemon) and its address, or null when the machine has none. */
async function startSessionBus(): Promise<{ address: string; stop: () => void } | null> {
  const found = spawnSync('dbus-daemon', ['--version'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) return null;
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  daemon.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await vi.waitFor(() => expect(output).toContain('\n'), UNTIL);
  return { address: output.trim(), stop: () => daemon.kill('SIGKILL') };
}

describe('secretServiceRunning on a real session bus', () => {
  it.runIf(process.platform === 'linux')(
    'answers false (not null) where the bus runs but no Secret Service owns its name',
    async (context) => {
      const bus = await startSessionBus();
      if (bus === null) return context.skip('no dbus-daemon on this machine');
      try {
        const env = bareEnv({ DBUS_SESSION_BUS_ADDRESS: bus.address });
        expect(secretServiceRunning(undefined, env)).toBe(false);
      } finally {
        bus.stop();
      }
    },
    10_000,
  );
});

describe('selectLinuxPasswordStore', () => {
  function setup(options: { hasSwitch?: boolean; argv?: string[] } = {}) {
    const switches: [string, string | undefined][] = [];
    const logs: { message: string; fields?: LogFields }[] = [];
    const record = (message: string, fields?: LogFields) => logs.push({ message, fields });
    const logger: Logger = { debug: record, info: record, warn: record, error: record };
    const commandLine = {
      hasSwitch: (name: string) => name === 'password-store' && (options.hasSwitch ?? false),
      appendSwitch: (name: string, value?: string) => switches.push([name, value]),
    };
    return { switches, logs, logger, commandLine, argv: options.argv ?? ['/opt/Pictor/pictor'] };
  }

  it('appends --password-store=gnome-libsecret on sway with a running Secret Service, and logs it', () => {
    const { switches, logs, logger, commandLine, argv } = setup();
    const choice = selectLinuxPasswordStore({
      commandLine,
      platform: 'linux',
      env: { XDG_CURRENT_DESKTOP: 'sway' },
      argv,
      logger,
      probe: () => true,
    });
    expect(choice).toEqual({ kind: 'use', store: 'gnome-libsecret' });
    expect(switches).toEqual([['password-store', 'gnome-libsecret']]);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.fields).toMatchObject({ desktop: 'sway', store: 'gnome-libsecret' });
  });

  it.each([
    ['a switch Chromium already holds', { hasSwitch: true }],
    ['an argument the user passed', { argv: ['/opt/Pictor/pictor', '--password-store=basic'] }],
  ])('respects %s', (_name, options) => {
    const { switches, logger, commandLine, argv } = setup(options);
    let probes = 0;
    selectLinuxPasswordStore({
      commandLine,
      platform: 'linux',
      env: { XDG_CURRENT_DESKTOP: 'Hyprland' },
      argv,
      logger,
      probe: () => {
        probes += 1;
        return true;
      },
    });
    expect(switches).toEqual([]);
    expect(probes).toBe(0);
  });

  it.each([
    ['no Secret Service', { XDG_CURRENT_DESKTOP: 'i3' }, false],
    ['a probe that cannot tell', { XDG_CURRENT_DESKTOP: 'i3' }, null],
    ['KDE (KWallet stays)', { XDG_CURRENT_DESKTOP: 'KDE' }, true],
  ] as const)('changes nothing with %s', (_name, env, answer) => {
    const { switches, logger, commandLine, argv } = setup();
    selectLinuxPasswordStore({
      commandLine,
      platform: 'linux',
      env,
      argv,
      logger,
      probe: () => answer,
    });
    expect(switches).toEqual([]);
  });
});
