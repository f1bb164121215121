/**
 * A test run's own temporary folder, and what the run's tests left in it. `npm test`
 * (tests/support/test-phases.ts) makes one before it starts anything and names it in TMPDIR, which
 * every process of the run inherits (vitest's workers, Playwright's, the app, Chromium, the CLI,
 * the demo service) and Node's `os.tmpdir()` reads; a test that starts a child with an environment
 * of its own passes TMPDIR on (tests/support/child-env.ts). When the run has ended, everything left
 * in the folder is judged by name, and the folder goes with everything in it.
 *
 * What the tests make is told by its name: every test's folder is `pictor-<name>-…`
 * (tests/support/temp-folders.ts), as the app's own temporary folders are; left behind, it fails
 * the run. So does every other name but the tools' own ({@link TOOLS}, each read from what a run
 * of vitest, the journeys and the packaging steps left: the tool that made it is named beside its
 * pattern), which are listed and not judged: a file a test writes straight into the temporary
 * folder, under any name, fails the run too. Two `pictor-` folders are kept on purpose, each
 * user's parent of the runs' bundles and caches (node-entries.ts's {@link runsParentName}): each
 * run removes its own folder in them, so what is left inside one is a leftover, the parent itself
 * not.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runsParentName } from './node-entries';
import { removeFolder, tempFolder } from './temp-folders';

/** What a run left in its temporary folder. */
interface LeftInRun {
  /**
   * What fails the run, by name: the tests' folders (inside a kept parent: `parent/name`) and
   * every name no tool of {@link TOOLS} makes.
   */
  readonly leftovers: readonly string[];
  /** The tools' own files, each as `name (tool)`: listed, not judged. */
  readonly tools: readonly string[];
}

/**
 * The names the tools a run starts give what they leave in the temporary folder (the run's
 * TMPDIR), each with the tool that makes it. Nothing else may be left there. A whole run (the
 * fresh-clone CI of cf704b82) left jiti's, Node's, Playwright's and tsx's; Chromium's are gone
 * when its browser closes, and stay only where one was killed. Vitest's run folder (21 nanoid
 * characters), Playwright's profiles and artifacts and electron-builder's `t-XXXXXX` are there
 * while a run goes, and removed by their tools: left, they fail the run.
 */
const TOOLS: readonly { readonly tool: string; readonly name: RegExp }[] = [
  // Chromium's folder for its singleton socket (`org.chromium.Chromium.XXXXXX`) and its
  // shared-memory files (`.org.chromium.Chromium.XXXXXX`): the journeys' browser, Electron.
  { tool: 'Chromium', name: /^\.?org\.chromium\.Chromium\.\w+$/ },
  // Node's on-disk compile cache where NODE_COMPILE_CACHE names no folder.
  { tool: 'Node', name: /^node-compile-cache$/ },
  // tsx's transform cache, one per user id.
  { tool: 'tsx', name: /^tsx-\d+$/ },
  // jiti's transform cache (electron-builder's and ESLint's configuration loader).
  { tool: 'jiti', name: /^jiti$/ },
  // Playwright's transform cache of the journeys' specs, one per user id.
  { tool: 'Playwright', name: /^playwright-transform-cache-\d+$/ },
];

/** The tool whose own file `name` is, if one is. */
function toolOf(name: string): string | undefined {
  return TOOLS.find((entry) => entry.name.test(name))?.tool;
}

/** A run's temporary folder, named in TMPDIR until {@link RunTemp.end}. */
export interface RunTemp {
  readonly dir: string;
  /** What the run left; TMPDIR named as before it; the folder removed. */
  end(): Promise<LeftInRun>;
}

/** The `pictor-` folders kept between runs on purpose (their contents are judged). */
const KEPT = new Set([runsParentName('test-entries'), runsParentName('run-cache')]);

/** What is in `dir`: the tools' own files apart from everything else. */
async function leftIn(dir: string): Promise<LeftInRun> {
  const leftovers: string[] = [];
  const tools: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (KEPT.has(name)) {
      leftovers.push(...(await readdir(join(dir, name))).sort().map((inner) => `${name}/${inner}`));
      continue;
    }
    const tool = toolOf(name);
    if (tool === undefined) leftovers.push(name);
    else tools.push(`${name} (${tool})`);
  }
  return { leftovers, tools };
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
