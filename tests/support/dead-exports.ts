/**
 * Exports of the product (electron/, shared/, renderer/) that nothing needs, found with the
 * TypeScript compiler over the whole project (tests included): every identifier, property access
 * and destructured dynamic import is resolved to the symbol it names, so `import * as m` and
 * `const { x } = await import('./m')` count as uses. What is reported:
 *
 * - `unused`: a value (function, constant, class) no other file names: its `export` is dead,
 *   whether or not its own file uses it.
 * - `unused`: a type no file names, its own included (a type its own file uses names part of an
 *   exported signature, such as an options interface, and stays exported).
 * - `tests-only`: a value only tests name and its own file does not use: product code that is
 *   kept alive by its tests, or a seam kept for them.
 *
 * A re-export (`export { x } from './m'`, as a core module's face passes its exports on) is not
 * a use: an export only a face names, and tests, is still dead.
 */
import { relative, sep } from 'node:path';
import ts from 'typescript';

export interface DeadExport {
  /** `file#name`, the file relative to the project root with `/`. */
  readonly id: string;
  readonly kind: 'unused' | 'tests-only';
}

interface Exported {
  readonly file: string;
  readonly name: string;
  readonly isType: boolean;
  readonly declarations: ReadonlySet<ts.Node>;
  readonly users: Set<string>;
  ownUses: number;
}

const PRODUCT = /^(electron|shared|renderer)\//;

/** The project's TypeScript configuration at `root` (the folder of its tsconfig.json). */
export function projectConfig(root: string): ts.ParsedCommandLine {
  const config = ts.readConfigFile(`${root}/tsconfig.json`, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root);
}

/** Every dead export of the project at `root` (the folder of its tsconfig.json). */
export function findDeadExports(root: string): DeadExport[] {
  const parsed = projectConfig(root);
  return deadExportsIn(ts.createProgram(parsed.fileNames, parsed.options), root);
}

/**
 * The dead exports of `program`, the project's whole program: the one the typecheck built
 * (tests/support/typecheck.ts), whose checker has typed every file already, or a new one.
 */
export function deadExportsIn(program: ts.Program, root: string): DeadExport[] {
  const checker = program.getTypeChecker();
  const rel = (file: string) => relative(root, file).split(sep).join('/');
  const sources = program
    .getSourceFiles()
    .filter((source) => !source.isDeclarationFile && !rel(source.fileName).startsWith('..'))
    .filter((source) => !rel(source.fileName).includes('node_modules/'));
  const exported = exportsOf(sources, checker, rel);
  // A member (`m.x`, `const { x } = …`) can only be an export under that export's name; asking
  // the checker about any other member's symbol makes it type the expression on its left, which
  // was most of this test's time (33 s of a fresh clone's run) and never found a use.
  const names = new Set([...exported].flatMap(([symbol, entry]) => [entry.name, symbol.name]));
  for (const source of sources) {
    const file = rel(source.fileName);
    const use = (symbol: ts.Symbol | undefined, at: ts.Node) => {
      const entry = symbol && exported.get(resolved(symbol, checker));
      if (!entry || isReExport(at)) return;
      if (file !== entry.file) entry.users.add(file);
      else if (!entry.declarations.has(at)) entry.ownUses += 1;
    };
    const visit = (node: ts.Node): void => {
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        // `const { x } = await import('./m')`: the binding names the module's export.
        const name = node.propertyName ?? node.name;
        if (ts.isIdentifier(name) && names.has(name.text)) {
          const type = checker.getTypeAtLocation(node.parent);
          use(checker.getPropertyOfType(type, name.text), node);
        }
      }
      if (ts.isIdentifier(node) && (names.has(node.text) || namesAnImport(node))) {
        use(checker.getSymbolAtLocation(node), node);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...exported.values()].flatMap((entry): DeadExport[] => {
    const id = `${entry.file}#${entry.name}`;
    const product = [...entry.users].filter((user) => PRODUCT.test(user));
    if (entry.users.size === 0 && (!entry.isType || entry.ownUses === 0)) {
      return [{ id, kind: 'unused' }];
    }
    if (!entry.isType && entry.users.size > 0 && product.length === 0 && entry.ownUses === 0) {
      return [{ id, kind: 'tests-only' }];
    }
    return [];
  });
}

/**
 * A name an import or export gives that need not be the export's own: `y` in `import y from`,
 * `import { y } from` a file that re-exports `x as y`, or `export { x as y }`. Any other
 * identifier can only name an export by that export's name (or its declaration's), which
 * `names` holds: asking the checker about every identifier (a property's name in an object
 * literal or a JSX attribute makes it type the literal against its context) was most of this
 * check's time once the program was built, and never found a use.
 */
function namesAnImport(node: ts.Identifier): boolean {
  const { parent } = node;
  return ts.isImportClause(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent);
}

/**
 * `x` in `export { x } from './m'`: a module's face passing an export on (or a file passing on
 * one of another's) uses nothing itself; the files that import it through the face do, and the
 * checker resolves their names to the export's own file.
 */
function isReExport(node: ts.Node): boolean {
  const specifier = node.parent;
  return ts.isExportSpecifier(specifier) && specifier.parent.parent.moduleSpecifier !== undefined;
}

function resolved(symbol: ts.Symbol, checker: ts.TypeChecker): ts.Symbol {
  if (!(symbol.flags & ts.SymbolFlags.Alias)) return symbol;
  try {
    return checker.getAliasedSymbol(symbol);
  } catch {
    return symbol;
  }
}

/** The symbols each product file exports and declares itself (re-exports count at home). */
function exportsOf(
  sources: readonly ts.SourceFile[],
  checker: ts.TypeChecker,
  rel: (file: string) => string,
): Map<ts.Symbol, Exported> {
  const exported = new Map<ts.Symbol, Exported>();
  for (const source of sources) {
    const file = rel(source.fileName);
    const module = PRODUCT.test(file) ? checker.getSymbolAtLocation(source) : undefined;
    if (!module) continue;
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = resolved(symbol, checker);
      const declarations = target.declarations ?? [];
      if (declarations[0]?.getSourceFile() !== source) continue;
      exported.set(target, {
        file,
        name: symbol.name,
        isType: !(target.flags & ts.SymbolFlags.Value),
        declarations: new Set(declarations.map((node) => ts.getNameOfDeclaration(node) ?? node)),
        users: new Set(),
        ownUses: 0,
      });
    }
  }
  return exported;
}
