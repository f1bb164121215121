/**
 * The installed app as CI checks it (install-package.ts, installed.ts, fedora-rpm.ts): where
 * each OS's installer puts the `pictor` command, which file of release/ is this runner's
 * installer, and what `pictor help` and `pictor self-test` must print. Pure, so it is unit-tested
 * on every OS (tests/unit/e2e/installed-app.test.ts).
 */
import path from 'node:path';
import { COMMAND_LINK } from '../../../electron/app/os/command-link';

/** The command a user types `pictor` with, once the installer ran. */
export function installedCommand(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'linux') return '/usr/bin/pictor';
  if (platform === 'darwin') return '/Applications/Pictor.app/Contents/Resources/bin/pictor';
  // NSIS's per-user default: %LOCALAPPDATA%\Programs\<productName>.
  const local =
    env['LOCALAPPDATA'] ?? path.win32.join(env['USERPROFILE'] ?? 'C:\\', 'AppData', 'Local');
  return path.win32.join(local, 'Programs', 'Pictor', 'bin', 'pictor.cmd');
}

/**
 * The installed app as its menu entry or Dock starts it: on Linux the same /usr/bin/pictor (the
 * wrapper starts the app when no command is given), elsewhere the app's own executable.
 */
export function installedApp(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'linux') return installedCommand(platform, env);
  if (platform === 'darwin') return '/Applications/Pictor.app/Contents/MacOS/Pictor';
  return path.win32.join(
    path.win32.dirname(path.win32.dirname(installedCommand(platform, env))),
    'Pictor.exe',
  );
}

/**
 * The file `pictor`, typed at a prompt, must run once the installer ran: the packages' link on
 * Linux, the link "Install Command Line Tool…" makes on macOS, the installer's bin\pictor.cmd
 * (on the user's Path) on Windows.
 */
export function typedCommandTarget(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  return platform === 'darwin' ? COMMAND_LINK : installedCommand(platform, env);
}

/**
 * A program to start, its arguments, and the spawn options they need. cmd.exe does not read its
 * command line as other programs do: Node's quoting of each argument (an inner `"` sent as `\"`)
 * would reach it as written and break the line, so its arguments must go verbatim.
 */
export interface Invocation {
  readonly file: string;
  readonly args: readonly string[];
  readonly options: { readonly windowsVerbatimArguments: boolean };
}

/** Characters cmd.exe acts on even inside quotes: such an argument cannot reach the command as typed. */
const CMD_UNQUOTABLE = /["%\r\n]/;

/**
 * `command` with `args` run by cmd.exe, as typed at its prompt: `/s /c` and the whole line in
 * one more pair of quotes, which cmd.exe strips, so a path with spaces stays one word. The only
 * place a cmd.exe line is built (a unit test holds the other packaged scripts to it).
 */
function throughCmd(command: string, args: readonly string[]): Invocation {
  const bad = [command, ...args].find((arg) => CMD_UNQUOTABLE.test(arg));
  if (bad !== undefined) throw new Error(`cmd.exe cannot pass ${JSON.stringify(bad)} on as typed`);
  const quoted = args.map((arg) => (/^[\w.=/:-]+$/.test(arg) ? arg : `"${arg}"`)).join(' ');
  return {
    file: 'cmd.exe',
    args: ['/d', '/s', '/c', `""${command}" ${quoted}"`],
    options: { windowsVerbatimArguments: true },
  };
}

/** `file` started directly, its arguments quoted by Node as any program reads them. */
function direct(file: string, args: readonly string[]): Invocation {
  return { file, args: [...args], options: { windowsVerbatimArguments: false } };
}

/**
 * How to start `command` with `args` as a user's shell would: a batch file through cmd.exe
 * (Node does not start .cmd files itself), anything else directly.
 */
export function commandLine(command: string, args: readonly string[]): Invocation {
  return /\.cmd$/i.test(command) ? throughCmd(command, args) : direct(command, args);
}

/** `pictor <args>` as typed: found on PATH by cmd.exe on Windows, by the system elsewhere. */
export function typedCommandLine(platform: NodeJS.Platform, args: readonly string[]): Invocation {
  return platform === 'win32' ? throughCmd('pictor', args) : direct('pictor', args);
}

/** `name`'s value in `env`, its case ignored (as Windows ignores it). */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key];
}

/**
 * The user's own Path from what `reg query HKCU\Environment /v Path` prints, its %VARIABLES%
 * expanded from `env` (it is stored unexpanded, REG_EXPAND_SZ); empty when there is none.
 */
export function userPathFromRegQuery(output: string, env: NodeJS.ProcessEnv): string {
  const raw = /^\s*Path\s+REG_(?:EXPAND_)?SZ\s+(.*)$/im.exec(output)?.[1]?.trim() ?? '';
  return raw.replace(/%([^%;]+)%/g, (whole, name: string) => variable(env, name) ?? whole);
}

