/**
 * The core's floor plan holds (docs/ARCHITECTURE.md, "Inside the core"): every folder of
 * electron/core is a row of the layer table, and no module reaches itself through its imports,
 * neither as folders (a module loop) nor as files (a circle of files, even inside one module).
 * Type-only imports count: a loop of types is a loop of knowledge. Each module has one face
 * (its `index.ts`, the header comment its own description) that passes on only what files outside
 * the module import, and each row's `may` list is what the module uses, no more.
 * The command line (electron/cli) is held to the same: no circle of files, its command table's
 * lazy loaders (`() => import('./x-command')`) included.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cycles } from '../../support/import-circles';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const core = join(REPO_ROOT, 'electron', 'core');
const cli = join(REPO_ROOT, 'electron', 'cli');

/** Relative specifiers of a module's imports and re-exports, static and dynamic. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g;

function coreFiles(folder = core): string[] {
  return repositoryFiles([relative(REPO_ROOT, folder)], /\.ts$/).map((file) =>
    join(REPO_ROOT, file),
  );
}

/** The module a core file is in: its first folder, or the file itself at the top. */
function moduleOf(file: string): string {
  const [first, ...rest] = relative(core, file).split(/[\\/]/);
  return rest.length === 0 ? (first ?? '').replace(/\.ts$/, '') : (first ?? '');
}

/** The file a resolved specifier names: its `.ts` source, or a folder's face (`index.ts`). */
function sourceOf(target: string): string {
  if (existsSync(target) && statSync(target).isDirectory()) return join(target, 'index.ts');
  return target.endsWith('.ts') ? target : `${target}.ts`;
}

/** File → the files of `folder` it imports (a `.js` specifier names its `.ts` source). */
function fileGraph(folder = core): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of coreFiles(folder)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map(([, spec]) => resolve(dirname(file), spec ?? '').replace(/\.js$/, ''))
      .map(sourceOf)
      .filter((target) => target.startsWith(folder));
    graph.set(
      relative(folder, file),
      targets.map((target) => relative(folder, target)),
    );
  }
  return graph;
}

interface Row {
  readonly layer: string;
  readonly paths: readonly string[];
  readonly may: readonly string[];
  readonly faces?: readonly string[];
}

/** The layer table, as the project's ESLint config hands it to the rule. */
async function layerRows(): Promise<Row[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const config = (await eslint.calculateConfigForFile(join(REPO_ROOT, 'shared/x.ts'))) as {
    rules: Record<string, [unknown, { layers: Row[] }]>;
  };
  return config.rules['local/code-layering']?.[1].layers ?? [];
}

/** The core's top-level files that assemble it (the `pictor-core.ts` row's), as module names. */
async function assemblyNames(): Promise<string[]> {
  const row = (await layerRows()).find((each) => each.layer === 'electron/core/pictor-core.ts');
  return (row?.paths ?? []).map((path) => moduleOf(join(REPO_ROOT, path)));
}

/** The main side's files, relative to the REPO_ROOT (shared/ and renderer/ may not import the core). */
function mainFiles(): string[] {
  return repositoryFiles(['electron'], /\.ts$/);
}

/**
 * The names `text` imports (or passes on) from each relative specifier, resolved from `dir`:
 * `import { a, type B as C }`, `export { a } from`, and `import('…').Name` in types.
 */
/** The specifier of `await import('…')` (or a bare `import('…')`), when `node` is one. */
function lazySpecifier(node: ts.Expression | undefined): string | undefined {
  const call = node && ts.isAwaitExpression(node) ? node.expression : node;
  if (!call || !ts.isCallExpression(call)) return undefined;
  if (call.expression.kind !== ts.SyntaxKind.ImportKeyword) return undefined;
  const [argument] = call.arguments;
  return argument && ts.isStringLiteral(argument) ? argument.text : undefined;
}

