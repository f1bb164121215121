/**
 * Runs npm scripts at once and fails when any fails: `tsx tests/support/parallel.ts typecheck
 * lint:eslint lint:prettier` (the static checks, each one mostly a single core, run side by side
 * on a 2-core machine). Each script's output is printed whole when it ends, under its name and
 * how long it took, so two never interleave; the exit code is the first failure's, 0 when all
 * pass. npm test's phases (tests/support/test-phases.ts) run through {@link runScripts} too.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** One script's end: its exit code, when it started and ended (ms since `origin`). */
export interface Finished {
  readonly script: string;
  readonly code: number;
  readonly started: number;
  readonly ended: number;
}

/**
 * An npm script to run. `live`: its output goes straight to this process's (for a test runner,
 * long and watched); otherwise it is kept and printed whole at the end, under a line that names
 * the script, its verdict and its wall time.
 */
export interface Phase {
  readonly script: string;
  readonly live?: boolean;
}

/** Runs `npm run <script>` as `phase` says; resolves when it has ended. */
function runScript(phase: Phase, origin: number): Promise<Finished> {
  const { script, live = false } = phase;
  const started = performance.now() - origin;
  return new Promise((resolveRun) => {
    const child = spawn('npm', ['run', '--silent', script], {
      shell: process.platform === 'win32',
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const end = (code: number, extra = ''): void => {
      const ended = performance.now() - origin;
      const verdict = code === 0 ? 'passed' : `failed (exit ${String(code)})`;
      const seconds = ((ended - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${script}: ${verdict} in ${seconds} s\n${output}${extra}`);
      resolveRun({ script, code, started, ended });
    };
    child.once('error', (error) => end(1, `${error.message}\n`));
    child.once('close', (code) => end(code ?? 1));
  });
}

/** Runs the scripts side by side; each script's output as {@link runScript} prints it. */
export function runScripts(phases: readonly Phase[], origin: number): Promise<Finished[]> {
  return Promise.all(phases.map((phase) => runScript(phase, origin)));
}

/** The exit code of a group of scripts: the first failure's, 0 when all passed. */
export function firstFailure(results: readonly Finished[]): number {
  return results.find((result) => result.code !== 0)?.code ?? 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const scripts = process.argv.slice(2);
  if (scripts.length === 0) {
    console.error('usage: tsx tests/support/parallel.ts <npm script> [<npm script> ...]');
    process.exit(2);
  }
  const phases = scripts.map((script) => ({ script }));
  process.exitCode = firstFailure(await runScripts(phases, performance.now()));
}
