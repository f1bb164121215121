/**
 * The Node programs the tests start as child processes: the CLI and the demo service, and the
 * hardening tests' workers (a real core each, killed mid-work). One esbuild bundle each, built
 * once per run with the production main bundle's options (electron/build/build-electron.ts) and
 * code splitting, started as `node <bundle>`. Starting `node --import tsx <source>` transpiles and resolves
 * hundreds of modules on every start (4–7 s on a loaded 2-core machine, 2 s or less for the
 * bundle), and the crash tests start their workers dozens of times a run (the core-kill worker
 * to its `ready`, on a quiet 2-core machine: 0.7 s and 0.9 s of CPU from the source, 0.36 s and
 * 0.42 s from the bundle); the tests that check `npm run cli` and `npm run demo-service`
 * themselves still start the sources.
 * npm test builds them once for both runners (tests/support/test-phases.ts); run alone, Vitest
 * builds them in tests/support/node-entries-setup.ts, Playwright in tests/e2e/global-setup.ts
 * ({@link acquireTestEntries}).
 */
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import {
  copyFile,
  lstat,
  mkdir,
  readFile,
  readdir,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainBuildOptions, mainWorkerEntries } from '../../electron/build/build-electron';
import { BUNDLED_TRUST_ANCHORS_FILE } from '../../electron/core/content-credentials/trust-anchors';
import { isLeftoverTemp, ownTempName } from '../../electron/core/fs/temp-names';
import { acquireRunFolder, type AcquiredFolder } from './run-folder';
import { REPO_ROOT } from './source-files';

/** The app's entry points bundled, by output name. */
export const NODE_ENTRIES = {
  cli: 'electron/cli/main.ts',
  'demo-service': 'electron/demo-service/cli.ts',
} as const;

/**
 * The crash tests' child processes (hardening's, and integration's kill -9 children), by output
 * name: each runs the real core from the bundle, as the CLI does (sharp from node_modules, the
 * Content Credentials worker and the trust list beside it), and finds nothing next to its source.
 */
export const TEST_WORKERS = {
  'core-kill-worker': 'tests/hardening/crashes/core-kill-worker.ts',
  'trash-kill-worker': 'tests/hardening/crashes/trash-kill-worker.ts',
  'inline-kill-worker': 'tests/hardening/crashes/inline-kill-worker.ts',
  'settings-kill-worker': 'tests/hardening/crashes/settings-kill-worker.ts',
  'settings-writer-worker': 'tests/hardening/concurrency/settings-writer-worker.ts',
  'lease-worker': 'tests/hardening/concurrency/lease-worker.ts',
  'lease-race-worker': 'tests/hardening/concurrency/lease-race-worker.ts',
  // The integration project's kill -9 children (a history writer, a spilled transaction, a
  // triage batch): started 18 times a run, each `node --import tsx` start transpiled them anew.
  'history-crash-worker': 'tests/integration/history/history-crash-worker.ts',
  'history-spill-worker': 'tests/integration/history/history-spill-worker.ts',
  'kill-mid-batch-child': 'tests/integration/triage/kill-mid-batch-child.ts',
} as const;

export type NodeEntry = keyof typeof NODE_ENTRIES | keyof typeof TEST_WORKERS;

/** The environment variable that names the bundles' folder for Playwright's workers. */
export const NODE_ENTRIES_ENV = 'PICTOR_TEST_NODE_ENTRIES';

/**
 * Removes the folders in `parent` that no run will release: a run killed before its teardown
 * leaves its bundles. Each folder is named for the process that made it, as the gallery's
 * temporary files are (electron/core/fs/temp-names.ts), so a run still going (another
 * checkout sharing node_modules, a Playwright run beside Vitest) keeps its own.
 */
export async function removeLeftoverRuns(parent: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(parent)) {
    const info = await lstat(join(parent, name)).catch(() => null);
    if (info !== null && isLeftoverTemp(name, info.mtimeMs, now)) {
      await rm(join(parent, name), { recursive: true, force: true });
    }
  }
}

