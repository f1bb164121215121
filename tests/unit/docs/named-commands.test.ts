/**
 * The npm scripts and the environment variables README.md and docs/ tell the reader to use are
 * there: every `npm run NAME` is a script of package.json, every suite `npm run bench -- --only`
 * names is one of the bench's (tests/bench/run.ts), and every `PICTOR_…` variable is read by the
 * code, the tests, the workflow or CI's script. A script or a variable renamed cannot leave
 * a page sending the reader to nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** Where a variable may be read. */
const READERS = ['electron', 'shared', 'renderer', 'tests', '.github', '.ci', 'package.json'];
const CODE = /\.(ts|tsx|mts|mjs|cjs|js|yml|yaml|json|sh|cmd|nsh)$|^run$/;

/** README.md and every page of docs/, line by line. */
function pageLines(): { at: string; line: string }[] {
  return repositoryFiles(['README.md', 'docs'], /\.md$/).flatMap((file) =>
    readFileSync(join(REPO_ROOT, file), 'utf8')
      .split('\n')
      .map((line, index) => ({ at: `${file}:${index + 1}`, line })),
  );
}

/** The npm scripts a line runs (`npm run NAME`, `npm run -s NAME`, `npm run --silent NAME`). */
function scriptsIn(line: string): string[] {
  return [...line.matchAll(/\bnpm run (?:(?:-s|--silent) )?([a-z][\w:.-]*)/g)].map(([, name]) =>
    name!.replace(/[.]+$/, ''),
  );
}

/** The bench suites a line names after `--only` (or `--only=`). */
function suitesIn(line: string): string[] {
  return [...line.matchAll(/--only[ =]([\w,-]+)/g)].flatMap(([, list]) => list!.split(','));
}

/** The `PICTOR_…` variables a line names (`PICTOR_KEY_<PROVIDER>` as its prefix `PICTOR_KEY_`). */
function variablesIn(line: string): string[] {
  return [...line.matchAll(/\bPICTOR_[A-Z0-9_]*[A-Z0-9_]/g)].map(([name]) => name);
}

/** The text of every file that may read a variable (not these tests, which name made-up ones). */
function readersText(): string {
  return repositoryFiles(READERS, CODE)
    .filter((file) => !file.startsWith('tests/unit/docs/'))
    .map((file) => readFileSync(join(REPO_ROOT, file), 'utf8'))
    .join('\n');
}

describe('what the docs tell the reader to run', () => {
  const lines = pageLines();

  it('names only npm scripts package.json has', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: object })
        .scripts,
    );
    const named = lines.flatMap(({ at, line }) => scriptsIn(line).map((name) => ({ at, name })));
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter(({ name }) => !scripts.includes(name))).toEqual([]);
    expect(
      scriptsIn('`npm run -s cli -- list`, `npm run --silent ci:chromium`, npm run soak.'),
    ).toEqual(['cli', 'ci:chromium', 'soak']);
  });

  it('names only bench suites the bench has', () => {
    const run = readFileSync(join(REPO_ROOT, 'tests/bench/run.ts'), 'utf8');
    const list = /const SUITES = \[([^\]]*)\]/.exec(run)?.[1] ?? '';
    const suites = [...list.matchAll(/'([\w-]+)'/g)].map(([, name]) => name!);
    expect(suites.length).toBeGreaterThan(10);
    const named = lines.flatMap(({ at, line }) => suitesIn(line).map((name) => ({ at, name })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => !suites.includes(name))).toEqual([]);
    expect(suitesIn('`npm run bench -- --only engine,history` and `--only=ui`')).toEqual([
      'engine',
      'history',
      'ui',
    ]);
  });

  it('names only PICTOR_ variables something reads', () => {
    const read = new Set(variablesIn(readersText()));
    const named = lines.flatMap(({ at, line }) => variablesIn(line).map((name) => ({ at, name })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => !read.has(name))).toEqual([]);
    expect(read.has('PICTOR_E2E_HOS')).toBe(false);
    expect(variablesIn('`PICTOR_KEY_<PROVIDER>` and PICTOR_E2E_HOST=electron')).toEqual([
      'PICTOR_KEY_',
      'PICTOR_E2E_HOST',
    ]);
  });
});
