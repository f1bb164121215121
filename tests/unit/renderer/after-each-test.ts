/**
 * What the renderer's helpers end after every test (the app they started, its main, the services
 * beside it), run by setup.ts's afterEach. A helper registers here instead of calling afterEach
 * when it is imported: in a project whose files share their thread's modules (vitest.config.ts,
 * `renderer-wired`) a helper is evaluated once per thread, and a hook it attached then would belong
 * to the first file that imported it only; a setup file runs again for every file.
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
