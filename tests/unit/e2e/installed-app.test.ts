/**
 * How CI finds and judges the installed app (tests/e2e/packaged/installed-app.ts): the command
 * each installer puts where users type it, this runner's installer among release/'s files, and
 * the verdict on `pictor help` and `pictor self-test`, failures included.
 */
import { describe, expect, it } from 'vitest';
import {
  checkHelp,
  checkRefused,
  checkSelfTest,
  DEBUGGER_SWITCHES,
  INSTALLED_SELF_TEST_STEPS,
  commandLine,
  installedApp,
  installedCommand,
  installerIn,
  typedCommandLine,
  typedCommandTarget,
  userPathFromRegQuery,
  withoutDisplay,
  withUserPath,
} from '../../e2e/packaged/installed-app';

const RELEASE = [
  'Pictor-0.1.0-arm64.dmg',
  'Pictor-0.1.0-x64.dmg',
  'Pictor-0.1.0-arm64-mac.zip',
  'Pictor-Setup-0.1.0.exe',
  'Pictor-Setup-0.1.0.exe.blockmap',
  'pictor_0.1.0_amd64.deb',
  'pictor-0.1.0.x86_64.rpm',
];

describe('the installed pictor command', () => {
  it('is where each installer puts it', () => {
    expect(installedCommand('linux', {})).toBe('/usr/bin/pictor');
    expect(installedCommand('darwin', {})).toBe(
      '/Applications/Pictor.app/Contents/Resources/bin/pictor',
    );
    expect(installedCommand('win32', { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' })).toBe(
      'C:\\Users\\ada\\AppData\\Local\\Programs\\Pictor\\bin\\pictor.cmd',
    );
  });

  it('is started by the smoke as a user starts the app: through /usr/bin/pictor on Linux', () => {
    expect(installedApp('linux', {})).toBe('/usr/bin/pictor');
    expect(installedApp('darwin', {})).toBe('/Applications/Pictor.app/Contents/MacOS/Pictor');
    expect(installedApp('win32', { LOCALAPPDATA: 'C:\\L' })).toBe(
      'C:\\L\\Programs\\Pictor\\Pictor.exe',
    );
  });

  it('runs a batch file through cmd.exe, as typed at a prompt, its line passed verbatim', () => {
    expect(commandLine('/usr/bin/pictor', ['self-test'])).toEqual({
      file: '/usr/bin/pictor',
      args: ['self-test'],
      options: { windowsVerbatimArguments: false },
    });
    // Without the verbatim flag Node would send the inner quotes as \", which cmd.exe does not
    // read as an escaped quote: it would run a mangled line.
    expect(
      commandLine('C:\\Program Files\\P\\bin\\pictor.cmd', ['--no-sandbox', 'list', '--jsno']),
    ).toEqual({
      file: 'cmd.exe',
      args: [
        '/d',
        '/s',
        '/c',
        '""C:\\Program Files\\P\\bin\\pictor.cmd" --no-sandbox list --jsno"',
      ],
      options: { windowsVerbatimArguments: true },
    });
    expect(commandLine('C:\\P\\bin\\PICTOR.CMD', ['a b']).args[3]).toBe(
      '""C:\\P\\bin\\PICTOR.CMD" "a b""',
    );
  });

  it.each(['say "hi"', '%PATH%', 'two\nlines'])(
    'refuses an argument cmd.exe would act on even in quotes: %j',
    (arg) => {
      expect(() => commandLine('C:\\P\\bin\\pictor.cmd', [arg])).toThrow(/cmd\.exe cannot pass/);
      expect(() => typedCommandLine('win32', [arg])).toThrow(/cmd\.exe cannot pass/);
    },
  );

  it('runs with no display when asked', () => {
    expect(withoutDisplay({ DISPLAY: ':99', WAYLAND_DISPLAY: 'w', HOME: '/h' })).toEqual({
      HOME: '/h',
    });
  });
});

describe('pictor typed at a prompt', () => {
  it('must run the packages’ link, the menu item’s link on macOS, the installer’s pictor.cmd', () => {
    expect(typedCommandTarget('linux', {})).toBe('/usr/bin/pictor');
    expect(typedCommandTarget('darwin', {})).toBe('/usr/local/bin/pictor');
    expect(typedCommandTarget('win32', { LOCALAPPDATA: 'C:\\L' })).toBe(
      'C:\\L\\Programs\\Pictor\\bin\\pictor.cmd',
    );
  });

  it('is the bare name, found by cmd.exe on Windows and by the system elsewhere', () => {
    expect(typedCommandLine('linux', ['self-test'])).toEqual({
      file: 'pictor',
      args: ['self-test'],
      options: { windowsVerbatimArguments: false },
    });
    expect(typedCommandLine('win32', ['help'])).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '""pictor" help"'],
      options: { windowsVerbatimArguments: true },
    });
  });

  it('finds it on Windows through the user’s Path from the registry, expanded, after the system’s', () => {
    const query = [
      '',
      'HKEY_CURRENT_USER\\Environment',
      '    Path    REG_EXPAND_SZ    %USERPROFILE%\\bin;C:\\Users\\ada\\AppData\\Local\\Programs\\Pictor\\bin;%NOT_SET%',
      '',
    ].join('\r\n');
    const env = { userprofile: 'C:\\Users\\ada', PATH: 'C:\\Windows', Temp: 'C:\\T' };
    const userPath = userPathFromRegQuery(query, env);
    expect(userPath).toBe(
      'C:\\Users\\ada\\bin;C:\\Users\\ada\\AppData\\Local\\Programs\\Pictor\\bin;%NOT_SET%',
    );
    // One Path, whatever case the variable had; the system's first, as Windows builds it.
    expect(withUserPath(env, userPath)).toEqual({
      userprofile: 'C:\\Users\\ada',
      Temp: 'C:\\T',
      Path: `C:\\Windows;${userPath}`,
    });
    expect(
      userPathFromRegQuery('ERROR: The system was unable to find the specified value.', env),
    ).toBe('');
  });
});

