/**
 * The fronts only bind: every part of the core (input store, edit inputs, cost book, cancels,
 * batch actions, template runs, edit settings …) comes from openPictorCore, so the app, the CLI
 * and the tests share one. The app's wiring (electron/ipc/wire-app.ts) constructs nothing but its
 * own disposables; no IPC handler (electron/ipc) and no CLI command (electron/cli) constructs a
 * class of the core (electron/core) other than an error it throws. Counted on the TypeScript
 * syntax tree (a comment or a string that says `new` is no construction).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const WIRING = join(REPO_ROOT, 'electron/ipc/wire-app.ts');

/**
 * What the wiring may construct: its own subscriptions, released by its `dispose`, and the
 * page's open views (ipc/open-views.ts: which lists the page has open, state of the IPC front).
 */
const OWN_DISPOSABLES = new Set(['DisposableStore', 'TaskUpdates', 'OpenViews']);

function sourceOf(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/** The class named by every `new` expression of `text`, as written (`new a.B()` is `a.B`). */
function constructed(text: string): string[] {
  const source = sourceOf('wiring.ts', text);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) names.push(node.expression.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The classes declared in `text` that are no error (an error is thrown, not a part). */
function partClasses(text: string): string[] {
  return sourceOf('core.ts', text)
    .statements.filter(ts.isClassDeclaration)
    .map((declaration) => declaration.name?.text ?? '')
    .filter((name) => name !== '' && !name.endsWith('Error'));
}

/** The text of a file, by its path from the root. */
const textOf = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

const CORE_PARTS = new Set(
  repositoryFiles(['electron/core'], /\.ts$/).flatMap((file) => partClasses(textOf(file))),
);

/** `file: Class` for each core part a front constructs itself. */
function frontConstructions(): string[] {
  return repositoryFiles(['electron/ipc', 'electron/cli'], /\.ts$/).flatMap((file) =>
    constructed(textOf(file))
      .map((name) => name.split('.').at(-1) ?? name)
      .filter((name) => CORE_PARTS.has(name))
      .map((name) => `${file}: ${name}`),
  );
}

describe('the app wiring binds the core, it builds none of it', () => {
  it('constructs only its own disposables', () => {
    const strays = constructed(readFileSync(WIRING, 'utf8')).filter(
      (name) => !OWN_DISPOSABLES.has(name),
    );
    expect(strays).toEqual([]);
  });

  it('finds every construction, and nothing that only reads as one', () => {
    const text = [
      '// new InputStore(gallery) in a comment',
      "const said = 'new CostBook()';",
      'const a = new InputStore(core.gallery);',
      'const b = new edit.EditInputs({ store: a });',
      'const c = new DisposableStore();',
      'run(new TaskUpdates({ emit }));',
    ].join('\n');
    expect(constructed(text)).toEqual([
      'InputStore',
      'edit.EditInputs',
      'DisposableStore',
      'TaskUpdates',
    ]);
  });
});

describe('the IPC handlers and the CLI take every core part from the core', () => {
  it('construct no class of the core but the errors they throw', () => {
    expect(frontConstructions()).toEqual([]);
  });

  it("knows the core's parts, and an error is none of them", () => {
    expect(CORE_PARTS).toContain('TaskCancels');
    expect(CORE_PARTS).toContain('BatchTaskActions');
    expect(CORE_PARTS).toContain('TemplateRuns');
    expect(CORE_PARTS).toContain('EditSettings');
    expect(CORE_PARTS).not.toContain('UserFacingError');
    const text = 'export class A {}\nclass BError extends Error {}\nexport abstract class C {}';
    expect(partClasses(text)).toEqual(['A', 'C']);
  });
});
