/**
 * The shells a printed command is pasted into, to check quoting against each one present here:
 * POSIX sh as Debian's dash, bash, zsh and fish. Each reads the words of one command line and a
 * Node one-liner prints the arguments it got, as JSON (a word may hold any character but NUL);
 * one shell start for many words. Where a shell is missing, the tests that need it are skipped
 * saying so (tools.ts).
 */
import { execFileSync } from 'node:child_process';
import { tool, type Tool } from './tools';

/** Every shell a printed command should read the same in. */
export const SHELLS: readonly Tool[] = ['dash', 'bash', 'zsh', 'fish'].map((name) => tool(name));

/** The arguments `shell` passes a program called with the command-line text `words`. */
export function argumentsIn(
  shell: Tool,
  words: string,
  env: Record<string, string> = {},
): string[] {
  if (!shell.path) throw new Error(shell.missing);
  const script = `"$NODE" -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' -- ${words}`;
  const out = execFileSync(shell.path, ['-c', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      ...env,
      NODE: process.execPath,
    },
  });
  return JSON.parse(out) as string[];
}
