/**
 * A test run's own temporary folder, and what the run's tests left in it. `npm test`
 * (tests/support/test-phases.ts) makes one before it starts anything and names it in TMPDIR, which
 * every process of the run inherits (vitest's workers, Playwright's, the app, Chromium, the CLI,
 * the demo service) and Node's `os.tmpdir()` reads; when the run has ended, the folders its tests
 * made and did not remove fail it, named, and the folder goes with everything in it.
 *
 * What the tests make is told by its name: every test's folder is `pictor-<name>-…`
 * (tests/support/temp-folders.ts), as the app's own temporary folders are. The rest is the tools'
 * (Chromium's `.org.chromium.Chromium.*`, Node's compile cache, tsx's), listed but not judged. Two
 * `pictor-` folders are kept on purpose, each user's parent of the runs' bundles and caches
 * (node-entries.ts's {@link runsParentName}): each run removes its own folder in them, so what is
 * left inside one is a leftover, the parent itself not.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runsParentName } from './node-entries';
import { removeFolder, TEMP_PREFIX, tempFolder } from './temp-folders';

/** What a run left in its temporary folder. */
interface LeftInRun {
  /** The tests' folders left behind, by name (inside a kept parent: `parent/name`). */
  readonly tests: readonly string[];
  /** Everything else there: the tools' files, not judged. */
  readonly others: readonly string[];
}

/** A run's temporary folder, named in TMPDIR until {@link RunTemp.end}. */
export interface RunTemp {
  readonly dir: string;
  /** What the run left; TMPDIR named as before it; the folder removed. */
  end(): Promise<LeftInRun>;
}

/** The `pictor-` folders kept between runs on purpose (their contents are judged). */
const KEPT = new Set([runsParentName('test-entries'), runsParentName('run-cache')]);

/** What is in `dir`, the tests' folders apart from the rest. */
async function leftIn(dir: string): Promise<LeftInRun> {
  const tests: string[] = [];
  const others: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!name.startsWith(TEMP_PREFIX)) others.push(name);
    else if (!KEPT.has(name)) tests.push(name);
    else tests.push(...(await readdir(join(dir, name))).sort().map((inner) => `${name}/${inner}`));
  }
  return { tests, others };
}

/**
 * A new folder for a run (`pictor-run-…` in the OS's temporary folder), named in `env.TMPDIR`
 * (this process's own by default) for the processes the run starts, until {@link RunTemp.end}.
 */
export async function runTemp(env: NodeJS.ProcessEnv = process.env): Promise<RunTemp> {
  const dir = await tempFolder('run');
  const before = env.TMPDIR;
  env.TMPDIR = dir;
  return {
    dir,
    end: async () => {
      try {
        return await leftIn(dir);
      } finally {
        if (before === undefined) delete env.TMPDIR;
        else env.TMPDIR = before;
        await removeFolder(dir);
      }
    },
  };
}
