/**
 * docs/ARCHITECTURE.md's table "Module (bottom first) | May use" is the core's floor plan as lint
 * holds it (`CORE_MODULES` in eslint.config.js, handed to `local/code-layering` as its layers):
 * the same modules in the same order, each with the same modules it may use. The page once
 * lacked two modules (`workflows/`, `param-schemas/`) a session had added to the lint table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

const CORE = 'electron/core/';

/** The rows of the page's table, as `module: used, used`. */
function pageRows(page: string): string[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Module (bottom first) | May use |'));
  if (header === -1) return [];
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [, module = '', uses = ''] = line.split('|').map((cell) => cell.trim());
    const used = [...uses.matchAll(/`([\w-]+)\/`/g)].map(([, name]) => name!);
    rows.push(`${module.replace(/[`/]/g, '')}: ${used.sort().join(', ')}`);
  }
  return rows;
}

interface Row {
  readonly layer: string;
  readonly may: readonly string[];
}

/** The same rows from the layer table, as the project's ESLint config hands it to the rule. */
async function lintRows(): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const config = (await eslint.calculateConfigForFile(join(REPO_ROOT, 'shared/x.ts'))) as {
    rules: Record<string, [unknown, { layers: Row[] }]>;
  };
  return (config.rules['local/code-layering']?.[1].layers ?? [])
    .filter(({ layer }) => layer.startsWith(CORE) && !layer.endsWith('.ts'))
    .map(({ layer, may }) => {
      const used = may
        .filter((path) => path.startsWith(CORE))
        .map((path) => path.slice(CORE.length))
        .sort();
      return `${layer.slice(CORE.length)}: ${used.join(', ')}`;
    });
}

describe("ARCHITECTURE.md's floor plan of the core", () => {
  it('is the layer table lint holds, row for row', async () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const rows = await lintRows();
    expect(rows.length).toBeGreaterThan(20);
    expect(pageRows(page)).toEqual(rows);
  });

  it('is read as written', () => {
    const page = [
      '| Module (bottom first) | May use |',
      '| --- | --- |',
      '| `errors/` | (none) |',
      '| `fs/` | `errors/`, `base/` |',
      '',
      '| `other/` | `x/` |',
    ].join('\n');
    expect(pageRows(page)).toEqual(['errors: ', 'fs: base, errors']);
  });
});
