/**
 * The packaged app refuses every switch that would attach a debugger, read as Chromium reads
 * switches (prefixes per OS, anywhere among the arguments, nothing after `--`), says so on stderr
 * and exits 2 before anything starts; `electron .` and CI's test build keep them.
 */
import { describe, expect, it } from 'vitest';
import {
  REFUSED_SWITCH_EXIT,
  refusedDebuggerSwitches,
} from '../../../../electron/app/os/debugger-switches';
import { refuseDebuggerSwitches } from '../../../../electron/adapters/debugger-guard';

const REFUSED = [
  '--remote-debugging-port=9222',
  '--remote-debugging-pipe',
  '--remote-debugging-io-pipes=3,4',
  '--remote-debugging-address=0.0.0.0',
  '--inspect',
  '--inspect=9229',
  '--inspect-brk=0',
  '--inspect-port=9229',
  '--inspect-wait',
  '--inspect-brk-node',
  '--inspect-publish-uid=http',
  '--debug',
  '--debug-brk',
  '--debug-port=5858',
  '--debug-wait',
  '--debug-anything-a-runtime-adds=1',
  '--js-flags=--allow-natives-syntax',
];

describe('the debugger switches the packaged app refuses', () => {
  it.each(REFUSED)('refuses %s, and its one-dash spelling', (arg) => {
    expect(refusedDebuggerSwitches([arg], 'linux')).toEqual([arg.split('=')[0]]);
    expect(refusedDebuggerSwitches([arg.slice(1)], 'darwin')).toEqual([arg.slice(1).split('=')[0]]);
  });

  it('finds them anywhere among the arguments: before the app, after a pictor command', () => {
    expect(
      refusedDebuggerSwitches(['--lang=de', 'list', '--json', '--inspect=0'], 'linux'),
    ).toEqual(['--inspect']);
    expect(
      refusedDebuggerSwitches(['generate', '--prompt', '-remote-debugging-port=1'], 'darwin'),
    ).toEqual(['-remote-debugging-port']);
  });

  it('reads Windows’ slash prefix and any case there, and not elsewhere', () => {
    expect(refusedDebuggerSwitches(['/Remote-Debugging-Port=9222'], 'win32')).toEqual([
      '/Remote-Debugging-Port',
    ]);
    expect(refusedDebuggerSwitches(['--JS-FLAGS=--expose-gc'], 'win32')).toEqual(['--JS-FLAGS']);
    // On macOS and Linux a slash starts a path, and switch names keep their case.
    expect(refusedDebuggerSwitches(['/remote-debugging-port=9222'], 'linux')).toEqual([]);
    expect(refusedDebuggerSwitches(['--JS-FLAGS=--expose-gc'], 'darwin')).toEqual([]);
  });

  it('stops at a lone --, after which Chromium reads no switch', () => {
    expect(refusedDebuggerSwitches(['--', '--inspect'], 'linux')).toEqual([]);
  });

  it('leaves the switches the app and its wrappers use', () => {
    const used = [
      '--ozone-platform=headless',
      '--disable-gpu',
      '--no-sandbox',
      '--lang=de-DE',
      '--password-store=basic',
      '--use-mock-keychain',
      '--enable-logging',
      'self-test',
      '-psn_0_12345',
      '--remote-allow-origins=*',
    ];
    expect(refusedDebuggerSwitches(used, 'linux')).toEqual([]);
    expect(refusedDebuggerSwitches(used, 'win32')).toEqual([]);
  });
});

function fakeApp(isPackaged: boolean) {
  const exits: number[] = [];
  return { app: { isPackaged, exit: (code?: number) => void exits.push(code ?? 0) }, exits };
}

describe('refuseDebuggerSwitches', () => {
  const host = (argv: string[], lines: string[]) => ({
    argv,
    platform: 'linux' as const,
    writeError: (text: string) => void lines.push(text),
  });

  it('exits the packaged app with a line on stderr naming what it refused', () => {
    const lines: string[] = [];
    const { app, exits } = fakeApp(true);
    const argv = ['/opt/Pictor/pictor', '--remote-debugging-port=9222', '--js-flags=--x'];
    expect(refuseDebuggerSwitches(app, false, host(argv, lines))).toBe(true);
    expect(exits).toEqual([REFUSED_SWITCH_EXIT]);
    expect(lines.join('')).toMatch(
      /^Pictor: refused --remote-debugging-port, --js-flags: the installed app does not start with a debugger attached/,
    );
    expect(lines.join('')).not.toContain('9222');
  });

  it('lets a packaged app without them start', () => {
    const { app, exits } = fakeApp(true);
    expect(refuseDebuggerSwitches(app, false, host(['/opt/Pictor/pictor', 'list'], []))).toBe(
      false,
    );
    expect(exits).toEqual([]);
  });

  it('leaves `electron .` and CI’s test build alone', () => {
    const argv = ['/x/electron', '/repo', '--inspect=0', '--remote-debugging-port=0'];
    const development = fakeApp(false);
    expect(refuseDebuggerSwitches(development.app, false, host(argv, []))).toBe(false);
    const testBuild = fakeApp(true);
    expect(refuseDebuggerSwitches(testBuild.app, true, host(argv, []))).toBe(false);
    expect([...development.exits, ...testBuild.exits]).toEqual([]);
  });
});
