/**
 * The page reaches main only through the store: in renderer/features a request (`call`), a
 * subscription (`listen`) or the bridge itself (`window.pictor`) is a lint error, in each form it
 * can take, while the store may use them and features may keep the non-IPC helpers of lib/api.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

const FEATURE = 'renderer/features/settings/x.tsx';
const STORE = 'renderer/store/x.ts';

/** Every problem ESLint reports for `code` at `path`, as `rule: message`. */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('IPC in renderer/features is a lint error', () => {
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
    const found = await problems(FEATURE, code);
    expect(found.length).toBeGreaterThan(0);
    for (const problem of found) {
      expect(problem).toMatch(/^no-restricted-(imports|properties|globals): /);
      expect(problem).toContain('Features reach main only through the store');
    }
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
});
