/**
 * The words of a printed command before a shell's quoting: one model for the POSIX line
 * (shell-command.ts) and the Windows ones (windows-command.ts), so both print the same request.
 */

/** The shell a printed line is for: POSIX shells and fish, cmd.exe, or PowerShell. */
export type CommandShell = 'posix' | 'cmd' | 'powershell';

/** The shell a user of `platform` pastes into: PowerShell on Windows (its terminal's default). */
export function commandShellOf(platform: string): CommandShell {
  return platform === 'win32' ? 'powershell' : 'posix';
}

/**
 * A word: text as written, or text around the key's variable, which the shell fills in from its
 * environment (the key itself is never printed).
 */
export type CommandWord = string | { readonly before: string; readonly after: string };

/** A command: `pictor` (the CLI) or `curl`, and its words. */
export interface CommandLine {
  readonly program: 'pictor' | 'curl';
  readonly words: readonly CommandWord[];
}
