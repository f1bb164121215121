/**
 * What the tests' helpers end after every test (the app they started, its main, the services
 * beside it, a core they opened), run by a setup file's afterEach (tests/unit/renderer/setup.ts,
 * tests/integration/setup.ts). A helper registers here instead of calling afterEach when it is
 * imported: in a project whose files share their worker's modules (vitest.config.ts,
 * `renderer-wired`, `integration`) a helper is evaluated once per worker, and a hook it attached
 * then would belong to the first file that imported it only; a setup file runs again for every
 * file.
 */
const hooks: Array<() => unknown> = [];

/** Runs `hook` after every test of every file that imports the helper calling this. */
export function afterEachTest(hook: () => unknown): void {
  hooks.push(hook);
}

/** The registered hooks, the last registered first, as vitest runs afterEach hooks. */
export async function endTest(): Promise<void> {
  for (const hook of [...hooks].reverse()) await hook();
}
