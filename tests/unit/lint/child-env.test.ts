/**
 * A test that starts a child without its own environment builds the child's one from
 * tests/support/child-env.ts's `bareEnv`, which passes the run's TMPDIR on: an environment written
 * out from PATH alone (`{ PATH: process.env.PATH, HOME: … }`) sent the child's temporary files to
 * /tmp, outside the run's own folder and its check of what a run leaves (tests/support/run-temp.ts).
 * This test finds such an object, written anywhere in the tests: one naming PATH from
 * `process.env` and neither spreading `process.env` nor naming TMPDIR.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** The one home, which writes the object out. */
const HOME = 'tests/support/child-env.ts';

const nameOf = (name: ts.PropertyName): string | null =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null;

/** `process.env`, `process.env.PATH` or `process.env['PATH']` (with `?? …` after it). */
function readsProcessEnv(node: ts.Expression): boolean {
  return /^process\.env\b/.test(node.getText());
}

/**
 * Where `file` (relative to the root; its `text`) writes out a child's environment from PATH
 * alone: `file:line: text`.
 */
function bareEnvironments(
  file: string,
  text = readFileSync(join(REPO_ROOT, file), 'utf8'),
): string[] {
  if (!text.includes('PATH')) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const path = node.properties.find(
        (property): property is ts.PropertyAssignment =>
          ts.isPropertyAssignment(property) &&
          nameOf(property.name) === 'PATH' &&
          readsProcessEnv(property.initializer),
      );
      const passesTmpdir = node.properties.some(
        (property) =>
          (ts.isSpreadAssignment(property) && property.expression.getText() === 'process.env') ||
          ((ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
            nameOf(property.name) === 'TMPDIR'),
      );
      if (path !== undefined && !passesTmpdir) {
        const { line } = source.getLineAndCharacterOfPosition(path.getStart());
        found.push(`${file}:${String(line + 1)}: ${path.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('a child’s environment in the tests', () => {
  it('is built by bareEnv (or from process.env), never written out from PATH alone', () => {
    const found = repositoryFiles(['tests'], /\.(m?ts|tsx)$/)
      .filter((file) => file !== HOME)
      .flatMap((file) => bareEnvironments(file));
    expect(found).toEqual([]);
  });

  it('finds one written out from PATH alone, and passes one that names TMPDIR or spreads', () => {
    const samples = [
      "spawn('x', [], { env: { PATH: process.env['PATH'] ?? '', HOME: '/h' } });",
      "const env = { HOME: '/h', 'PATH': process.env.PATH };",
      "spawn('x', [], { env: { PATH: process.env.PATH, TMPDIR: '/elsewhere' } });",
      "spawn('x', [], { env: { ...process.env, PATH: process.env.PATH + ':/opt' } });",
      "spawn('x', [], { env: { PATH: '/usr/bin' } });",
    ].join('\n');
    expect(bareEnvironments('tests/sample.ts', samples)).toEqual([
      "tests/sample.ts:1: PATH: process.env['PATH'] ?? ''",
      "tests/sample.ts:2: 'PATH': process.env.PATH",
    ]);
  });
});
