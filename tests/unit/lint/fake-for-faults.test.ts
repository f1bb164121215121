/**
 * The renderer's tests run over the app's real wiring (render-wired-app.tsx), their faults through
 * the contract's interceptor; the hand-written API fake (tests/fakes/fake-pictor-api.ts) is left
 * to the screenshot pages, which run in a browser. Should a test start it again, it says which
 * fault main could not be made to produce on demand, in a
 * `// Fault:` comment on the test (or on the describe or statement around the start); a helper of
 * the file that starts the fake counts as a start wherever it is used. This test finds a start of
 * the fake without one, and holds the hand-written fakes (tests/fakes/fake-*.ts) to a ceiling of
 * lines that only goes down as the last of them move onto the real wiring (300 at most is the aim).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/**
 * The hand-written fakes' lines at most, all `fake-*.ts` files together: lower it as they shrink,
 * never raise it (a new channel goes into the contract and main, and the interceptor has it).
 */
const FAKE_LINES_CEILING = 400;

/** Lines of each `fake-*.ts` file of the fakes' folder, counted as `wc -l` counts them. */
function fakeLines(): Record<string, number> {
  const lines: Record<string, number> = {};
  for (const file of repositoryFiles(['tests/fakes'], /^fake-.*\.ts$/)) {
    lines[file] = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n').length - 1;
  }
  return lines;
}

/** What starts the fake: the app over it, or the fake itself. */
const STARTS = new Set([
  'startApp',
  'restartApp',
  'renderGallery',
  'installFakeApi',
  'FakePictorApi',
]);
const FAULT = /^\/\/ Fault: \S/;

function calleeName(node: ts.CallExpression | ts.NewExpression): string | null {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
}

/** The `// …` comments just above `node`'s line, and on its own line after it. */
function commentsOf(node: ts.Node, text: string): string[] {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return ranges.map((range) => text.slice(range.pos, range.end).trim());
}

/** Whether a `// Fault:` comment stands on `start` or on a statement or declaration around it. */
function saysItsFault(start: ts.Node, text: string): boolean {
  for (let node: ts.Node | undefined = start; node; node = node.parent) {
    if (ts.isSourceFile(node)) return false;
    const statementLike =
      ts.isStatement(node) ||
      ts.isVariableDeclarationList(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isPropertyAssignment(node);
    if (statementLike && commentsOf(node, text).some((comment) => FAULT.test(comment))) return true;
  }
  return false;
}

/** The file's own named functions (declarations, and consts bound to a function) and bodies. */
function localFunctions(source: ts.SourceFile): Map<string, ts.Node> {
  const found = new Map<string, ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) found.set(node.name.text, node);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    ) {
      found.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function callsIn(node: ts.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  const visit = (child: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(child) || ts.isNewExpression(child)) {
      const name = calleeName(child);
      if (name && names.has(name)) found = true;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/**
 * What starts the fake in a file: {@link STARTS}, and the file's own functions that call one of
 * them, however deep (a `start()` helper that calls `startApp` is a start at each use).
 */
function startsIn(source: ts.SourceFile): { names: Set<string>; helpers: ts.Node[] } {
  const functions = localFunctions(source);
  const names = new Set(STARTS);
  const helpers: ts.Node[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, body] of functions) {
      if (names.has(name) || !callsIn(body, names)) continue;
      names.add(name);
      helpers.push(body);
      grew = true;
    }
  }
  return { names, helpers };
}

/** Each start of the fake in `file` (its `text`) without its fault, as `file:line name`. */
function unexplainedStarts(
  file: string,
  text = readFileSync(join(REPO_ROOT, file), 'utf8'),
): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const { names, helpers } = startsIn(source);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    // A helper's own body is where it starts the fake; each use of it is judged instead.
    if (helpers.includes(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      if (name && names.has(name) && !saysItsFault(node, text)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1} ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the API fake is for faults', () => {
  it('the hand-written fakes stay within their ceiling of lines', () => {
    const lines = fakeLines();
    const total = Object.values(lines).reduce((sum, count) => sum + count, 0);
    expect(total, JSON.stringify(lines)).toBeLessThanOrEqual(FAKE_LINES_CEILING);
  });

  it('every renderer test that starts the fake says which fault it injects', () => {
    const missing = repositoryFiles(['tests/unit/renderer'], /\.test\.tsx?$/).flatMap((file) =>
      unexplainedStarts(file),
    );
    expect(missing).toEqual([]);
  });

  it('finds a start without its fault, in a test, a describe or through a helper', () => {
    const sample = [
      "it('plain', async () => {",
      '  await startApp();',
      '});',
      '// Fault: tasks:list fails.',
      "it('fault', async () => {",
      '  await startApp();',
      '});',
      "describe('x', () => {",
      "  it('inner', async () => {",
      '    // Fault: the answer is held back.',
      '    const { fake } = await startApp();',
      '  });',
      '  const start = () => restartApp();',
      '  async function open() {',
      '    return start();',
      '  }',
      "  it('through a helper', async () => {",
      '    await open();',
      '  });',
      '  // Fault: the refusal comes before the answer.',
      "  it('through a helper, with its fault', async () => {",
      '    await start();',
      '  });',
      '  const api = new FakePictorApi();',
      '  // Faults come later.',
      '  void installFakeApi(api);',
      '});',
    ].join('\n');
    expect(unexplainedStarts('tests/unit/renderer/sample.test.tsx', sample)).toEqual([
      'tests/unit/renderer/sample.test.tsx:2 startApp',
      'tests/unit/renderer/sample.test.tsx:18 open',
      'tests/unit/renderer/sample.test.tsx:24 FakePictorApi',
      'tests/unit/renderer/sample.test.tsx:26 installFakeApi',
    ]);
  });
});
