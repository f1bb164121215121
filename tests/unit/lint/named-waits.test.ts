/**
 * Every wait on a condition in a vitest file (`vi.waitFor`, `vi.waitUntil`, `expect.poll`) names
 * its deadline: tests/support/waits.ts's `UNTIL`, or a bound of the file's own of at least
 * {@link SHORTEST_MS}. Unnamed, vitest gives it 1 s, which a saturated 2-core machine reaches
 * before an HTTP round trip, a timer or a file write it waits on: the test then fails for the
 * load, not the code. (The renderer's testing-library waits take `UNTIL` from their setup file;
 * Playwright's from its config.) This test finds a wait without one, or with a shorter one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles, repositoryPath } from '../../support/source-files';

/** The shortest deadline a wait may name as a number (a wait that ends, ends well before it). */
const SHORTEST_MS = 10_000;

/** A wait on a condition: `vi.waitFor`, `vi.waitUntil`, `expect.poll`. */
function isWait(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression)) return false;
  const [owner, method] = [callee.expression.text, callee.name.text];
  return (
    (owner === 'vi' && /^wait(?:For|Until)$/.test(method)) ||
    (owner === 'expect' && method === 'poll')
  );
}

/** Why the deadline `options` names is not one, or null when it is. */
function deadlineFault(options: ts.Expression | undefined): string | null {
  if (options === undefined) return 'no deadline (vitest’s 1 s)';
  const short = (value: ts.Expression) =>
    ts.isNumericLiteral(value) && Number(value.text.replaceAll('_', '')) < SHORTEST_MS
      ? `a deadline under ${SHORTEST_MS} ms`
      : null;
  if (!ts.isObjectLiteralExpression(options)) return short(options);
  const timeout = options.properties.find(
    (property) =>
      property.name !== undefined &&
      ts.isIdentifier(property.name) &&
      property.name.text === 'timeout',
  );
  if (timeout === undefined) {
    return options.properties.some(ts.isSpreadAssignment) ? null : 'no timeout (vitest’s 1 s)';
  }
  return ts.isPropertyAssignment(timeout) ? short(timeout.initializer) : null;
}

/** Each wait in `text` without a deadline of its own: `line: why`. */
function unnamedDeadlines(text: string, file = 'sample.ts'): string[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isWait(node)) {
      const fault = deadlineFault(node.arguments[1]);
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (fault !== null) found.push(`${line}: ${fault}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The vitest files under tests/ (Playwright's specs wait by their own config), but this one. */
function vitestSources(): string[] {
  const self = repositoryPath(import.meta.url);
  return repositoryFiles(['tests'], /\.tsx?$/).filter(
    (file) =>
      file !== self && readFileSync(join(REPO_ROOT, file), 'utf8').includes("from 'vitest'"),
  );
}

describe('a wait on a condition', () => {
  it('recognises one without a deadline of its own, and leaves the others alone', () => {
    for (const text of [
      'await vi.waitFor(() => expect(x).toBe(1));',
      'await vi.waitUntil(() => done);',
      'await expect.poll(() => count()).toBe(2);',
      'await vi.waitFor(() => expect(x).toBe(1), { interval: 5 });',
      'await vi.waitFor(() => expect(x).toBe(1), { timeout: 5_000 });',
      'await vi.waitFor(() => expect(x).toBe(1), 2000);',
    ]) {
      expect(unnamedDeadlines(text), text).toHaveLength(1);
    }
    for (const text of [
      'await vi.waitFor(() => expect(x).toBe(1), UNTIL);',
      'await expect.poll(() => count(), UNTIL).toBe(2);',
      'await vi.waitFor(() => expect(x).toBe(1), { timeout: 30_000, interval: 50 });',
      'await vi.waitFor(() => expect(x).toBe(1), { timeout, interval: 50 });',
      'await vi.waitFor(() => expect(x).toBe(1), { ...UNTIL, interval: 5 });',
      'await vi.waitFor(() => expect(x).toBe(1), 15_000);',
      'await waitFor(() => expect(x).toBe(1));',
    ]) {
      expect(unnamedDeadlines(text), text).toEqual([]);
    }
  });

  it('names its deadline in every vitest file (tests/support/waits.ts)', () => {
    const files = vitestSources();
    // The open-files suite is one: the check reads what it looks for.
    expect(files).toContain('tests/unit/app/protocol/gallery-open-files.test.ts');
    const unnamed = files.flatMap((file) =>
      unnamedDeadlines(readFileSync(join(REPO_ROOT, file), 'utf8'), file).map(
        (fault) => `${file}:${fault}`,
      ),
    );
    expect(unnamed).toEqual([]);
  });
});
