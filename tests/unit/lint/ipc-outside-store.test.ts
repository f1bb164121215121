/**
 * The page reaches main only through the store: anywhere in renderer/ but the store and the
 * bridge's own module (lib/api.ts) a request (`call`), a subscription (`listen`) or the bridge
 * itself (`window.pictor`) is a lint error, in each form it can take; the store may use them and
 * the rest of the page may keep the non-IPC helpers of lib/api.
 */
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

const eslint = new ESLint({ cwd: REPO_ROOT });

const FEATURE = 'renderer/features/settings/x.tsx';
const STORE = 'renderer/store/x.ts';
/** Outside features and the store, each with its own way to name lib/api. */
const ELSEWHERE = [
  ['renderer/components/x.tsx', '../lib/api'],
  ['renderer/app.tsx', './lib/api'],
  ['renderer/lib/x.ts', './api'],
  ['renderer/components/deep/x.tsx', '../../lib/api'],
] as const;

/** Every problem ESLint reports for `code` at `path`, as `rule: message`. */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

/** Asserts `found` holds problems, every one of them the store rule's. */
function expectStoreRule(found: string[]): void {
  expect(found.length).toBeGreaterThan(0);
  for (const problem of found) {
    expect(problem).toMatch(/^no-restricted-(imports|properties|globals): /);
    expect(problem).toContain('The page reaches main only through the store');
  }
}

describe('IPC outside renderer/store is a lint error', () => {
  it.each([
    ["import { call } from '../../lib/api';\nexport const go = () => call('app:openLogs');\n"],
    [
      "import { listen as on } from '../../lib/api';\nexport const stop = on('x' as never, () => 0);\n",
    ],
    ["import * as api from '../../lib/api';\nexport const go = () => api.call('app:openLogs');\n"],
    ["import { imageUrl, call } from '../../lib/api';\nexport const v = [imageUrl, call];\n"],
    ["export { call } from '../../lib/api';\n"],
    ["import { call } from '../../../renderer/lib/api';\nexport const v = call;\n"],
    ["export const go = () => window.pictor?.invoke('app:openLogs' as never);\n"],
    ['export const api = globalThis.pictor;\n'],
    ['export const api = self.pictor;\n'],
    ["export const api = window['pictor'];\n"],
    ['const { pictor } = window;\nexport const api = pictor;\n'],
    // The bridge as a bare global (a browser resolves it on `window`).
    ["export const go = () => pictor.invoke('app:openLogs');\n"],
  ])('reports %j', async (code) => {
    expectStoreRule(await problems(FEATURE, code));
  });

  it.each(ELSEWHERE)('reports a request, a subscription or the bridge in %s', async (file, api) => {
    for (const code of [
      `import { call } from '${api}';\nexport const go = () => call('app:openLogs');\n`,
      `import { listen } from '${api}';\nexport const stop = listen('x' as never, () => 0);\n`,
      `import * as api from '${api}';\nexport const go = () => api.call('app:openLogs');\n`,
      "export const go = () => window.pictor?.invoke('app:openLogs' as never);\n",
    ]) {
      expectStoreRule(await problems(file, code));
    }
  });

  it.each(ELSEWHERE)('allows the non-IPC helpers of lib/api in %s', async (file, api) => {
    const code = `import { imageUrl, toApiError } from '${api}';\nexport const v = [imageUrl, toApiError];\n`;
    expect(await problems(file, code)).toEqual([]);
  });

  it.each([
    [
      "import { imageUrl, problemOf, toApiError } from '../../lib/api';\nexport const v = [imageUrl, problemOf, toApiError];\n",
    ],
    ["import type { ApiError } from '../../lib/api';\nexport type E = ApiError;\n"],
    [
      "import { useAppStore } from '../../store/app-store';\nexport const go = () => useAppStore.getState().openLogs();\n",
    ],
    ['export const here = window.location.href;\n'],
  ])('allows %j in a feature', async (code) => {
    expect(await problems(FEATURE, code)).toEqual([]);
  });

  it('leaves the store free to call main', async () => {
    const code =
      "import { call, listen } from '../lib/api';\nexport const v = [call, listen, window.pictor];\n";
    expect(await problems(STORE, code)).toEqual([]);
  });

  it("leaves lib/api.ts, the bridge's own module, free to use the bridge", async () => {
    const code = 'export const bridge = () => window.pictor;\n';
    expect(await problems('renderer/lib/api.ts', code)).toEqual([]);
  });
});
