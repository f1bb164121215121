/**
 * The app's wiring (electron/ipc/wire-app.ts) only binds: every part of the core (input store,
 * edit inputs, cost book …) comes from openPictorCore, so the app, the CLI and the tests share
 * one. The wiring constructs nothing but its own disposables, counted here on the TypeScript
 * syntax tree (a comment or a string that says `new` is no construction).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WIRING = fileURLToPath(new URL('../../../electron/ipc/wire-app.ts', import.meta.url));

/** What the wiring may construct: its own subscriptions, released by its `dispose`. */
const OWN_DISPOSABLES = new Set(['DisposableStore', 'TaskUpdates']);

/** The class named by every `new` expression of `text`, as written (`new a.B()` is `a.B`). */
function constructed(text: string): string[] {
  const source = ts.createSourceFile('wiring.ts', text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) names.push(node.expression.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
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
