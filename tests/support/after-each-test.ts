/**
 * What the tests' helpers end after every test (the app they started, its main, the services
 * beside it, a core they opened), run by a setup file's afterEach (tests/unit/renderer/setup.ts,
 * tests/support/end-each-test-setup.ts). A helper registers here instead of calling afterEach when it is
 * imported: in a project whose files share their worker's modules (vitest.config.ts,
 * `renderer-wired`, `integration`, `hardening`) a helper is evaluated once per worker, and a hook it attached
 * then would belong to the first file that imported it only; a setup file runs again for every
 * file.
 */
const hooks: Array<() => unknown> = [];

/**
 * Runs `hook` after every test of every file that imports the helper calling this; what it returns
 * takes the hook off again.
 */
export function afterEachTest(hook: () => unknown): () => void {
  hooks.push(hook);
  return () => {
    const at = hooks.indexOf(hook);
    if (at >= 0) hooks.splice(at, 1);
  };
}

/**
 * The registered hooks, the last registered first, as vitest runs afterEach hooks. Every hook runs
 * even when one before it throws (a failed test's helper may fail to stop): stopping at the first
 * would leave the later helpers' servers and cores open into the next file of a shared worker.
 * What they threw is thrown once all have run: the one error itself, or all of them together.
 */
export async function endTest(): Promise<void> {
  const errors: unknown[] = [];
  for (const hook of [...hooks].reverse()) {
    try {
      await hook();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} clean-ups failed`);
}
