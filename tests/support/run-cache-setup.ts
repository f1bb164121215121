/**
 * Vitest global setup of the unit and wired renderer projects: a folder for what a run's test
 * files make once and share (run-cache.ts), removed after the run, and the run's Node entries
 * (node-entries-setup.ts), whose build holds the history and answer workers.
 *
 * Every wired main (wired-api.ts) runs its history's heavy operations in a worker thread, as the
 * app does (electron/core/history/history-port.ts); from source that thread loads its modules
 * through tsx, 0.6–0.9 s of CPU at each start, and a file whose tests start a main each paid it
 * once per test. The bundle, built with the main bundle's options, starts as the packaged app's
 * does (bundled-history-worker.ts). It is the Node entries' own: the four projects that name this
 * setup run it one after another before the first test, and each bundled the workers again.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ownTempName } from '../../electron/core/fs/temp-names';
import { removeLeftoverRuns, runsParentName } from './node-entries';
import { setup as setupNodeEntries } from './node-entries-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cache folder (tests/support/run-cache.ts). */
    pictorRunCache: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const releaseEntries = await setupNodeEntries(project);
  // Named for this process, as node-entries.ts names its bundles: a run killed before its
  // teardown leaves its folder, which the next run removes.
  const parent = join(tmpdir(), runsParentName('run-cache'));
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await removeLeftoverRuns(parent);
  const dir = join(parent, ownTempName(''));
  await mkdir(dir);
  project.provide('pictorRunCache', dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    await releaseEntries();
  };
}
