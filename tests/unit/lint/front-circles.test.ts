/**
 * The fronts have no circle of files either: the IPC handlers (electron/ipc), the page's features
 * (renderer/features) and store (renderer/store), and the demo service (electron/demo-service). A
 * circle there is usually one shared type kept in the file that uses the others; it goes into a
 * file of its own. In the store, each slice declares only its own part of the whole state
 * (`declare module './app-state'`), so app-state.ts imports no slice and a slice's actions never
 * import their slice back. Type-only
 * imports count, as in the core's plan (core-plan.test.ts): a loop of types is a loop of knowledge.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles } from '../../support/import-circles';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** Relative specifiers of a module's imports and re-exports, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;
const SOURCE = /\.tsx?$/;

/** The source file a resolved specifier names (`.js` names its `.ts`), or null for none (CSS…). */
function sourceOf(target: string): string | null {
  const bare = target.replace(/\.js$/, '');
  const candidates = [
    bare,
    `${bare}.ts`,
    `${bare}.tsx`,
    join(bare, 'index.ts'),
    join(bare, 'index.tsx'),
  ];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found !== undefined && SOURCE.test(found) ? found : null;
}

/** The import specifiers of a file's text. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map(([, spec]) => spec ?? '');
}

/** File → the files of `folder` it imports, relative to `folder`. */
function fileGraph(folder: string): Map<string, string[]> {
  const files = repositoryFiles([relative(REPO_ROOT, folder)], SOURCE).map((file) =>
    join(REPO_ROOT, file),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(readFileSync(file, 'utf8'))
      .map((spec) => sourceOf(resolve(dirname(file), spec)))
      .filter((target): target is string => target !== null && target.startsWith(folder));
    graph.set(
      relative(folder, file),
      targets.map((target) => relative(folder, target)),
    );
  }
  return graph;
}

describe('no circle of files in the fronts', () => {
  it('reads the imports that tie files: static, types, re-exports, dynamic, side effects', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b/b.js';",
      "export * from './c';",
      "const d = await import('./d');",
      "import './e.css';",
      "import { f } from 'react';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual(['./a', '../b/b.js', './c', './d', './e.css']);
  });

  it.each([
    ['electron/ipc', 20],
    ['renderer/features', 100],
    ['renderer/store', 40],
    ['electron/demo-service', 20],
  ])('has no circle of files in %s', (folder, least) => {
    const graph = fileGraph(join(REPO_ROOT, folder));
    expect(graph.size).toBeGreaterThan(least);
    expect(cycles(graph)).toEqual([]);
  });
});
