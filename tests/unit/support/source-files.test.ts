/**
 * The repository's files as the lint tests read them (tests/support/source-files.ts): the files
 * under the places named, by name, relative to the root with `/` and sorted; what git ignores
 * (node_modules, a build, a report, git's own folder) left out at any depth, and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bareEnv } from '../../support/child-env';
import { REPO_ROOT, repositoryFiles, repositoryPath } from '../../support/source-files';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { needing, tool } from '../../support/tools';

const GIT = tool('git');

/** Source files, beside every kind of folder git ignores and names that only look like one. */
const PLANTED = [
  'src/a.ts',
  'src/b.tsx',
  'src/notes.md',
  'src/deep/er/c.ts',
  'src/deep-er.ts',
  'src/dist.ts',
  'src/distance/d.ts',
  'src/node_modules_notes/e.ts',
  'src/.hidden/f.ts',
  'src/node_modules/pkg/index.ts',
  'src/deep/node_modules/pkg/index.ts',
  'src/dist/bundle.ts',
  'src/deep/dist-electron/main.ts',
  'src/coverage/report.ts',
  'src/test-results/out.ts',
  'src/.cache/entry.ts',
  'src/.tmp/scratch.ts',
  'src/.git/hooks/pre-commit.ts',
  'docs/guide.md',
  'README.md',
];

let root = '';
beforeEach(() => {
  root = tempFolderSync('source-files');
  for (const file of PLANTED) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), 'export {};\n');
  }
});
afterEach(() => removeFolderSync(root));

describe('the repository’s files', () => {
  it('are those under the places named with the names asked for, relative and sorted', () => {
    expect(repositoryFiles(['src'], /\.tsx?$/, { root })).toEqual([
      'src/.hidden/f.ts',
      'src/a.ts',
      'src/b.tsx',
      'src/deep-er.ts',
      'src/deep/er/c.ts',
      'src/dist.ts',
      'src/distance/d.ts',
      'src/node_modules_notes/e.ts',
    ]);
    expect(repositoryFiles(['README.md', 'docs', 'src/deep'], /\.md$/, { root })).toEqual([
      'README.md',
      'docs/guide.md',
    ]);
  });

  it('fail for a place that is not there, unless told it may be missing', () => {
    expect(() => repositoryFiles(['gone'], /\.ts$/, { root })).toThrow(/ENOENT/);
    expect(repositoryFiles(['gone', 'docs'], /\.md$/, { root, missing: 'empty' })).toEqual([
      'docs/guide.md',
    ]);
  });

  it('do not follow a link out of the tree', () => {
    const outside = tempFolderSync('source-files-outside');
    try {
      writeFileSync(join(outside, 'elsewhere.ts'), 'export {};\n');
      symlinkSync(outside, join(root, 'src', 'linked'), 'junction');
      symlinkSync(join(outside, 'elsewhere.ts'), join(root, 'src', 'linked.ts'));
      expect(repositoryFiles(['src'], /^(?:linked|elsewhere)/, { root })).toEqual([]);
    } finally {
      removeFolderSync(outside);
    }
  });

  it('name a test module by the path they list it under', () => {
    expect(repositoryPath(import.meta.url)).toBe('tests/unit/support/source-files.test.ts');
    expect(repositoryFiles(['tests/unit/support'], /^source-files\./)).toEqual([
      repositoryPath(import.meta.url),
    ]);
    expect(REPO_ROOT).toBe(join(import.meta.dirname, '..', '..', '..'));
  });

  it.skipIf(!GIT.path)(
    needing(GIT, 'are what git lists there, under the repository’s .gitignore'),
    () => {
      execFileSync(GIT.path ?? 'git', ['init', '-q'], { cwd: root, env: gitEnv() });
      copyFileSync(join(REPO_ROOT, '.gitignore'), join(root, '.gitignore'));
      const listed = execFileSync(
        GIT.path ?? 'git',
        ['ls-files', '--others', '--exclude-standard', '-z', 'src'],
        { cwd: root, env: gitEnv(), encoding: 'utf8' },
      )
        .split('\0')
        .filter((file) => file !== '')
        .sort();
      expect(listed).toContain('src/a.ts');
      // git lists nothing inside a folder named `.git` either.
      expect(repositoryFiles(['src'], /^/, { root })).toEqual(listed);
    },
  );
});

/** An environment for git that reads no system's or user's configuration (their ignores). */
function gitEnv(): NodeJS.ProcessEnv {
  return bareEnv({ GIT_CONFIG_NOSYSTEM: '1' });
}
