/**
 * docs/PERFORMANCE.md says what today's bench measures: each row names the commit it was measured
 * at (its Commit cell), and a row is stale once its bench code changed after that commit: the suite
 * its command runs (tests/bench/suites/<name>.ts) and the bench files that suite imports for their
 * values, followed through tests/bench/. A stale row is measured again (its command, from a
 * worktree at a commit) and its cells replaced. The rows known to be stale are listed below with
 * why; the list may only shrink: a row measured again must leave it.
 *
 * The check reads git's history, so it needs a full clone (.ci/run clones the whole history; the
 * workflow's checkout fetches it all): a commit must be an ancestor of HEAD, which any full clone
 * of HEAD has, unlike a commit only a deleted branch held.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needing, tool } from '../../support/tools';
import { REPO_ROOT } from '../../support/source-files';

const BENCH = join(REPO_ROOT, 'tests/bench');
const FOUND_GIT = tool('git');
/** git, in a git checkout (a source archive has no history to read). */
const GIT = existsSync(join(REPO_ROOT, '.git'))
  ? FOUND_GIT
  : { ...FOUND_GIT, path: null, missing: 'not a git checkout' };

/**
 * Rows whose bench code changed after the commit they were measured at, each to be measured again.
 * Only the whole bench, or each row's own command, run at one commit clears them (a figure from
 * an older suite cannot be carried over by hand).
 */
// Every suite declared its rows' judged figures (BenchRow.judged, for `--runs N`'s medians): each
// row's figures and verdict are computed as before, but its bench code changed, so each row below
// waits to be measured again with `--runs 3` (the whole bench, or its suite's `--only … --write`;
// session 44 measured the download-memory, cli-start, renderer, ui, gallery and keypress rows;
// session 45 the largest-answer, images, image-renderer, history, triage, main-stall, updates,
// compare and archive rows; session 46 the engine, expiring, shared-history and costs rows, the last).
const STALE: readonly string[] = [];

/** One row of the table: its name, the commit it names and the bench suite its command runs. */
interface Row {
  readonly name: string;
  readonly commit: string;
  readonly suite: string;
}

/** The table's rows, read by the header's column names. */
function tableRows(doc: string): Row[] {
  const lines = doc.split('\n').filter((line) => line.startsWith('| '));
  const cells = (line: string) => line.slice(2, -2).split(' | ');
  const header = cells(lines[0] ?? '');
  const at = (name: string) => header.indexOf(name);
  return lines.slice(1).map((line) => {
    const row = cells(line);
    const command = row[at('Command')] ?? '';
    return {
      name: row[at('Row')] ?? '',
      commit: row[at('Commit')] ?? '',
      suite: /--only ([\w-]+)/.exec(command)?.[1] ?? '',
    };
  });
}

/** Static imports and re-exports that carry values: not `import type`, not `import()`. */
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s+)?['"](\.[^'"]+)['"]/gm;

function sourceOf(target: string): string | null {
  const candidates = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

/** The suite's file and every bench file it reaches through value imports, relative to REPO_ROOT. */
function benchFilesOf(suite: string): string[] {
  const start = join(BENCH, 'suites', `${suite}.ts`);
  const reached = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (!existsSync(file)) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const target = sourceOf(resolve(dirname(file), spec ?? ''));
      if (target === null || !target.startsWith(BENCH) || reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  return [...reached].map((file) => relative(REPO_ROOT, file).split('\\').join('/')).sort();
}

function git(...args: string[]): string {
  return execFileSync(GIT.path ?? 'git', args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** Whether git answers `args` without an error (a status, not output). */
function gitSays(...args: string[]): boolean {
  try {
    git(...args);
    return true;
  } catch {
    return false;
  }
}

/** Every commit in HEAD's history, read once (a row's commit must be one of them). */
let history: readonly string[] | null = null;
/** The bench files changed since each commit (to the working tree), read once per commit. */
const benchChangedSince = new Map<string, readonly string[]>();

/**
 * What is wrong with a row's commit, or the bench files changed since it (empty: current). Git is
 * asked once for HEAD's history and once per distinct commit for what changed under tests/bench
 * since it; each row then picks its own suite's files. Three git processes per row (38 rows) passed
 * the test's time limit on a loaded machine.
 */
function staleness(row: Row): string[] {
  if (!/^[0-9a-f]{7,40}$/.test(row.commit)) return [`names no commit ("${row.commit}")`];
  history ??= git('rev-list', 'HEAD').split('\n');
  const full = history.find((hash) => hash.startsWith(row.commit));
  if (full === undefined) {
    return gitSays('rev-parse', '--verify', '--quiet', `${row.commit}^{commit}`)
      ? [`names ${row.commit}, which is not in HEAD's history`]
      : [`names ${row.commit}, which this clone does not have`];
  }
  let changed = benchChangedSince.get(full);
  if (changed === undefined) {
    const names = git('diff', '--name-only', full, '--', relative(REPO_ROOT, BENCH));
    changed = names === '' ? [] : names.split('\n');
    benchChangedSince.set(full, changed);
  }
  const files = new Set(benchFilesOf(row.suite));
  return changed.filter((file) => files.has(file)).map((file) => `${file} changed`);
}

describe.skipIf(!GIT.path)(needing(GIT, 'performance rows against the bench'), () => {
  const rows = tableRows(readFileSync(join(REPO_ROOT, 'docs/PERFORMANCE.md'), 'utf8'));

  it('reads every row of the table, each with a suite of the bench', () => {
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) {
      expect(existsSync(join(BENCH, 'suites', `${row.suite}.ts`)), row.name).toBe(true);
    }
    // The bench code of a row follows its suite's imports: the engine's rows reach its helpers.
    expect(benchFilesOf('engine').length).toBeGreaterThan(1);
  });

  it('has the history it needs to tell a row from its code', () => {
    const shallow = git('rev-parse', '--is-shallow-repository') === 'true';
    expect(shallow, 'a shallow clone: clone with the whole history (fetch-depth: 0)').toBe(false);
  });

  it('measured every row with the bench code of today, but for the listed ones', () => {
    const stale = rows
      .map((row) => ({ name: row.name, why: staleness(row) }))
      .filter((row) => row.why.length > 0);
    const unlisted = stale
      .filter((row) => !STALE.includes(row.name))
      .map((row) => `${row.name}: ${row.why.join(', ')}`);
    expect(unlisted).toEqual([]);
    // A listed row that is current again (measured anew) leaves the list.
    const current = STALE.filter((name) => !stale.some((row) => row.name === name));
    expect(current).toEqual([]);
  });
});
