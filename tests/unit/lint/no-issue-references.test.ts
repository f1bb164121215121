/**
 * Code, tests and docs say what they refer to, not the number of the ticket that asked for it:
 * a reader of the source has the source, not the tracker. Fails on any "issue" followed by a
 * number in electron/, renderer/, shared/, tests/, docs/, README.md or the root configs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const TEXT = /\.(ts|tsx|js|mjs|md|json|yml|css|html)$/;
// Written in two parts so this file does not name one itself.
const REFERENCE = new RegExp(['\\bissues?', '\\s#?\\d'].join(''), 'i');

function filesIn(top: string): string[] {
  return readdirSync(join(root, top), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEXT.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

describe('issue references', () => {
  it('are nowhere in code, tests or docs', () => {
    const files = [
      ...['electron', 'renderer', 'shared', 'tests', 'docs'].flatMap(filesIn),
      'README.md',
      'vitest.config.ts',
      'vite.config.ts',
      'eslint.config.js',
    ];
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
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
