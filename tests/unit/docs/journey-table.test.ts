/**
 * The README's table of end-to-end journeys ("| Spec | Journey | What it checks |") has one row
 * per spec file of tests/e2e/specs, in their order, and no row for a spec that is gone: a journey
 * added, renamed or folded into a wired renderer test cannot leave the table behind.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

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

describe("the README's table of journeys", () => {
  it('has one row per spec file, in order', () => {
    const files = readdirSync(join(root, 'tests/e2e/specs'))
      .filter((name) => name.endsWith('.spec.ts'))
      .map((name) => name.slice(0, -'.spec.ts'.length))
      .sort();
    expect(files.length).toBeGreaterThan(10);
    expect(tableSpecs(readFileSync(join(root, 'README.md'), 'utf8'))).toEqual(files);
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
