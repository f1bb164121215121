/**
 * `npm run ci:installed -- <help|self-test|mcp> [--no-display] [--no-sandbox] [--executable PATH]`:
 * runs the installed `pictor` command as a user types it and checks what it prints. Typed means
 * by name, found on PATH: /usr/bin/pictor on Linux, the /usr/local/bin/pictor link on macOS
 * (`npm run ci:install` made it as "Install Command Line Tool…" does), bin\pictor.cmd on Windows
 * through the user's Path as the installer left it in the registry, which a new terminal reads
 * (installed-app.ts). It must resolve to that file, not to another `pictor`. `--executable` runs
 * that file instead. `--no-display` drops DISPLAY and WAYLAND_DISPLAY (an SSH session, a
 * server); `--no-sandbox` is for root in a container. Exits 0 or 1 (2 for a usage error). A dry
 * run (PICTOR_CI_DRY=1) says the command line it would type and runs nothing.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine, type CiContext } from '../../../electron/build/ci-context';
import { findOnPath } from '../../support/tools';
import {
  checkHelp,
  checkSelfTest,
  commandLine,
  typedCommandLine,
  typedCommandTarget,
  userPathFromRegQuery,
  withoutDisplay,
  withUserPath,
} from './installed-app';
import { runCommand } from './run-command';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

/** The environment of a new terminal: on Windows with the user's Path from the registry. */
function terminalEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'win32') return base;
  const query = execFileSync('reg', ['query', 'HKCU\\Environment', '/v', 'Path'], {
    encoding: 'utf8',
  });
  return withUserPath(base, userPathFromRegQuery(query, base));
}

/** `pictor` as typed: the command line, and the file it resolves to (or why it is the wrong one). */
function typed(args: string[], base: NodeJS.ProcessEnv) {
  const env = terminalEnv(base);
  const found = findOnPath('pictor', env);
  const expected = typedCommandTarget(process.platform, base);
  const same =
    found !== null &&
    (process.platform === 'win32'
      ? path.win32.normalize(found).toLowerCase() === path.win32.normalize(expected).toLowerCase()
      : found === expected);
  return {
    env,
    line: typedCommandLine(process.platform, args),
    problem: same ? null : `pictor typed at a prompt runs ${found ?? 'nothing'}, not ${expected}`,
    shown: `pictor (${found ?? 'not on PATH'})`,
  };
}

const SCRIPT = {
  name: 'ci:installed',
  usage:
    'npm run ci:installed -- <help|self-test|mcp> [--no-display] [--no-sandbox] [--executable PATH]',
  options: {
    'no-display': { type: 'boolean' },
    'no-sandbox': { type: 'boolean' },
    executable: { type: 'string' },
  },
  commands: ['help', 'self-test', 'mcp'],
} as const;

/** A dry run: the command line that would be typed, and nothing run. */
function dry(context: CiContext, argv: readonly string[], given: string | undefined): number {
  const line = given ? commandLine(given, argv) : typedCommandLine(context.platform, argv);
  const target = given ?? typedCommandTarget(context.platform, process.env);
  console.log(
    skippedLine(
      'ci:installed',
      `${line.file} ${line.args.join(' ')} (${target})`,
      'a dry run starts no installed app: nothing is installed here',
    ),
  );
  return 0;
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = ciArgsOrExit(SCRIPT, args);
  const context = ciContext('ci:installed');
  const what = parsed.command ?? 'help';
  const given = parsed.values.executable;
  const noDisplay = parsed.values['no-display'] === true;
  const base = noDisplay ? withoutDisplay(process.env) : process.env;
  // mcp: the server on the built-in demo, on a library of its own (installed-mcp.ts drives it).
  // Removed however the run ends (a dry run, a wrong `pictor`, a check that throws): only the
  // MCP check's own end removed it, and every dry run of ci-steps.test.ts left one behind.
  const library = what === 'mcp' ? tempFolderSync('ci-mcp') : null;
  try {
    const argv = [
      ...(parsed.values['no-sandbox'] === true ? ['--no-sandbox'] : []),
      what,
      ...(library === null ? [] : ['--provider', 'demo', '--data-dir', library]),
    ];
    if (context.dry) return dry(context, argv, given);
    const command = given
      ? { env: base, line: commandLine(given, argv), problem: null, shown: given }
      : typed(argv, base);
    console.log(
      `installed: ${command.shown} ${argv.join(' ')}${base === process.env ? '' : ' (no display)'}`,
    );
    if (command.problem) {
      console.error(`installed: FAILED: ${command.problem}`);
      return 1;
    }
    if (what === 'mcp') {
      // The MCP SDK is loaded only to check: a dry run (every leg of ci-steps.test.ts) does not.
      const { checkMcp } = await import('./installed-mcp');
      const verdict = await checkMcp(command.line, command.env);
      console[verdict.ok ? 'log' : 'error'](
        `installed: ${verdict.ok ? verdict.line : `FAILED: ${verdict.problem}`}`,
      );
      return verdict.ok ? 0 : 1;
    }
    const result = await runCommand(command.line, command.env);
    const verdict =
      what === 'help'
        ? checkHelp(result.code, result.output)
        : checkSelfTest(result.code, result.stdout);
    if (!verdict.ok) {
      console.error(`installed: FAILED: ${verdict.problem}\n${result.output.slice(-3000)}`);
      return 1;
    }
    console.log(`installed: ${verdict.line}`);
    return 0;
  } finally {
    if (library !== null) removeFolderSync(library);
  }
}

process.exitCode = await main(process.argv.slice(2));
