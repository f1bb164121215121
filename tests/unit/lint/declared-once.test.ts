/**
 * Tables and names that are declared once, found again in no other product file: the control
 * characters and the entity names (shared/text), the gallery's visible image states
 * (shared/domain/task-record.ts) and the trash folder's name (core/trash/gallery-trash.ts). A
 * copy written back anywhere in electron/, shared/ or renderer/ fails here, and so does a test
 * that calls IPC handlers as the page does without the one helper, tests/support/ipc.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const sourceFiles = (tops: readonly string[]) => repositoryFiles(tops, /\.tsx?$/);

const productFiles = () => sourceFiles(['electron', 'shared', 'renderer']);

/** Files whose text matches `pattern`. */
function filesMatching(pattern: RegExp, files = productFiles()): string[] {
  return files.filter((file) => pattern.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
}

const COPIES: readonly (readonly [string, RegExp, readonly string[]])[] = [
  // A character class of control characters written out (`\u0000-\u001f`, `\x7f-\x9f`…).
  [
    'control characters',
    /\\(?:u0000|x00)-\\(?:u001f|x1f)|\\(?:u007f|x7f)-\\(?:u009f|x9f)/i,
    ['shared/text/control-characters.ts'],
  ],
  ['bidi controls', /\\u202a-\\u202e/i, ['shared/text/control-characters.ts']],
  ['entity names', /\bamp\b['"]?\s*[:,]\s*['"]&['"]/, ['shared/text/entities.ts']],
  [
    'visible image states',
    /'pending',\s*'saved',\s*'expired',\s*'invalid'/,
    ['shared/domain/task-record.ts'],
  ],
  ['the trash folder', /['"`]\.pictor-trash\b/, ['electron/core/trash/gallery-trash.ts']],
];

describe('declared once', () => {
  it('finds product files to read', () => {
    expect(productFiles().length).toBeGreaterThan(200);
  });

  it.each(COPIES)('%s: written in its own file only', (_what, pattern, home) => {
    const found = filesMatching(pattern);
    // The home itself may spell the table out (the trash's name is a plain string there).
    expect(found.filter((file) => !home.includes(file))).toEqual([]);
  });

  it('calls IPC handlers from a trusted page in one test helper (tests/support/ipc.ts)', () => {
    const callers = filesMatching(/isTrusted: \(\) => true/, sourceFiles(['tests']));
    expect(callers).toEqual(['tests/support/ipc.ts']);
  });

  it('recognises a copy of each (the patterns are not dead)', () => {
    const samples = [
      String.raw`const C = /[\u0000-\u001f\u007f]/;`,
      String.raw`const B = /[\u202a-\u202e]/;`,
      `const E = { amp: '&', lt: '<' };`,
      `const V = ['pending', 'saved', 'expired', 'invalid'];`,
      `const T = '.pictor-trash';`,
    ];
    COPIES.forEach(([what, pattern], index) => expect(samples[index], what).toMatch(pattern));
  });
});