describe('installerIn', () => {
  it.each([
    ['linux', 'x64', 'pictor_0.1.0_amd64.deb'],
    ['darwin', 'arm64', 'Pictor-0.1.0-arm64.dmg'],
    ['darwin', 'x64', 'Pictor-0.1.0-x64.dmg'],
    ['win32', 'x64', 'Pictor-Setup-0.1.0.exe'],
  ] as const)('%s %s: %s', (platform, arch, expected) => {
    expect(installerIn(RELEASE, platform, arch)).toBe(expected);
  });

  it('says to run npm run dist when there is none', () => {
    expect(() => installerIn([], 'linux', 'x64')).toThrow(/found 0: nothing\. Run `npm run dist`/);
  });
});

const REPORT = {
  ok: true,
  steps: INSTALLED_SELF_TEST_STEPS.map((step) => ({ step, ok: true, ms: 3 })),
};

describe('the verdicts', () => {
  it('pass a help that lists the commands, and a self-test with one passing JSON line', () => {
    expect(checkHelp(0, 'Usage… generate --base-url URL --prompt TEXT … self-test …').ok).toBe(
      true,
    );
    expect(checkSelfTest(0, `${JSON.stringify(REPORT)}\n`).ok).toBe(true);
  });

  it.each([
    [
      'a failed step',
      1,
      {
        ...REPORT,
        ok: false,
        failed: 'image-png',
        steps: [{ step: 'image-png', ok: false, error: 'no engine' }],
      },
      /failed at image-png: no engine/,
    ],
    [
      'a report without the renderer’s Content Credentials step',
      0,
      { ...REPORT, steps: REPORT.steps.filter((step) => step.step !== 'c2pa-renderer') },
      /ran no c2pa-renderer step/,
    ],
    ['exit 1 with ok true', 1, REPORT, /exited 1/],
  ] as const)('fail %s', (_what, code, report, problem) => {
    const verdict = checkSelfTest(code, `${JSON.stringify(report)}\n`);
    expect(!verdict.ok && verdict.problem).toMatch(problem);
  });

  it('fail output that is not one JSON line, and a help that died', () => {
    expect(checkSelfTest(0, 'Missing X server or $DISPLAY\n').ok).toBe(false);
    expect(checkSelfTest(0, `${JSON.stringify(REPORT)}\n${JSON.stringify(REPORT)}\n`).ok).toBe(
      false,
    );
    expect(checkHelp(null, 'Missing X server or $DISPLAY').ok).toBe(false);
  });
});

describe('the release’s check that the installed app refuses a debugger', () => {
  it('passes exit 2 with the line naming the switch, for each switch', () => {
    for (const arg of DEBUGGER_SWITCHES) {
      const name = arg.split('=')[0] ?? arg;
      const line = `Pictor: refused ${name}: the installed app does not start with a debugger attached`;
      expect(checkRefused(arg, 2, line).ok).toBe(true);
    }
  });

  it.each([
    ['a test build that started (killed by the timeout)', null, ''],
    ['an app that started and quit', 0, ''],
    ['exit 2 for something else', 2, 'Unknown option'],
  ])('fails %s', (_what, code, output) => {
    expect(checkRefused('--inspect=9229', code, output).ok).toBe(false);
  });
});
