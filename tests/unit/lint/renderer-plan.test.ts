/**
 * The page's floor plan holds (docs/ARCHITECTURE.md, "The renderer"): every folder of
 * renderer/features is a row of the layer table, so a new feature cannot fall into the window's
 * row (which may import every feature) and reach its neighbours unseen; nothing lies loose in
 * renderer/features; and no feature imports another, by any path the lint might miss (a
 * template of the check in core-plan.test.ts, over the features).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const features = join(REPO_ROOT, 'renderer', 'features');

/** Relative specifiers of a module's imports and re-exports, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;

/** The layer table's row names, as the project's ESLint config hands them to the rule. */
async function layerNames(): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const config = (await eslint.calculateConfigForFile(join(REPO_ROOT, 'renderer/x.ts'))) as {
    rules: Record<string, [unknown, { layers: { layer: string }[] }]>;
  };
  return (config.rules['local/code-layering']?.[1].layers ?? []).map((row) => row.layer);
}

/** The feature a path inside renderer/features is in (its first folder), or null outside. */
function featureOf(path: string): string | null {
  const inside = relative(features, path);
  if (inside.startsWith('..')) return null;
  return inside.split(/[\\/]/)[0] ?? null;
}

/** Each import from one feature into another, as "from → to". */
export function crossings(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const from = featureOf(file);
    for (const [, spec] of text.matchAll(IMPORT)) {
      const to = featureOf(resolve(dirname(file), spec ?? ''));
      if (from !== null && to !== null && to !== from) {
        found.push(`${relative(REPO_ROOT, file)} → ${spec}`);
      }
    }
  }
  return found;
}

function featureFiles(): Map<string, string> {
  return new Map(
    repositoryFiles(['renderer/features'], /\.(tsx?|css)$/)
      .map((file) => join(REPO_ROOT, file))
      .map((file) => [file, readFileSync(file, 'utf8')]),
  );
}

describe("the page's floor plan", () => {
  it('finds an import into another feature (the check itself)', () => {
    const files = new Map([
      [join(features, 'tasks', 'a.tsx'), "import { B } from '../gallery/b';\nimport './a.css';"],
      [
        join(features, 'gallery', 'b.tsx'),
        "import { c } from './c';\nimport { t } from '../../i18n';",
      ],
      [
        join(features, 'costs', 'd.ts'),
        "export { e } from '../tasks/e';\nimport '../compose/f.css';",
      ],
    ]);
    expect(crossings(files)).toEqual([
      'renderer/features/tasks/a.tsx → ../gallery/b',
      'renderer/features/costs/d.ts → ../tasks/e',
      'renderer/features/costs/d.ts → ../compose/f.css',
    ]);
  });

  it('has no import from one feature into another, styles included', () => {
    const files = featureFiles();
    expect(files.size).toBeGreaterThan(100);
    expect(crossings(files)).toEqual([]);
  });

  it('gives every feature a row of the layer table, and only its features', async () => {
    const entries = readdirSync(features, { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const folders = entries.map((entry) => entry.name).sort();
    const rows = (await layerNames())
      .filter((layer) => layer.startsWith('renderer/features/'))
      .map((layer) => layer.slice('renderer/features/'.length))
      .sort();
    expect(folders.length).toBeGreaterThan(3);
    expect(rows).toEqual(folders);
  });
});
