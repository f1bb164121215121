/**
 * Vitest global setup of the wired renderer projects: a folder for what a run's test files make
 * once and share (run-cache.ts), removed after the run, and the history worker bundled into it.
 *
 * Every wired main (wired-api.ts) runs its history's heavy operations in a worker thread, as the
 * app does (electron/core/history/history-port.ts); from source that thread loads its modules
 * through tsx, 0.6–0.9 s of CPU at each start, and a file whose tests start a main each paid it
 * once per test. The bundle, built with the main bundle's options (node-entries.ts builds the
 * same for the CLI's tests), starts as the packaged app's does.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { mainBuildOptions, mainWorkerEntries } from '../../electron/build/build-electron';
import { ownTempName } from '../../electron/core/fs/temp-names';
import { removeLeftoverRuns } from './node-entries';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cache folder (tests/support/run-cache.ts). */
    pictorRunCache: string;
    /** The bundled history worker (history-worker.js) the wired mains start. */
    pictorHistoryWorker: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Named for this process, as node-entries.ts names its bundles: a run killed before its
  // teardown leaves its folder, which the next run removes.
  const parent = join(tmpdir(), `pictor-run-cache-${String(process.getuid?.() ?? 'user')}`);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await removeLeftoverRuns(parent);
  const dir = join(parent, ownTempName(''));
  await mkdir(dir);
  project.provide('pictorRunCache', dir);
  project.provide('pictorHistoryWorker', await bundleHistoryWorker(join(dir, 'workers')));
  return () => rm(dir, { recursive: true, force: true });
}

/**
 * history-worker.js and answer-worker.js in `outDir`, beside a link to node_modules (where their
 * externals resolve); the history worker's path.
 */
async function bundleHistoryWorker(outDir: string): Promise<string> {
  const rootDir = resolve(import.meta.dirname, '..', '..');
  const manifest = JSON.parse(await readFile(join(rootDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const { 'history-worker': history, 'answer-worker': answers } = mainWorkerEntries(rootDir);
  if (!history || !answers) throw new Error('The main build names no history or answer worker.');
  // The answer worker beside it: bundledAnswers() (bundled-history-worker.ts) looks for it there.
  await build({
    ...mainBuildOptions({ rootDir, outDir }, manifest.dependencies),
    entryPoints: { 'history-worker': history, 'answer-worker': answers },
  });
  await symlink(join(rootDir, 'node_modules'), join(outDir, 'node_modules'), 'junction');
  await writeFile(join(outDir, 'package.json'), '{ "type": "module" }\n');
  return join(outDir, 'history-worker.js');
}
