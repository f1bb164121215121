/**
 * The README's table of end-to-end journeys ("| Spec | Journey | What it checks |") has one row
 * per spec file of tests/e2e/specs, in their order, and no row for a spec that is gone; and
 * docs/TESTING.md's row of the journeys "kept" names exactly those specs' numbers. A journey
 * added, renamed or folded into a wired renderer test cannot leave either page behind.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

/** The specs the table's rows name, in its order. */
function tableSpecs(readme: string): string[] {
  const lines = readme.split('\n');
  const header = lines.findIndex((line) =>
    /^\| Spec +\| Journey +\| What it checks +\|/.test(line),
  );
  if (header === -1) return [];
  const specs: string[] = [];
  for (const line of lines.slice(header + 2)) {
    const spec = /^\| `([\w-]+)` /.exec(line)?.[1];
    if (!spec) break;
    specs.push(spec);
  }
  return specs;
}

/** The spec numbers docs/TESTING.md's row of kept journeys names (`| 00 harness, 01 … | kept |`). */
function keptNumbers(page: string): string[] {
  const row = page.split('\n').find((line) => / \| kept \| /.test(line)) ?? '';
  return [...(row.split(' | kept | ')[0] ?? '').matchAll(/\b(\d\d) /g)].map(
    ([, number]) => number!,
  );
}

describe("the pages' journeys", () => {
  const files = readdirSync(join(REPO_ROOT, 'tests/e2e/specs'))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => name.slice(0, -'.spec.ts'.length))
    .sort();

  it("are the README table's rows, one per spec file, in order", () => {
    expect(files.length).toBeGreaterThan(10);
    expect(tableSpecs(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'))).toEqual(files);
  });

  it("are the ones TESTING.md's table keeps", () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/TESTING.md'), 'utf8');
    expect(keptNumbers(page)).toEqual(files.map((file) => file.slice(0, 2)));
    expect(keptNumbers('| 00 harness, 17 gallery basics | kept | x |')).toEqual(['00', '17']);
  });

  it('is read as written', () => {
    const page = [
      '| Spec       | Journey | What it checks |',
      '| ---------- | ------- | -------------- |',
      '| `01-first` | First   | It works.      |',
      '| `03-next`  | Next    | It goes on.    |',
      '',
      '| `04-after` | After   | Not this one.  |',
    ].join('\n');
    expect(tableSpecs(page)).toEqual(['01-first', '03-next']);
  });
});