/**
 * Where the runs' bundle folders go: this user's own folder in the system's temporary folder.
 * Never inside the repository's node_modules: npm trusts its record of the install
 * (node_modules/.package-lock.json) only while no entry of node_modules is newer, and the
 * packaging tests pack with that record (tests/support/test-build.ts); a folder made there while
 * they ran made npm read the linked tree without it, and the packed app lacked every package's own
 * dependencies.
 */
function testEntriesParent(): string {
  return join(tmpdir(), runsParentName('test-entries'));
}

/**
 * The name of this user's folder, in the system's temporary folder, for the runs' bundles (here)
 * or their caches (run-cache-setup.ts): kept between runs, each run making its own folder in it
 * and removing it as it ends (tests/support/run-temp.ts counts one left there as a leftover).
 */
export function runsParentName(kind: 'test-entries' | 'run-cache'): string {
  return `pictor-${kind}-${String(process.getuid?.() ?? 'user')}`;
}

/**
 * Bundles every entry (the app's and the test workers', in one build) into a new folder of
 * {@link testEntriesParent}, beside a link to the repository's node_modules (where the bundles'
 * external packages resolve from), after removing the leftovers of killed runs there; `release`
 * removes it.
 */
export async function buildTestEntries(): Promise<{ dir: string; release: () => Promise<void> }> {
  const parent = testEntriesParent();
  await mkdir(parent, { recursive: true, mode: 0o700 });
  await removeLeftoverRuns(parent);
  const dir = join(parent, ownTempName(''));
  await mkdir(dir);
  // A junction on Windows (no privilege needed), a symbolic link elsewhere.
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'junction');
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  // The main bundle's options: its workers (Content Credentials, service answers) beside the
  // entries, and the trust list where a bundle looks for it, as the build writes them. A test
  // build (PICTOR_TEST_BUILD fixed as '1'): its CLI has the import's hold (electron/cli/import-hold.ts).
  const options = mainBuildOptions(
    { rootDir: REPO_ROOT, outDir: dir },
    manifest.dependencies,
    true,
  );
  const entries = Object.fromEntries(
    Object.entries({ ...NODE_ENTRIES, ...TEST_WORKERS }).map(([name, source]) => [
      name,
      join(REPO_ROOT, source),
    ]),
  );
  // Split into chunks, as a command-line tool is shipped: a module reached only through a dynamic
  // import (each CLI command behind electron/cli/command-table.ts) is its own file, loaded with its
  // imports (zod, the message catalogue) only when that command runs, so `--version` costs about
  // a bare Node start (without splitting every external import is hoisted into the entry).
  await build({
    ...options,
    splitting: true,
    entryPoints: { ...entries, ...mainWorkerEntries(REPO_ROOT) },
  });
  await copyFile(
    join(REPO_ROOT, 'resources/c2pa/trust-anchors.pem'),
    join(dir, BUNDLED_TRUST_ANCHORS_FILE),
  );
  // The bundles are ES modules (.js): say so, as the repository's package.json does.
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  return { dir, release: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The run's bundles: the folder PICTOR_TEST_NODE_ENTRIES already names (checked: every entry's
 * bundle is there, and kept: whoever built it removes it), or a new {@link buildTestEntries}
 * folder that it names afterwards, for this process and what it starts
 * (tests/support/run-folder.ts). npm test (tests/support/test-phases.ts) builds them once before
 * its stages, for the journeys' global setup and the Vitest projects' (each project runs its
 * global setup, one after another, before the first test: each built its own).
 */
export function acquireTestEntries(env: NodeJS.ProcessEnv = process.env): Promise<AcquiredFolder> {
  return acquireRunFolder(
    NODE_ENTRIES_ENV,
    (dir) => {
      for (const entry of Object.keys({ ...NODE_ENTRIES, ...TEST_WORKERS }) as NodeEntry[]) {
        entryArgs(dir, entry);
      }
    },
    async () => {
      const built = await buildTestEntries();
      return { dir: built.dir, dispose: built.release };
    },
    env,
  );
}

/** `node` arguments that start `entry` from the bundles in `dir` (before its own arguments). */
export function entryArgs(dir: string, entry: NodeEntry): string[] {
  const bundle = join(dir, `${entry}.js`);
  if (!existsSync(bundle)) throw new Error(`the test bundle ${bundle} is missing`);
  return [bundle];
}
