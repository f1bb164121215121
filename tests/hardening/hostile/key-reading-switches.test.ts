/**
 * Another process of the same user starts the installed app, or leaves a shortcut or a `.desktop`
 * file that does, with a Chromium switch that needs no debugger to get the key: one that makes the
 * network stack trust any certificate (a proxy or a rewritten resolver then reads the
 * Authorization header), one that writes the TLS session keys or a full NetLog (headers included)
 * to a file, or one that sends a `localhost` service's plain http somewhere else. The packaged
 * app refuses each, in every spelling Chromium reads, as it refuses the debugger switches
 * (app/os/debugger-switches.ts): one line on stderr, no value echoed, exit 2 before anything
 * starts. The same for the environment's `SSLKEYLOGFILE`, which Chromium's network service reads
 * as it reads `--ssl-key-log-file`.
 */
import { describe, expect, it } from 'vitest';
import { refuseDebuggerSwitches } from '../../../electron/adapters/debugger-guard';
import { REFUSED_SWITCH_EXIT } from '../../../electron/app/os/debugger-switches';

const KEY_READING = [
  // Any certificate trusted: a proxy or a mapped host reads the key off the wire.
  '--ignore-certificate-errors',
  '--ignore-certificate-errors-spki-list=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  '--ignore-urlfetcher-cert-requests',
  // The key on disk: TLS session secrets, or a NetLog that keeps sensitive headers.
  '--ssl-key-log-file=/tmp/keys.log',
  '--log-net-log=/tmp/net.json',
  '--net-log-capture-mode=Everything',
  // `localhost`'s plain http (the key in clear) sent to another host, or through a proxy.
  '--host-resolver-rules=MAP localhost 203.0.113.7',
  '--host-rules=MAP * 203.0.113.7',
  '--proxy-bypass-list=<-loopback>',
];

function started(
  argv: string[],
  platform: NodeJS.Platform = 'linux',
  env: Record<string, string> = {},
) {
  const exits: number[] = [];
  const lines: string[] = [];
  const refused = refuseDebuggerSwitches(
    { isPackaged: true, exit: (code?: number) => void exits.push(code ?? 0) },
    false,
    {
      argv: ['/opt/Pictor/pictor', ...argv],
      platform,
      env,
      writeError: (t) => void lines.push(t),
    },
  );
  return { refused, exits, text: lines.join('') };
}

describe('switches that hand the key over without a debugger', () => {
  it.each(KEY_READING)('the installed app refuses %s, in every spelling', (arg) => {
    const name = arg.split('=', 1)[0]!;
    const value = arg.slice(name.length + 1);
    for (const [spelled, platform] of [
      [arg, 'linux'],
      [arg.slice(1), 'darwin'],
      [`/${arg.slice(2).toUpperCase()}`, 'win32'],
    ] as const) {
      const run = started(['--lang=de', spelled, 'list'], platform);
      expect(run.refused, spelled).toBe(true);
      expect(run.exits).toEqual([REFUSED_SWITCH_EXIT]);
      expect(run.text).toMatch(/^Pictor: refused /);
      if (value) expect(run.text).not.toContain(value.slice(0, 12));
    }
  });

  it('refuses SSLKEYLOGFILE in the environment (any case on Windows), and not its value', () => {
    for (const [name, platform] of [
      ['SSLKEYLOGFILE', 'linux'],
      ['SSLKEYLOGFILE', 'darwin'],
      ['SslKeyLogFile', 'win32'],
    ] as const) {
      const run = started(['list'], platform, { [name]: '/tmp/secrets.log', HOME: '/home/u' });
      expect(run.refused, `${name} on ${platform}`).toBe(true);
      expect(run.exits).toEqual([REFUSED_SWITCH_EXIT]);
      expect(run.text).toMatch(/^Pictor: refused SSLKEYLOGFILE/);
      expect(run.text).not.toContain('secrets');
    }
    // Set but empty is no file; on Linux and macOS names keep their case.
    expect(started([], 'linux', { SSLKEYLOGFILE: '' }).refused).toBe(false);
    expect(started([], 'linux', { sslkeylogfile: '/tmp/x' }).refused).toBe(false);
  });

  it('an unpackaged app (`electron .`) keeps them', () => {
    const exits: number[] = [];
    const refused = refuseDebuggerSwitches(
      { isPackaged: false, exit: (code?: number) => void exits.push(code ?? 0) },
      false,
      { argv: ['electron', ...KEY_READING], platform: 'linux', writeError: () => undefined },
    );
    expect(refused).toBe(false);
    expect(exits).toEqual([]);
  });
});
