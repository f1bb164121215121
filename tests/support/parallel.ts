/**
 * Runs npm scripts at once and fails when any fails: `tsx tests/support/parallel.ts typecheck
 * lint:eslint lint:prettier` (npm test's static checks, each one mostly a single core, run side
 * by side on a 2-core machine). Each script's output is printed whole when it ends, under its
 * name, so two never interleave; the exit code is the first failure's, 0 when all pass.
 */
import { spawn } from 'node:child_process';

interface Finished {
  readonly script: string;
  readonly code: number;
  readonly output: string;
}

function run(script: string): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      shell: process.platform === 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', (error) =>
      resolve({ script, code: 1, output: `${output}${error.message}\n` }),
    );
    child.once('close', (code) => resolve({ script, code: code ?? 1, output }));
  });
}

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: tsx tests/support/parallel.ts <npm script> [<npm script> ...]');
  process.exit(2);
}
const results = await Promise.all(
  scripts.map(async (script) => {
    const finished = await run(script);
    const verdict = finished.code === 0 ? 'passed' : `failed (exit ${String(finished.code)})`;
    process.stdout.write(`\n> ${script}: ${verdict}\n${finished.output}`);
    return finished;
  }),
);
process.exitCode = results.find((result) => result.code !== 0)?.code ?? 0;
