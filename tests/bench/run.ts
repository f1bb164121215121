/**
 * `npm run bench`: runs every suite in tests/bench/suites, prints one table and writes it to
 * docs/PERFORMANCE.md with the date, the machine and the command of each row.
 * `npm run bench -- --only engine,history` runs some suites (the doc is then not rewritten):
 * `engine` is poll efficiency and completion to gallery, `download-memory` its own row,
 * `updates` the task messages to the page while 200 tasks poll, `compare` a compare's last
 * target from its completion to its cell shown.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './bench-row';
import { closeAppsBrowser } from '../e2e/harness/chromium-host';
import { CHROMIUM_PATH } from '../e2e/harness/host';

/** Why the rows judge ratios and counts, not times (docs/PERFORMANCE.md's second paragraph). */
const ABSOLUTE_FIGURES =
  "Absolute times and rates are reported, not judged: they follow the machine more than the code. Machines of the same core count differ several-fold in what a page fault costs (each image row reports this machine's, measured by a probe in the same run), and an image page touches far more fresh memory than native sharp (each row gives both counts), so its CPU per image moves with the machine far more than sharp's. A row that must hold on every machine judges what the code controls, measured side by side in one run: a ratio to a control doing the same unavoidable work (native sharp, a plain stream-to-file with SHA-256, the empty history), with the machine's fault cost taken out where fresh memory is much of the cost (`tests/support/fault-cost.ts`), or a count (messages, page faults, polls) against what the work needs.";

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUITES = [
  'engine',
  'download-memory',
  'largest-answer',
  'expiring',
  'images',
  'image-renderer',
  'history',
  'shared-history',
  'cli-start',
  'triage',
  'costs',
  'main-stall',
  'renderer',
  'ui',
  'updates',
  'compare',
  'gallery',
  'keypress',
  'archive',
] as const;

/**
 * The commit the run measured, and whether the tree had changes on top of it: a figure belongs
 * to one commit, so the bench is run from a worktree at a commit (never a tree being edited).
 * Each row of docs/PERFORMANCE.md names it; `performance-rows.test.ts` fails when a row's bench
 * code changed after it.
 */
function measuredCommit(): { readonly hash: string; readonly changed: boolean } | null {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    const hash = git('rev-parse', '--short=8', 'HEAD').trim();
    const changed = git('status', '--porcelain', '--untracked-files=no').trim() !== '';
    return { hash, changed };
  } catch {
    return null;
  }
}

/** The commit as the doc's header says it. */
function commitText(commit: ReturnType<typeof measuredCommit>): string {
  if (!commit) return 'no git commit';
  return commit.changed
    ? `commit ${commit.hash} with uncommitted changes`
    : `commit ${commit.hash}`;
}

/** A row's Commit cell: the hash alone, which the doc's test reads (a changed tree says so). */
function commitCell(commit: ReturnType<typeof measuredCommit>): string {
  if (!commit) return 'none';
  return commit.changed ? `${commit.hash} with uncommitted changes` : commit.hash;
}

const load = (): string => (loadavg()[0] ?? 0).toFixed(2);

function chromiumVersion(): string {
  try {
    // Debian's launcher script prints shell noise on stderr; only stdout is the version.
    return execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'not found';
  }
}

/** `--only a,b` or `--only=a,b`; every suite when absent. */
function selectedSuites(args: readonly string[]): Set<string> {
  const index = args.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (index === -1) return new Set(SUITES);
  const arg = args[index] ?? '';
  const list = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[index + 1] ?? '');
  const wanted = new Set(list.split(',').filter(Boolean));
  // A name no suite has would measure nothing and still look like a run: refused.
  const unknown = [...wanted].filter((name) => !(SUITES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`No bench suite ${unknown.join(', ')}; the suites: ${SUITES.join(', ')}.`);
  }
  return wanted;
}

function verdict(pass: boolean | null): string {
  return pass === null ? 'reported' : pass ? 'met' : 'MISSED';
}

function table(rows: readonly BenchRow[], commit: string): string {
  const lines = [
    '| Row | Scenario | Target | Measured | Verdict | Commit | Command |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.row} | ${r.scenario} | ${r.target} | ${r.measured} | ${verdict(r.pass)} | ${commit} | \`${r.command}\` |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const wanted = selectedSuites(process.argv.slice(2));
  const rows: BenchRow[] = [];
  const started = Date.now();
  const loadAtStart = load();
  for (const name of SUITES) {
    if (!wanted.has(name)) continue;
    const module = (await import(`./suites/${name}.ts`)) as { suite: BenchSuite };
    console.error(`bench: ${name}…`);
    const suiteStart = Date.now();
    rows.push(...(await module.suite.run()));
    console.error(`bench: ${name} done in ${((Date.now() - suiteStart) / 1000).toFixed(0)} s`);
  }
  const loadAtEnd = load();
  const machine = `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${chromiumVersion()}`;
  const commit = measuredCommit();
  const output = table(rows, commitCell(commit));
  console.log(output);
  const notes = rows.filter((r) => r.note).map((r) => `- **${r.row}**: ${r.note}`);
  // A partial run writes no doc: its notes (how a figure splits) are printed with its table.
  if (wanted.size !== SUITES.length && notes.length > 0) console.log(['', ...notes].join('\n'));
  if (wanted.size === SUITES.length) {
    const doc = [
      '# Performance',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` (${((Date.now() - started) / 60_000).toFixed(1)} min) at ${commitText(commit)} ` +
        `(load average ${loadAtStart} at the start, ${loadAtEnd} at the end) on ${machine}.`,
      'Each row is a ratio or a count measured in the same run, through the same code paths as the app',
      '(the real history store, engine, downloader, renderer bundle). Timings vary with the machine; ratios hold.',
      '',
      ABSOLUTE_FIGURES,
      '',
      output,
      '',
      ...(notes.length > 0 ? ['## Notes', '', ...notes, ''] : []),
    ].join('\n');
    writeFileSync(`${ROOT}docs/PERFORMANCE.md`, doc);
    console.error('bench: wrote docs/PERFORMANCE.md');
  }
  const missed = rows.filter((r) => r.pass === false).length;
  console.error(`bench: ${rows.length} rows, ${missed} missed`);
}

try {
  await main();
} finally {
  // The suites that start the app share one Chromium per process, which would keep the run alive.
  await closeAppsBrowser();
}
