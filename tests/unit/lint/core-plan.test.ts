/**
 * The core's floor plan holds (docs/ARCHITECTURE.md, "Inside the core"): every folder of
 * electron/core is a row of the layer table, and no module reaches itself through its imports,
 * neither as folders (a module loop) nor as files (a circle of files, even inside one module).
 * Type-only imports count: a loop of types is a loop of knowledge. The command line
 * (electron/cli) is held to the same: no circle of files, its command table's lazy loaders
 * (`() => import('./x-command')`) included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const core = join(root, 'electron', 'core');
const cli = join(root, 'electron', 'cli');

/** Relative specifiers of a module's imports and re-exports, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;

function coreFiles(folder = core): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The module a core file is in: its first folder, or the file itself at the top. */
function moduleOf(file: string): string {
  const [first, ...rest] = relative(core, file).split(/[\\/]/);
  return rest.length === 0 ? (first ?? '').replace(/\.ts$/, '') : (first ?? '');
}

/** File → the files of `folder` it imports (a `.js` specifier names its `.ts` source). */
function fileGraph(folder = core): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of coreFiles(folder)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map(([, spec]) => resolve(dirname(file), spec ?? '').replace(/\.js$/, ''))
      .map((target) => (target.endsWith('.ts') ? target : `${target}.ts`))
      .filter((target) => target.startsWith(folder));
    graph.set(
      relative(folder, file),
      targets.map((target) => relative(folder, target)),
    );
  }
  return graph;
}

/** The strongly connected parts of more than one node, or of one node that imports itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      part.push(top);
      if (top === node) break;
    }
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The layer table's row names, as the project's ESLint config hands them to the rule. */
async function layerNames(): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const config = (await eslint.calculateConfigForFile(`${root}shared/x.ts`)) as {
    rules: Record<string, [unknown, { layers: { layer: string }[] }]>;
  };
  return (config.rules['local/code-layering']?.[1].layers ?? []).map((row) => row.layer);
}

function moduleGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = moduleOf(join(core, file));
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of targets) {
      const to = moduleOf(join(core, target));
      if (to !== from) edges.add(to);
    }
    graph.set(from, edges);
  }
  return new Map([...graph].map(([from, to]) => [from, [...to]]));
}

describe("the core's floor plan", () => {
  it('finds a loop when there is one (the check itself)', () => {
    const looped = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(cycles(looped)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the imports the lint reads: static, re-exports, types, dynamic', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b/b.js';",
      "export * from './c';",
      "const d = await import('./d');",
      "import './e';",
      "import { f } from 'node:fs';",
    ].join('\n');
    expect([...text.matchAll(IMPORT)].map(([, spec]) => spec)).toEqual([
      './a',
      '../b/b.js',
      './c',
      './d',
      './e',
    ]);
  });

  it('has no module loop', () => {
    const graph = moduleGraph(fileGraph());
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles(graph)).toEqual([]);
  });

  it('has no circle of files', () => {
    const graph = fileGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(cycles(graph)).toEqual([]);
  });

  it('has no circle of files in the command line (electron/cli)', () => {
    const graph = fileGraph(cli);
    expect(graph.size).toBeGreaterThan(30);
    expect(cycles(graph)).toEqual([]);
  });

  it('gives every module of the core a row of the layer table, and only its modules', async () => {
    const modules = [...new Set(coreFiles().map(moduleOf))].sort();
    const rows = (await layerNames())
      .filter((layer) => layer.startsWith('electron/core/'))
      .map((layer) => layer.slice('electron/core/'.length).replace(/\.ts$/, ''))
      .sort();
    expect(rows).toEqual(modules);
  });
});
