/**
 * docs/RELIABILITY.md shows only recorded figures: its figures region is exactly what
 * `npm run reliability` writes from docs/reliability/figures.json, the hand-written rest of the
 * page is never touched by it, and no hardening suite records a literal 0 as a measurement.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  FIGURES_BEGIN,
  FIGURES_END,
  RELIABILITY_PAGE,
  figuresOf,
  mergeFigures,
  readCommittedFigures,
  renderFigures,
  withFigures,
  type Figure,
} from '../../hardening/support/reliability-page';
import { NOT_MEASURED } from '../../hardening/support/reliability-record';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

function figure(overrides: Partial<Figure>): Figure {
  return {
    section: 'hostile-input',
    row: 'A row',
    load: 'some load',
    injected: { tried: 10 },
    outcome: { refused: 10 },
    lost: NOT_MEASURED,
    duplicated: NOT_MEASURED,
    leaked: 0,
    file: 'tests/hardening/hostile/ids-and-urls.test.ts',
    size: 'test',
    command: 'npx vitest run tests/hardening/hostile/ids-and-urls.test.ts',
    at: '2026-01-02T03:04:05.000Z',
    node: '24.0.0',
    machine: '2 CPUs (Test CPU), 8 GB, linux',
    ...overrides,
  };
}

/** Every literal 0 (or null) written as a value inside a recordReliability({ … }) call. */
function literalZerosIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const inside = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node)) {
      const value = node.initializer;
      const zero = ts.isNumericLiteral(value) && Number(value.text) === 0;
      if (zero || value.kind === ts.SyntaxKind.NullKeyword) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${relative(REPO_ROOT, file)}:${line + 1} ${node.getText()}`);
      }
    }
    ts.forEachChild(node, inside);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'recordReliability'
    ) {
      node.arguments.forEach(inside);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('docs/RELIABILITY.md', () => {
  it('shows exactly the recorded figures between its markers', () => {
    const page = readFileSync(RELIABILITY_PAGE, 'utf8');
    expect(figuresOf(page)).toBe(renderFigures(readCommittedFigures()));
  });

  it('records rows of test files that exist, each measured on Node 24 or later', () => {
    const figures = readCommittedFigures();
    for (const f of figures) {
      expect(existsSync(join(REPO_ROOT, f.file)), f.file).toBe(true);
      expect(Number(f.node.split('.')[0]), `${f.row}: Node ${f.node}`).toBeGreaterThanOrEqual(24);
    }
  });

  it('is written between the markers only: the hand-written rest stays byte for byte', () => {
    const before = 'Hand-written intro.\n\n';
    const after = '\n\n## Threat model\n\nEdited by hand | with a table\n';
    const page = `${before}${FIGURES_BEGIN}\n\nold figures\n\n${FIGURES_END}${after}`;
    const written = withFigures(page, 'new figures');
    expect(written.startsWith(`${before}${FIGURES_BEGIN}`)).toBe(true);
    expect(written.endsWith(`${FIGURES_END}${after}`)).toBe(true);
    expect(figuresOf(written)).toBe('new figures');
    expect(() => withFigures('no markers', 'x')).toThrow(/figures:begin/);
  });

  it('totals only what rows counted, and says how many did not', () => {
    const text = renderFigures([
      figure({ row: 'counted', lost: 2, leaked: 1 }),
      figure({ row: 'not counted', lost: NOT_MEASURED, leaked: 0 }),
    ]);
    expect(text).toContain(
      `| 3. Hostile input | test | 2 | 20 | 2 (1 of 2 rows ${NOT_MEASURED}) |`,
    );
    expect(text).toContain(`– (2 of 2 rows ${NOT_MEASURED})`);
    expect(text).toContain(
      `| ${NOT_MEASURED} | ${NOT_MEASURED} | 0 | 2026-01-02, Node 24.0.0, 2 CPUs |`,
    );
  });

  it('keeps the rows of files that did not run, and drops rows a file that ran no longer records', () => {
    const old = figure({ at: '2026-01-01T00:00:00.000Z' });
    const renamed = figure({ row: 'A row it no longer records' });
    const soak = figure({ size: 'soak' });
    const other = figure({ file: 'tests/hardening/hostile/ipc-inputs.test.ts' });
    const gone = figure({ file: 'tests/hardening/gone.test.ts' });
    const fresh = figure({ at: '2026-02-01T00:00:00.000Z', leaked: 0 });
    const merged = mergeFigures(
      [old, renamed, soak, other, gone],
      [fresh],
      (file) => !file.includes('gone'),
    );
    expect(merged).toEqual([soak, fresh, other]);
  });
});

describe('the hardening suites', () => {
  it('record no literal 0 (or null) as a figure: a count the test made, or "not measured"', () => {
    const files = repositoryFiles(['tests/hardening'], /\.ts$/).map((file) =>
      join(REPO_ROOT, file),
    );
    const recording = files.filter((file) =>
      readFileSync(file, 'utf8').includes('recordReliability({'),
    );
    expect(recording.length).toBeGreaterThanOrEqual(10);
    expect(recording.flatMap(literalZerosIn)).toEqual([]);
  });

  it('the scan finds a literal 0 where one is written', () => {
    const probe = join(REPO_ROOT, 'tests', 'unit', 'docs', 'fixtures', 'literal-zero.ts.txt');
    expect(literalZerosIn(probe)).toEqual([
      'tests/unit/docs/fixtures/literal-zero.ts.txt:3 lost: 0',
      'tests/unit/docs/fixtures/literal-zero.ts.txt:5 leaked: null',
      'tests/unit/docs/fixtures/literal-zero.ts.txt:6 crashes: 0',
    ]);
  });
});
