/**
 * Vitest global setup: bundles the CLI, the demo service and the hardening tests' workers once
 * for the run (tests/support/node-entries.ts), or takes the bundles npm test built for all its
 * phases (PICTOR_TEST_NODE_ENTRIES); the four projects that name this setup run it one after
 * another, and the first one's bundles serve the others. Test files start them with
 * `nodeEntryArgs` (tests/support/node-entry-args.ts).
 */
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { acquireTestEntries } from './node-entries';
import { REPO_ROOT } from './source-files';

/**
 * Node's compile cache for every `node` the tests start (the CLI is started hundreds of times a
 * run, and compiling its bundle and zod's modules was a quarter of each start's CPU): set here,
 * before any worker starts, so workers inherit it and pass it to their children (run-cli.ts's
 * childEnv). Under node_modules/.cache, the user's own, as other tools' caches are; entries are
 * keyed by the source's hash, so a changed bundle is compiled anew.
 */
const COMPILE_CACHE = join(REPO_ROOT, 'node_modules/.cache/pictor-compile-cache');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding cli.js, demo-service.js and the test workers' bundles. */
    pictorNodeEntries: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;
  const acquired = await acquireTestEntries();
  project.provide('pictorNodeEntries', acquired.dir);
  return acquired.release;
}
