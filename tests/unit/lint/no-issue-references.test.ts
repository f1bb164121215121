/**
 * Code, tests and docs say what they refer to, not the number of the ticket that asked for it:
 * a reader of the source has the source, not the tracker. Fails on any "issue" followed by a
 * number in electron/, renderer/, shared/, tests/, docs/, README.md or the root configs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const PLACES = [
  'electron',
  'renderer',
  'shared',
  'tests',
  'docs',
  'README.md',
  'vitest.config.ts',
  'vite.config.ts',
  'eslint.config.js',
];
const TEXT = /\.(ts|tsx|js|mjs|md|json|yml|css|html)$/;
// Written in two parts so this file does not name one itself.
const REFERENCE = new RegExp(['\\bissues?', '\\s#?\\d'].join(''), 'i');

describe('issue references', () => {
  it('are nowhere in code, tests or docs', () => {
    const files = repositoryFiles(PLACES, TEXT);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) =>
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, at) => (REFERENCE.test(line) ? [`${file}:${at + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the pattern finds one', () => {
    expect(`(${['issue', '16'].join(' ')}, item 8)`).toMatch(REFERENCE);
    expect(`${['Issues', '#3'].join(' ')} and 4`).toMatch(REFERENCE);
    expect('zod issue.path and issues.length').not.toMatch(REFERENCE);
  });
});
