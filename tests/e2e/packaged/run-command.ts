/**
 * Runs an invocation built by installed-app.ts (commandLine, typedCommandLine) with the spawn
 * options it carries, so a cmd.exe line always goes verbatim; the packaged scripts start the
 * `pictor` command only through this.
 */
import { spawn } from 'node:child_process';
import type { Invocation } from './installed-app';

export interface CommandResult {
  /** The exit code; null when it was killed or could not start. */
  readonly code: number | null;
  readonly stdout: string;
  /** stdout and stderr as they came, and why it could not start, if it could not. */
  readonly output: string;
}

export function runCommand(
  invocation: Invocation,
  env: NodeJS.ProcessEnv = process.env,
  /** Killed after this long (its code is then null); default: waits for it. */
  timeoutMs?: number,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(invocation.file, invocation.args, {
      ...invocation.options,
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) =>
      resolve({ code: null, stdout, output: `${output}${error.message}` }),
    );
    child.on('close', (code) => resolve({ code, stdout, output }));
  });
}
