/**
 * One service model: the user's own service (provider `pictor`, the seed's interface) is an
 * ordinary provider, and product code treats it apart only where that interface really differs.
 * This counts every place product code singles the literal `'pictor'` out: a comparison
 * (`=== 'pictor'`, `!==`, `==`, `!=`), a `case 'pictor':`, a lookup by it (`x['pictor']`,
 * `x.pictor`), a type or schema that takes it out or picks it (`Exclude<…, 'pictor'>`,
 * `.exclude(['pictor'])`). Each of those left must say in a comment beside it what of the seed's
 * interface makes it necessary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const PRODUCT_DIRS = ['electron', 'renderer', 'shared'];
const LITERAL = 'pictor';
/** The most special cases the seed's interface justifies (docs/ARCHITECTURE.md, "Adding a service"). */
const MOST = 3;
/**
 * Where the count stands now, shrink-only (at most {@link MOST}): lower it with every special
 * case removed; never raise it.
 */
const CEILING = 0;

const isLiteral = (node: ts.Node | undefined): boolean =>
  node !== undefined && ts.isStringLiteralLike(node) && node.text === LITERAL;

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Whether `node` singles the literal out (see the header), and so counts once. */
function isSpecialCase(node: ts.Node): boolean {
  if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind))
    return isLiteral(node.left) || isLiteral(node.right);
  if (ts.isCaseClause(node)) return isLiteral(node.expression);
  if (ts.isElementAccessExpression(node)) return isLiteral(node.argumentExpression);
  // `window.pictor` is the preload's API object, not the service.
  if (ts.isPropertyAccessExpression(node))
    return node.name.text === LITERAL && node.expression.getText() !== 'window';
  if (ts.isTypeReferenceNode(node) && /^(Exclude|Extract|Omit|Pick)$/.test(node.typeName.getText()))
    return (node.typeArguments ?? []).some(
      (type) => ts.isLiteralTypeNode(type) && isLiteral(type.literal),
    );
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    if (!/^(exclude|extract)$/.test(node.expression.name.text)) return false;
    return node.arguments.some(
      (arg) => ts.isArrayLiteralExpression(arg) && arg.elements.some(isLiteral),
    );
  }
  return false;
}

/** Every special case in `text`, as `path:line`. */
export function specialCasesIn(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isSpecialCase(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${path}:${line + 1}`);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** The service's own code (its profile, its demo dialect) reads its own facts by its own id. */
const OWN_CODE = /^electron\/(core\/service\/providers|demo-service)\/pictor[^/]*\.ts$/;

function allSpecialCases(): string[] {
  return repositoryFiles(PRODUCT_DIRS, /\.tsx?$/)
    .filter((path) => !path.endsWith('.d.ts') && !OWN_CODE.test(path))
    .flatMap((path) => {
      const text = readFileSync(join(REPO_ROOT, path), 'utf8');
      // Most files never spell it: parsing only those that do keeps the test fast.
      return /['"`.]pictor\b/.test(text) ? specialCasesIn(path, text) : [];
    });
}

describe('the user’s own service is an ordinary provider', () => {
  it('finds every form of a special case, and nothing else', () => {
    expect(OWN_CODE.test('electron/core/service/providers/pictor.ts')).toBe(true);
    expect(OWN_CODE.test('electron/core/pictor-core.ts')).toBe(false);
    const code = [
      "if (provider === 'pictor') a();",
      "const b = 'pictor' != id;",
      "switch (id) { case 'pictor': break; }",
      "const c = statuses['pictor'];",
      'const d = statuses.pictor;',
      "type E = Exclude<ProviderId, 'pictor'>;",
      "const f = providerIdSchema.exclude(['pictor']);",
      // Not special cases: the preload's object, the default, a registry entry, another word.
      "window.pictor.invoke('x'); const g = id ?? 'pictor'; const h = { pictor: 1 };",
      "if (format === 'fooocus') a();",
    ].join('\n');
    expect(specialCasesIn('x.ts', code)).toEqual([
      'x.ts:1',
      'x.ts:2',
      'x.ts:3',
      'x.ts:4',
      'x.ts:5',
      'x.ts:6',
      'x.ts:7',
    ]);
  });

  it(`singles the seed's service out in at most ${CEILING} places (at most ${MOST} ever)`, () => {
    expect(CEILING).toBeLessThanOrEqual(MOST);
    const found = allSpecialCases();
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(CEILING);
  });
});
