/**
 * The installed app as the `pictor` command (see cli/cli-invocation.ts): runs the CLI in the main
 * process with no window, no single-instance lock and no protocols, prints to the terminal it was
 * started from, and exits with the CLI's code. It shares the app's library (same data folder).
 */
import type { App } from 'electron';
import type { CliIo } from './cli/commands';

/** What the command line needs of Electron's `app`. */
export type CliApp = Pick<App, 'exit'> & { readonly dock?: Pick<NonNullable<App['dock']>, 'hide'> };

/** Runs `args` through the CLI and ends the process with its exit code. */
export async function runAsCommandLine(
  app: CliApp,
  args: readonly string[],
  io: Omit<CliIo, 'interrupt' | 'program'> = {
    env: process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  },
): Promise<number> {
  // No Dock icon bouncing on macOS for a command run from a terminal.
  app.dock?.hide();
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Loaded only when asked for: the app's own start-up never pays for the CLI.
  const { runCli } = await import('./cli/main');
  const code = await runCli(args, { ...io, interrupt: interrupt.signal, program: 'pictor' });
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  app.exit(code);
  return code;
}
