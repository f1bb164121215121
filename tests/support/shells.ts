/**
 * The shells a printed command is pasted into, to check quoting against each one present here:
 * POSIX sh as Debian's dash, bash, zsh and fish. Each reads the words of one command line and a
 * program given them writes them down with `printf '%s\0'`, each ended by a NUL (a word may hold
 * any character but NUL): the program is a plain executable the shell starts as any other, where
 * a Node one-liner cost ~40 ms of CPU per command run. One shell start for many words. Where a
 * shell is missing, the tests that need it are skipped saying so (tools.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tool, type Tool } from './tools';
import { removeFolderSync, tempFolderSync } from './temp-folders';
import { bareEnv } from './child-env';

/** Every shell a printed command should read the same in. */
export const SHELLS: readonly Tool[] = ['dash', 'bash', 'zsh', 'fish'].map((name) => tool(name));

/** The program that writes its arguments down: an executable, not the shell's own builtin. */
const PRINTF = tool('printf');

/** The NUL-ended words `printf '%s\0'` wrote. */
function nulEnded(bytes: Buffer): string[] {
  const words = bytes.toString('utf8').split('\0');
  if (words.pop() !== '') throw new Error('the words written do not end with a NUL');
  return words;
}

/** The arguments `shell` passes a program called with the command-line text `words`. */
export function argumentsIn(
  shell: Tool,
  words: string,
  env: Record<string, string> = {},
): string[] {
  if (!shell.path) throw new Error(shell.missing);
  if (!PRINTF.path) throw new Error(PRINTF.missing);
  // The first word written is the program's own (`args`): none after it is an empty list.
  const script = `"$PRINTF" '%s\\0' args ${words}`;
  const out = execFileSync(shell.path, ['-c', script], {
    env: bareEnv({ HOME: '/nonexistent', ...env, PRINTF: PRINTF.path }),
  });
  const [first, ...given] = nulEnded(out);
  if (first !== 'args') throw new Error(`the shell ran something else: ${JSON.stringify(first)}`);
  return given;
}

/**
 * The commands `script` (printed lines, one a line) starts when `shell` runs it whole, as a user
 * who pastes it: each as its program's name and arguments. Stand-ins for `pictor` and `curl`,
 * first on PATH, write down what they were given and run nothing else; `env` is exported (a line
 * that hands itself to `sh -c` reads the key from the environment).
 */
export function commandsRunBy(
  shell: Tool,
  script: string,
  env: Record<string, string> = {},
): string[][] {
  if (!shell.path) throw new Error(shell.missing);
  const bin = tempFolderSync('shells');
  try {
    const ran = join(bin, 'ran');
    // Each command as its number of arguments, its name and its arguments, each ended by a NUL.
    for (const program of ['pictor', 'curl']) {
      const standIn = join(bin, program);
      writeFileSync(standIn, `#!/bin/sh\nprintf '%s\\0' "$#" ${program} "$@" >> "$RAN"\n`);
      chmodSync(standIn, 0o755);
    }
    execFileSync(shell.path, ['-c', script], {
      env: {
        PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
        HOME: '/nonexistent',
        ...env,
        RAN: ran,
      },
    });
    const words = existsSync(ran) ? nulEnded(readFileSync(ran)) : [];
    const commands: string[][] = [];
    for (let at = 0; at < words.length;) {
      const count = Number(words[at]);
      commands.push(words.slice(at + 1, at + 2 + count));
      at += 2 + count;
    }
    return commands;
  } finally {
    removeFolderSync(bin);
  }
}

/**
 * `line` without its single-quoted runs and backslash-escaped characters: what is left is what
 * fish before 3.4 could refuse (`$(`) or expand.
 */
export function outsidePosixQuotes(line: string): string {
  let bare = '';
  for (let at = 0; at < line.length; at += 1) {
    if (line[at] === '\\') at += 1;
    else if (line[at] === "'") {
      at = line.indexOf("'", at + 1);
      if (at < 0) throw new Error(`an unclosed quote in ${line}`);
    } else bare += line[at];
  }
  return bare;
}

/** The Windows shells a printed line is pasted into: cmd.exe, Windows PowerShell and PowerShell 7. */
export const WINDOWS_SHELLS: readonly Tool[] =
  process.platform === 'win32'
    ? [tool('cmd'), tool('powershell'), tool('pwsh')]
    : ['cmd', 'powershell', 'pwsh'].map((name) => ({
        name,
        path: null,
        missing: `${name} runs on Windows only (the CI's Windows leg runs this test)`,
      }));

/** Stand-ins for the programs a Windows line starts, in a folder of their own. */
export interface WindowsStandIns {
  /**
   * What `line` starts when `shell` runs it, as its program's name and arguments: `pictor` is the
   * installed batch file (a copy of resources/windows/pictor.cmd, beside a Pictor.exe that is
   * this Node with a preload that writes its arguments down); `curl.exe`, a program, is this Node
   * running that same script, given its arguments as cmd.exe hands them on.
   */
  run(shell: Tool, line: string, env: Record<string, string>): string[];
  remove(): void;
}

/** Makes the stand-ins (on Windows only: Pictor.exe is a copy of this Node). */
export function windowsStandIns(): WindowsStandIns {
  const dir = tempFolderSync('windows-shells');
  const ran = join(dir, 'ran.jsonl');
  const record = join(dir, 'record.cjs');
  writeFileSync(
    record,
    [
      'const args = process.argv.slice(2);',
      'const program = process.env.STANDIN;',
      "if (program === 'pictor') args.unshift(require('path').basename(process.argv[1]));",
      "require('fs').writeFileSync(process.env.RAN, JSON.stringify([program, ...args]));",
      'process.exit(0);',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join('resources', 'windows', 'pictor.cmd'), join(dir, 'bin', 'pictor.cmd'));
  copyFileSync(process.execPath, join(dir, 'Pictor.exe'));
  const bare = (path: string) => (/^[^\s"]+$/.test(path) ? path : `"${path}"`);
  const pathName = Object.keys(process.env).find((name) => /^path$/i.test(name)) ?? 'PATH';
  return {
    run(shell, line, env) {
      if (!shell.path) throw new Error(shell.missing);
      rmSync(ran, { force: true });
      const pictor = !line.includes('curl.exe ');
      const script = line.replace('curl.exe ', `${bare(process.execPath)} ${bare(record)} `);
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        [pathName]: `${join(dir, 'bin')};${process.env[pathName] ?? ''}`,
        ...env,
        RAN: ran,
        STANDIN: pictor ? 'pictor' : 'curl',
        ...(pictor ? { NODE_OPTIONS: `--require "${record}"` } : {}),
      };
      const args =
        shell.name === 'cmd'
          ? ['/d', '/s', '/c', `"${script}"`]
          : [
              '-NoProfile',
              '-NonInteractive',
              '-EncodedCommand',
              Buffer.from(script, 'utf16le').toString('base64'),
            ];
      // cmd.exe's line as written: Node would quote it again for the C runtime's rules.
      const done = spawnSync(shell.path, args, {
        env: childEnv,
        encoding: 'utf8',
        windowsVerbatimArguments: shell.name === 'cmd',
      });
      if (done.status !== 0)
        throw new Error(`${shell.name} failed (${done.status}): ${done.stderr}`);
      return JSON.parse(readFileSync(ran, 'utf8')) as string[];
    },
    remove: () => removeFolderSync(dir),
  };
}
