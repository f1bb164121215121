/**
 * The page's store has no circle of files (docs/ARCHITECTURE.md, "The renderer"): each slice
 * declares only its own part of the whole state (`declare module './app-state'`), so
 * app-state.ts imports no slice and a slice's actions never import their slice back. Type-only
 * imports count (a loop of types is a loop of knowledge), as in core-plan.test.ts. The circles of
 * renderer/features are reported and may only shrink: none may appear beyond those listed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles } from '../../support/file-cycles';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Relative specifiers of a module's imports and re-exports, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;

/** The source a resolved specifier names: `x.ts`, `x.tsx`, or a folder's `index.ts(x)`. */
function sourceOf(target: string): string {
  const bare = target.replace(/\.js$/, '');
  if (/\.tsx?$/.test(bare)) return bare;
  if (existsSync(bare) && statSync(bare).isDirectory()) {
    return existsSync(join(bare, 'index.tsx')) ? join(bare, 'index.tsx') : join(bare, 'index.ts');
  }
  return existsSync(`${bare}.tsx`) ? `${bare}.tsx` : `${bare}.ts`;
}

/** File → the files of `folder` it imports, from the files' texts. */
function fileGraph(folder: string, files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = [...text.matchAll(IMPORT)]
      .map(([, spec]) => sourceOf(resolve(dirname(file), spec ?? '')))
      .filter((target) => target.startsWith(`${folder}/`));
    graph.set(
      relative(folder, file),
      targets.map((target) => relative(folder, target)),
    );
  }
  return graph;
}

function sources(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
      .map((file) => [file, readFileSync(file, 'utf8')]),
  );
}

const store = join(root, 'renderer', 'store');
const features = join(root, 'renderer', 'features');

/** The circles of renderer/features still to break (shrink-only: remove a line once it is gone). */
const FEATURE_CIRCLES_LEFT = [
  [
    'gallery/gallery-grid-row.tsx',
    'gallery/gallery-grid.tsx',
    'gallery/grid-keys.ts',
    'gallery/use-grid-loading.ts',
  ],
  [
    'gallery/gallery-selection.tsx',
    'gallery/selection-flags.tsx',
    'gallery/triage-run.ts',
    'gallery/use-delete-question.ts',
    'gallery/write-metadata.tsx',
  ],
];

describe('circles of files in the page', () => {
  it('finds a circle through a slice and the whole state, type-only imports too (the check itself)', () => {
    const files = new Map([
      [join(store, 'app-state.ts'), "import type { ASlice } from './a-slice';"],
      [
        join(store, 'a-slice.ts'),
        "import type { AppState } from './app-state';\nimport { x } from './a-actions';",
      ],
      [join(store, 'a-actions.ts'), "import type { ASlice } from './a-slice';"],
      [join(store, 'leaf.ts'), "import { z } from 'zod';"],
    ]);
    expect(cycles(fileGraph(store, files))).toEqual([
      ['a-actions.ts', 'a-slice.ts', 'app-state.ts'],
    ]);
  });

  it('has none in renderer/store', () => {
    const graph = fileGraph(store, sources(store));
    expect(graph.size).toBeGreaterThan(40);
    expect(cycles(graph)).toEqual([]);
  });

  it('has in renderer/features no circle beyond those listed, and reports them', () => {
    const found = cycles(fileGraph(features, sources(features)));
    const sorted = (parts: string[][]) => parts.map((part) => part.join(' ')).sort();
    const left = sorted(FEATURE_CIRCLES_LEFT);
    // A circle broken is struck off the list; a new one fails.
    expect(sorted(found).filter((part) => !left.includes(part))).toEqual([]);
    expect(left.filter((part) => !sorted(found).includes(part))).toEqual([]);
  });
});
