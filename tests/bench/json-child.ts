/**
 * Runs a bench child process (`node --expose-gc --import tsx <script> <args>`, so it can collect
 * garbage before it measures; a bundled child without tsx) and returns the JSON report it prints
 * as its last line.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function runJsonChild<T>(
  script: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number; name: string; bundled?: boolean },
): Promise<T> {
  const loader = options.bundled ? [] : ['--import', 'tsx'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', ...loader, script, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        maxBuffer: 16 * 1024 * 1024,
        timeout: options.timeoutMs,
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${options.name} failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as T);
        } catch {
          reject(new Error(`${options.name} printed no report: ${stdout.slice(0, 500)}`));
        }
      },
    );
  });
}
