/**
 * What a test run makes once for all its processes, in a folder an environment variable names:
 * the app's test build (PICTOR_TEST_BUILD_DIR, tests/support/test-build.ts) and the Node
 * programs' bundles (PICTOR_TEST_NODE_ENTRIES, tests/support/node-entries.ts). Whoever acquires
 * first (npm test's tests/support/test-phases.ts, or a runner's global setup run alone) makes the
 * folder and names it; every later acquirer in that process or its children checks the folder it
 * is given and uses it, and only the maker removes it.
 */
import { resolve } from 'node:path';

/** A run's folder, acquired. */
export interface AcquiredFolder {
  readonly dir: string;
  /** True when `variable` already named the folder: its maker, not this acquirer, removes it. */
  readonly given: boolean;
  /** Removes a folder made here (and unsets the variable, if it still names it); keeps a given one. */
  release(): Promise<void>;
}

/** A folder made for the run, and how it goes. */
interface MadeFolder {
  readonly dir: string;
  dispose(): Promise<void>;
}

/**
 * The folder `env[variable]` names, after `check` (which throws for a folder that lacks a part),
 * or a new one from `make`, named in `env[variable]` afterwards for this process and what it starts.
 */
export async function acquireRunFolder(
  variable: string,
  check: (dir: string) => void,
  make: () => Promise<MadeFolder>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AcquiredFolder> {
  const named = env[variable];
  if (named) {
    const dir = resolve(named);
    check(dir);
    return { dir, given: true, release: async () => {} };
  }
  const made = await make();
  env[variable] = made.dir;
  return {
    dir: made.dir,
    given: false,
    release: async () => {
      if (env[variable] === made.dir) Reflect.deleteProperty(env, variable);
      await made.dispose();
    },
  };
}