export function importedNames(text: string, dir: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const note = (spec: string, name: string): void => {
    if (!spec.startsWith('.')) return;
    const target = resolve(dir, spec);
    found.set(target, (found.get(target) ?? new Set()).add(name));
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const spec = node.moduleSpecifier.text;
      const named = ts.isImportDeclaration(node)
        ? node.importClause?.namedBindings
        : node.exportClause;
      if (named && (ts.isNamedImports(named) || ts.isNamedExports(named))) {
        for (const element of named.elements)
          note(spec, (element.propertyName ?? element.name).text);
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal) &&
      node.qualifier &&
      ts.isIdentifier(node.qualifier)
    ) {
      note(node.argument.literal.text, node.qualifier.text);
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
      // `const { a, b: c } = await import('../x')`: a lazy load names what it takes.
      const spec = lazySpecifier(node.initializer);
      for (const element of spec === undefined ? [] : node.name.elements) {
        const name = element.propertyName ?? element.name;
        if (ts.isIdentifier(name)) note(spec!, name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX));
  return found;
}

/** Face file (relative to the REPO_ROOT) → the names product files outside its module import from it. */
function namesUsedOutside(faces: ReadonlySet<string>): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const file of mainFiles()) {
    const absolute = join(REPO_ROOT, file);
    const own = absolute.startsWith(`${core}/`) ? moduleOf(absolute) : '';
    const text = readFileSync(absolute, 'utf8');
    const specs = [...text.matchAll(IMPORT)].map(([, spec]) =>
      resolve(dirname(absolute), (spec ?? '').replace(/\.js$/, '')),
    );
    if (!specs.some((spec) => faces.has(relative(REPO_ROOT, sourceOf(spec))))) continue;
    const names = importedNames(text, dirname(absolute));
    for (const [target, imported] of names) {
      const face = relative(REPO_ROOT, sourceOf(target.replace(/\.js$/, '')));
      if (!faces.has(face) || moduleOf(join(REPO_ROOT, face)) === own) continue;
      used.set(face, new Set([...(used.get(face) ?? []), ...imported]));
    }
  }
  return used;
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

  it('reads the names an import brings in, and from where (the check itself)', () => {
    const text = [
      "import { a, type B as C } from '../gallery';",
      "import type { D } from '../gallery/index.ts';",
      "export { e } from '../fs';",
      "type F = import('../fs').G;",
      "import { h } from 'node:fs';",
      "const { i, j: k } = await import('../fs');",
    ].join('\n');
    const names = importedNames(text, join(core, 'library'));
    expect(
      Object.fromEntries([...names].map(([at, set]) => [relative(core, at), [...set]])),
    ).toEqual({
      gallery: ['a', 'B'],
      'gallery/index.ts': ['D'],
      fs: ['e', 'G', 'i', 'j'],
    });
  });

  it('gives every module a face whose header describes it, passing on only what others use', async () => {
    const rows = (await layerRows()).filter((row) => row.faces);
    const faces = new Set(rows.flatMap((row) => row.faces ?? []));
    const used = namesUsedOutside(faces);
    const assembly = await assemblyNames();
    expect(assembly).toContain('pictor-core');
    const modules = [...new Set(coreFiles().map(moduleOf))].filter(
      (name) => !assembly.includes(name),
    );
    expect(rows.map((row) => row.layer).sort()).toEqual(
      modules.map((name) => `electron/core/${name}`).sort(),
    );
    for (const row of rows) {
      const module = row.layer.slice('electron/core/'.length);
      expect(row.faces?.[0], `${module}'s first face is its index.ts`).toBe(
        `${row.layer}/index.ts`,
      );
      for (const face of row.faces ?? []) {
        expect(existsSync(join(REPO_ROOT, face)), `${face} is missing`).toBe(true);
        const text = readFileSync(join(REPO_ROOT, face), 'utf8');
        expect(text, `${face} starts with the module's description`).toMatch(
          new RegExp(`^/\\*\\*\\n \\* The ${module} module's`),
        );
        const passed = [...importedNames(text, dirname(join(REPO_ROOT, face))).values()];
        const unused = passed
          .flatMap((set) => [...set])
          .filter((name) => !used.get(face)?.has(name));
        expect(unused, `${face} passes on what no file outside its module imports`).toEqual([]);
      }
    }
  }, 60_000);

  it("lists in each module's row exactly the modules it uses", async () => {
    const graph = moduleGraph(fileGraph());
    for (const row of await layerRows()) {
      if (!row.layer.startsWith('electron/core/') || row.layer.endsWith('.ts')) continue;
      const module = row.layer.slice('electron/core/'.length);
      const listed = row.may.filter((name) => name.startsWith('electron/core/'));
      expect(listed.map((name) => name.slice('electron/core/'.length)).sort(), module).toEqual(
        [...(graph.get(module) ?? [])].sort(),
      );
    }
  });

  it('has no circle of files in the command line (electron/cli)', () => {
    const graph = fileGraph(cli);
    expect(graph.size).toBeGreaterThan(30);
    expect(cycles(graph)).toEqual([]);
  });

  it('gives every module of the core a row of the layer table, and only its modules', async () => {
    const modules = [...new Set(coreFiles().map(moduleOf))].sort();
    // A module's row is named for its folder; the assembly's row names each of its files.
    const rows = (await layerRows())
      .filter((row) => row.layer.startsWith('electron/core/'))
      .flatMap((row) =>
        row.layer.endsWith('.ts')
          ? row.paths.map((path) => moduleOf(join(REPO_ROOT, path)))
          : [row.layer.slice('electron/core/'.length)],
      )
      .sort();
    expect(rows).toEqual(modules);
  });
});