/**
 * `env` as a terminal opened after the installer has it on Windows: the Path it had, then the
 * user's own Path (Windows puts the user's after the system's), in one variable of that name.
 */
export function withUserPath(env: NodeJS.ProcessEnv, userPath: string): NodeJS.ProcessEnv {
  const others = Object.entries(env).filter(([name]) => name.toLowerCase() !== 'path');
  const joined = [variable(env, 'Path') ?? '', userPath].filter((part) => part !== '').join(';');
  return { ...Object.fromEntries(others), Path: joined };
}

/** `env` as an SSH session or a server has it: no X11 or Wayland display. */
export function withoutDisplay(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...rest } = env;
  return rest;
}

/** The installer of this OS and CPU among release/'s files, or why there is none. */
export function installerIn(
  files: readonly string[],
  platform: NodeJS.Platform,
  arch: string,
): string {
  const pattern =
    platform === 'linux'
      ? /\.deb$/
      : platform === 'darwin'
        ? new RegExp(`-${arch === 'arm64' ? 'arm64' : 'x64'}\\.dmg$`)
        : /^Pictor-Setup-.*\.exe$/;
  const found = files.filter((file) => pattern.test(file));
  if (found.length !== 1)
    throw new Error(
      `Expected one installer matching ${String(pattern)} in release/, found ${found.length}: ${files.join(', ') || 'nothing'}. Run \`npm run dist\` first.`,
    );
  return found[0] ?? '';
}

export type Verdict =
  { readonly ok: true; readonly line: string } | { readonly ok: false; readonly problem: string };

/** `pictor help` exits 0 and lists the commands. */
export function checkHelp(code: number | null, output: string): Verdict {
  if (code !== 0)
    return { ok: false, problem: `pictor help exited ${String(code)}: ${output.slice(0, 800)}` };
  if (!output.includes('generate --base-url URL --prompt TEXT') || !output.includes('self-test'))
    return { ok: false, problem: `pictor help did not list the commands: ${output.slice(0, 800)}` };
  return { ok: true, line: 'pictor help lists the commands' };
}

/**
 * The steps the installed app's self-test must report: each image format through the image
 * renderer, and the signed sample verified in the renderer and in the worker thread.
 */
export const INSTALLED_SELF_TEST_STEPS = [
  'history',
  'image-png',
  'image-jpeg',
  'image-webp',
  'xmp',
  'credentials',
  'c2pa-renderer',
  'c2pa-worker',
  'encryption',
] as const;

/**
 * `pictor self-test` exits 0 and prints exactly one JSON line whose every step passed, and that
 * has every step `required` names.
 */
export function checkSelfTest(
  code: number | null,
  stdout: string,
  required: readonly string[] = INSTALLED_SELF_TEST_STEPS,
): Verdict {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1)
    return {
      ok: false,
      problem: `pictor self-test printed ${lines.length} lines, not one: ${stdout.slice(0, 800)}`,
    };
  let report: {
    ok?: unknown;
    failed?: unknown;
    steps?: { step: string; ok: boolean; error?: string }[];
  };
  try {
    report = JSON.parse(lines[0] ?? '') as typeof report;
  } catch {
    return { ok: false, problem: `pictor self-test printed no JSON: ${lines[0]?.slice(0, 800)}` };
  }
  const failed = report.steps?.find((step) => !step.ok);
  if (code !== 0 || report.ok !== true || failed)
    return {
      ok: false,
      problem: `pictor self-test exited ${String(code)}, failed at ${failed ? `${failed.step}: ${failed.error ?? ''}` : String(report.failed)}`,
    };
  const ran = new Set(report.steps?.map((step) => step.step));
  const missing = required.filter((step) => !ran.has(step));
  if (missing.length > 0)
    return { ok: false, problem: `pictor self-test ran no ${missing.join(', ')} step` };
  return { ok: true, line: `pictor self-test passed: ${lines[0]}` };
}

/** The switches the release checks the installed app refuses (debugger-switches.ts has them all). */
export const DEBUGGER_SWITCHES = [
  '--remote-debugging-port=9222',
  '--remote-debugging-pipe',
  '--inspect=9229',
  '--inspect-brk',
  '--js-flags=--allow-natives-syntax',
] as const;

/** The app started with the debugger switch `arg` exited 2 and said on stderr that it refused it. */
export function checkRefused(arg: string, code: number | null, output: string): Verdict {
  const name = arg.split('=')[0] ?? arg;
  if (code === 2 && output.includes(`Pictor: refused ${name}`))
    return { ok: true, line: `${arg} refused, exit 2` };
  return {
    ok: false,
    problem: `started with ${arg}, the app exited ${String(code)}: ${output.slice(0, 500) || 'nothing on stderr'}`,
  };
}
