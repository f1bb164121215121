/**
 * The repository's own files, for the tests that read its sources (the lint tests, the size
 * record's inputs, the classification of test files in vitest.config.ts): one walk, with one rule
 * for what it leaves out, the folders git ignores and git's own. Each test walked with its own
 * code before, and only two of them left out node_modules, so a build, an install or a report
 * lying under a source folder was read by some checks and not by others.
 *
 * Not tests/support/files.ts: that lists everything a test made on disk, ignored names and all.
 * Walked anew at every call, not kept: a test that lays out a tree of its own lists it again after
 * changing it (size-offenders-record.test.ts), and the 48 walks of the lint tests that list
 * files took 0.33 s of their 35 s (a loaded 2-core machine).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (by this file's folder: a page test's module URL is no file's). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The folder names left out wherever they are: git's own, and each entry of .gitignore that is
 * a plain name (`node_modules`, `dist/`), which git ignores at any depth. Its patterns (`*.log`)
 * are files, which the callers' choice of names already leaves out.
 */
const LEFT_OUT = new Set([
  '.git',
  ...readFileSync(join(REPO_ROOT, '.gitignore'), 'utf8')
    .split(/\r?\n/)
    .filter((line) => /^[\w.-]+\/?$/.test(line))
    .map((line) => line.replace(/\/$/, '')),
]);

export interface RepositoryFilesOptions {
  /** The repository to list (default {@link REPO_ROOT}): a test's own tree laid out as one. */
  readonly root?: string;
  /** `empty`: a place that does not exist holds no files; `throw` (the default): it fails. */
  readonly missing?: 'empty' | 'throw';
}

/** The regular files under `folder` (relative to `root`, with `/`), into `found`. */
function walk(root: string, folder: string, found: string[]): void {
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory() && !LEFT_OUT.has(entry.name)) walk(root, path, found);
    else if (entry.isFile()) found.push(path);
  }
}

/**
 * The files under `places` (folders, or files named themselves; relative to the root, with `/`)
 * whose name matches `names`, relative to the root with `/`, sorted. Links are not followed.
 */
export function repositoryFiles(
  places: readonly string[],
  names: RegExp,
  { root = REPO_ROOT, missing = 'throw' }: RepositoryFilesOptions = {},
): string[] {
  const found: string[] = [];
  for (const place of places) {
    const stats = statSync(join(root, place), { throwIfNoEntry: missing === 'throw' });
    if (stats?.isDirectory()) walk(root, place, found);
    else if (stats?.isFile()) found.push(place);
  }
  return found.filter((path) => names.test(path.slice(path.lastIndexOf('/') + 1))).sort();
}

/** The path of the module at `url` (a test's `import.meta.url`), as {@link repositoryFiles} lists it. */
export function repositoryPath(url: string): string {
  return relative(REPO_ROOT, fileURLToPath(url)).split(sep).join('/');
}
