/**
 * Builds the app once (`npm run build`: renderer, main, image worker, preload) before any
 * packaging test file runs. The files run in parallel and each packs what is built; building in
 * each would race on dist/ and dist-electron/.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function setup(): Promise<void> {
  const started = performance.now();
  try {
    // The release's settings: vitest sets NODE_ENV=test, with which Vite would bundle React's
    // development build into dist/ (which the journeys and the bench then reuse).
    await promisify(execFile)('npm', ['run', 'build'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `npm run build failed, so nothing can be packed: ${output.message}\n${output.stdout ?? ''}\n${output.stderr ?? ''}`,
      { cause: error },
    );
  }
  console.info(`packaging: npm run build ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
