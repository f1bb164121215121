/**
 * The docs, the packaged resources, the workflow and the product's comments point readers at the
 * tests that show a claim; a test moved or renamed leaves them pointing at nothing (the Linux
 * after-install script once named tests/packaging/ for a test that lives in tests/unit/resources/).
 * Every `tests/...` path they name exists: brace lists (`{a,b}.test.ts`) are expanded, and a `*`
 * in the last part must match at least one file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const PLACES = ['README.md', 'docs', 'resources', '.github', 'electron', 'shared', 'renderer'];
const TEXT = /\.(ts|tsx|js|mjs|md|yml|yaml|json|tpl|sh|cmd|nsh|plist|txt|html|css)$/;
/** `tests/` not inside another word or path, then path characters and brace lists. */
const TEST_PATH = /(?<![\w./-])tests\/(?:[\w.*/-]|\{[\w.,-]*\})+/g;

/** `a/{b,c}.ts` as `a/b.ts` and `a/c.ts`. */
function expandBraces(pattern: string): string[] {
  const group = /\{([^{}]*)\}/.exec(pattern);
  if (!group) return [pattern];
  const [before, after] = [
    pattern.slice(0, group.index),
    pattern.slice(group.index + group[0].length),
  ];
  return (group[1] ?? '')
    .split(',')
    .flatMap((choice) => expandBraces(`${before}${choice}${after}`));
}

/** The paths `text` names, expanded, with a sentence's closing punctuation taken off. */
function testPathsIn(text: string): string[] {
  return [...text.matchAll(TEST_PATH)].flatMap((match) =>
    expandBraces(match[0].replace(/[.]+$/, '')).map((path) => path.replace(/\/$/, '')),
  );
}

function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(REPO_ROOT, path));
  const folder = join(REPO_ROOT, dirname(path));
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (dirname(path).includes('*') || !existsSync(folder)) return false;
  const matches = new RegExp(
    `^${last.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
  );
  return readdirSync(folder).some((name) => matches.test(name));
}

describe('test paths named outside tests/', () => {
  it('all exist', () => {
    const files = repositoryFiles(PLACES, TEXT, { missing: 'empty' });
    expect(files.length).toBeGreaterThan(300);
    const named = files.flatMap((file) =>
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, at) =>
          testPathsIn(line).map((path) => ({ at: `${file}:${at + 1}`, path })),
        ),
    );
    expect(named.length).toBeGreaterThan(50);
    expect(
      named.filter(({ path }) => !exists(path)).map(({ at, path }) => `${at}: ${path}`),
    ).toEqual([]);
  });

  it('are read as written: brace lists expanded, sentence ends and other words left out', () => {
    expect(
      testPathsIn('`tests/unit/core/gallery/{temp-cleanup-links,regular-file}.test.ts`, and'),
    ).toEqual([
      'tests/unit/core/gallery/temp-cleanup-links.test.ts',
      'tests/unit/core/gallery/regular-file.test.ts',
    ]);
    expect(testPathsIn('checked by tests/unit/resources/linux-command.test.ts.')).toEqual([
      'tests/unit/resources/linux-command.test.ts',
    ]);
    expect(testPathsIn('see my-tests/x.ts and ./tests/y.ts')).toEqual([]);
    expect(exists('tests/unit/core/fs/*')).toBe(true);
    expect(exists('tests/packaging/linux-command.test.ts')).toBe(false);
    expect(exists('tests/unit/nothing-here/*')).toBe(false);
  });
});
