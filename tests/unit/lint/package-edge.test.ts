/**
 * The npm edge of the layer table: every row of eslint.config.js `layers` lists the packages its
 * files may import, and the layering rule reports any other, so a Node library cannot reach the
 * page or `shared/`, and the core cannot reach for a package only an adapter may use.
 */
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

/**
 * The project's config with only the layering rule run (a file that does not parse still says
 * so): each of the thousand files here was linted by every rule, twice the CPU (3.7 against
 * 1.8 ms a file), where the other rules judge the project's own files in the lint stage.
 */
const eslint = new ESLint({
  cwd: REPO_ROOT,
  ruleFilter: ({ ruleId }) => ruleId === 'local/code-layering',
});

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

const importing = (source: string) => `import { x } from '${source}';\nexport const v = x;\n`;

interface Row {
  readonly layer: string;
  readonly paths: readonly string[];
  readonly packages: readonly string[];
}

async function layerTable(): Promise<Row[]> {
  const config = (await eslint.calculateConfigForFile(join(REPO_ROOT, 'shared/x.ts'))) as {
    rules: Record<string, [unknown, { layers: Row[] }]>;
  };
  return config.rules['local/code-layering']![1].layers;
}

/** A file in the row: the row's own file, or a new one in its folder. */
const fileIn = (row: Row) => {
  const where = row.paths[0]!;
  return where.endsWith('/') ? `${where}x.ts` : where;
};

const table = await layerTable();
const everyPackage = [...new Set(table.flatMap((row) => row.packages))].sort();
const declared = (() => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  return new Set(
    ['dependencies', 'devDependencies', 'optionalDependencies'].flatMap((field) =>
      Object.keys(manifest[field] ?? {}),
    ),
  );
})();

describe('the npm edge of the layer table', () => {
  it('gives every row a package list, naming only packages package.json declares', () => {
    for (const row of table) expect(Array.isArray(row.packages), row.layer).toBe(true);
    expect(everyPackage.filter((name) => !declared.has(name))).toEqual([]);
  });

  it.each(table.flatMap((row) => row.packages.map((name) => [row.layer, name, fileIn(row)])))(
    '`%s` may import its package %s',
    async (_layer, name, file) => {
      expect(await problems(file, importing(name))).toEqual([]);
    },
  );

  it.each(
    table.flatMap((row) =>
      [...everyPackage, 'left-pad']
        .filter((name) => !row.packages.includes(name))
        .map((name) => [row.layer, name, fileIn(row)]),
    ),
  )('`%s` may not import %s', async (_layer, name, file) => {
    expect(await problems(file, importing(name))).toEqual([
      expect.stringMatching(
        new RegExp(`^local/code-layering: .*'${name}' is not on its package list\\.$`),
      ),
    ]);
  });

  it.each([
    [
      'renderer/features/tasks/x.tsx',
      "import { useShallow } from 'zustand/react/shallow';\nexport const u = useShallow;\n",
      [],
    ],
    ['renderer/features/gallery/x.tsx', importing('zustand'), []],
    [
      'renderer/features/tasks/x.tsx',
      "import type { Sharp } from 'sharp';\nexport type S = Sharp;\n",
      ['sharp'],
    ],
    ['renderer/lib/x.ts', "export const load = () => import('undici');\n", ['undici']],
    ['shared/x.ts', "export { z } from 'zod';\nexport * from 'react';\n", ['react']],
    ['shared/x.ts', importing('zod/mini'), []],
    ['electron/core/gallery/x.ts', importing('electron-store'), ['electron-store']],
    ['electron/core/gallery/x.ts', importing('zustand/extra'), ['zustand']],
    // The store's hooks are React's (zustand/react); what draws the page is not.
    ['renderer/store/x.ts', importing('react'), []],
    ['renderer/store/x.ts', importing('react-dom'), ['react-dom']],
  ] as const)(
    '%s: every import form is checked by package name (%s)',
    async (file, code, denied) => {
      const found = await problems(file, code);
      expect(found).toHaveLength(denied.length);
      for (const [i, name] of denied.entries())
        expect(found[i]).toContain(`'${name}' is not on its package list`);
    },
  );

  it('says which packages the row may import', async () => {
    const [message] = await problems('renderer/store/x.ts', importing('react-dom'));
    expect(message).toBe(
      'local/code-layering: `renderer/store` may import only shared, renderer/i18n, renderer/lib, ' +
        "renderer/components, renderer/store, the packages zod, zustand, react; 'react-dom' is not " +
        'on its package list.',
    );
  });
});
