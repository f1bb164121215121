/**
 * The layering rules are lint errors, not review comments: each crossing below must be reported
 * by the project's own ESLint config, and the allowed forms must pass.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('layering lint rules', () => {
  it.each([
    ['electron/core/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'electron/core/x.ts',
      "import { systemClock } from '../adapters/system-clock';\nexport const c = systemClock;\n",
    ],
    ['electron/ports/x.ts', "import { net } from 'electron';\nexport const n = net;\n"],
    ['shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    [
      'shared/x.ts',
      "import { TaskEngine } from '../electron/core/engine/task-engine';\nexport const t = TaskEngine;\n",
    ],
    ['renderer/x.ts', "import { shell } from 'electron';\nexport const s = shell;\n"],
    ['renderer/x.ts', "import { join } from 'node:path';\nexport const j = join;\n"],
    [
      'renderer/x.ts',
      "import type { TaskEngine } from '../electron/core/engine/task-engine';\nexport type T = TaskEngine;\n",
    ],
    ['electron/adapters/x.ts', "import { ipcMain } from 'electron';\nexport const i = ipcMain;\n"],
    [
      'electron/main.ts',
      "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n",
    ],
    [
      'electron/adapters/x.ts',
      "declare const win: { webContents: { send(c: string): void } };\nwin.webContents.send('x');\n",
    ],
    ['electron/cli/x.ts', "import type { App } from 'electron';\nexport type A = App;\n"],
    [
      'tests/unit/core/x.test.ts',
      "import { mean } from '../../bench/engine/stats';\nexport const m = mean;\n",
    ],
    [
      'tests/hardening/faults/x.ts',
      "import { benchRecord } from '../../bench/history-fixture';\nexport const b = benchRecord;\n",
    ],
  ])('reports %s crossing a layer', async (path, code) => {
    expect((await problems(path, code)).join('\n')).toMatch(/no-restricted-(imports|syntax)/);
  });

  it.each([
    ['electron/core/x.ts', "import type { App } from 'electron';\nexport type A = App;\n"],
    ['electron/adapters/x.ts', "import { shell } from 'electron';\nexport const s = shell;\n"],
    ['electron/ipc/x.ts', "import { ipcMain } from 'electron';\nexport const i = ipcMain;\n"],
    [
      'electron/preload.ts',
      "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n",
    ],
    [
      'renderer/x.ts',
      "import type { PictorApi } from '../shared/ipc/api';\nexport type A = PictorApi;\n",
    ],
    [
      'tests/unit/core/x.test.ts',
      "import { maxInWindow } from '../../support/bursts';\nexport const m = maxInWindow;\n",
    ],
    ['tests/bench/x.ts', "import { mean } from './engine/stats';\nexport const m = mean;\n"],
  ])('allows %s', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});
