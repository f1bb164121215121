/**
 * `npm run bench`: runs every suite in tests/bench/suites, prints one table and writes it to
 * docs/PERFORMANCE.md with the date, the machine and the command of each row.
 * `npm run bench -- --only engine,history` runs some suites (the doc is then not rewritten; with
 * `--write` their rows replace theirs in it, the rest left as measured before, and the header says
 * which rows were measured again, when and at which commit):
 * `engine` is poll efficiency and completion to gallery, `download-memory` its own row,
 * `updates` the task messages to the page while 200 tasks poll, `compare` a compare's last
 * target from its completion to its cell shown.
 * `--runs N` (default 1) runs each selected suite N times, interleaved with the others (A B C A B
 * C …); each row's judged figures are the median of their N runs (tests/support/bench-runs.ts).
 * Every suite run is a fresh child process of this script (`--suite NAME --report FILE`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './bench-row';
import {
  combineRuns,
  performanceTable,
  rowsMeasuredAgain,
  type SuiteRun,
} from '../support/bench-runs';
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

/** How a row of N interleaved runs is written (the doc's header says it once per measurement). */
function mediansSentence(runs: number): string {
  return `Each suite ran ${runs} times, interleaved with the others (every suite once a round, each run a fresh process); each row's judged figures are the median of its ${runs} runs, its Measured cell gives them with the runs' range and the details of the run nearest the median, and its verdict is the median's.`;
}

/** The value of `--name value` or `--name=value`; null when absent. */
function option(args: readonly string[], name: string): string | null {
  const index = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index === -1) return null;
  const arg = args[index] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[index + 1] ?? '');
}

/** `--only a,b` or `--only=a,b`; every suite when absent. */
function selectedSuites(args: readonly string[]): Set<string> {
  const list = option(args, '--only');
  if (list === null) return new Set(SUITES);
  const wanted = new Set(list.split(',').filter(Boolean));
  // A name no suite has would measure nothing and still look like a run: refused.
  const unknown = [...wanted].filter((name) => !(SUITES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`No bench suite ${unknown.join(', ')}; the suites: ${SUITES.join(', ')}.`);
  }
  return wanted;
}

/** `--runs N`: how many times each suite runs, 1 when absent; a whole number from 1. */
function runCount(args: readonly string[]): number {
  const text = option(args, '--runs');
  if (text === null) return 1;
  const runs = Number(text);
  if (!/^\d+$/.test(text) || runs < 1) {
    throw new Error(`--runs takes a whole number of runs from 1, not "${text}".`);
  }
  return runs;
}

/** In a suite's child process: runs the suite and writes its rows to `report` as JSON. */
async function runSuiteChild(name: string, report: string): Promise<void> {
  const module = (await import(`./suites/${name}.ts`)) as { suite: BenchSuite };
  const rows: BenchRow[] = await module.suite.run();
  writeFileSync(report, JSON.stringify(rows));
}

/** One run of a suite in a fresh child process of this script: its rows, or why it gave none. */
async function suiteRun(name: string, dir: string, run: number, runs: number): Promise<SuiteRun> {
  const report = join(dir, `${name}-${run}.json`);
  const which = runs === 1 ? '' : ` (run ${run} of ${runs})`;
  console.error(`bench: ${name}${which}…`);
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--suite', name, '--report', report],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  const took = `${((Date.now() - started) / 1000).toFixed(0)} s`;
  if (code !== 0) {
    console.error(`bench: ${name}${which} failed in ${took}`);
    return { failed: signal ? `its process ended by ${signal}` : `its process exited ${code}` };
  }
  console.error(`bench: ${name}${which} done in ${took}`);
  // JSON writes a figure that is not a number (NaN, a median of nothing) as null.
  const rows = JSON.parse(readFileSync(report, 'utf8'), (key, value: unknown) =>
    key === 'value' && value === null ? Number.NaN : value,
  ) as BenchRow[];
  return { rows };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const child = option(args, '--suite');
  if (child !== null) return runSuiteChild(child, option(args, '--report') ?? '');
  const wanted = selectedSuites(args);
  const runs = runCount(args);
  const names = SUITES.filter((name) => wanted.has(name));
  const results = new Map<string, SuiteRun[]>(names.map((name) => [name, []]));
  const started = Date.now();
  const loadAtStart = load();
  const dir = mkdtempSync(join(tmpdir(), 'pictor-bench-runs-'));
  try {
    // Round after round, each suite once a round: a drift in the machine's load reaches every
    // suite's runs alike.
    for (let run = 1; run <= runs; run += 1) {
      for (const name of names) {
        results.get(name)?.push(await suiteRun(name, dir, run, runs));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const loadAtEnd = load();
  const machine = `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${chromiumVersion()}`;
  const commit = measuredCommit();
  const rows = combineRuns(names.map((name) => results.get(name) ?? []));
  const output = performanceTable(rows, commitCell(commit));
  console.log(output);
  const notes = rows.filter((r) => r.note).map((r) => `- **${r.row}**: ${r.note}`);
  const failed = names.flatMap((name) =>
    (results.get(name) ?? []).flatMap((result, index) =>
      'failed' in result ? [`${name} run ${index + 1}: ${result.failed}`] : [],
    ),
  );
  const everySuite = wanted.size === SUITES.length;
  const write = args.includes('--write');
  // A partial run writes no doc unless asked: its notes (how a figure splits) are printed with
  // its table.
  if (!everySuite && notes.length > 0) console.log(['', ...notes].join('\n'));
  if (failed.length > 0) {
    // A suite that failed leaves its rows unmeasured: the doc is not rewritten over them.
    console.error(
      `bench: suite runs failed (${failed.join('; ')}); docs/PERFORMANCE.md not written`,
    );
    process.exitCode = 1;
  } else if (everySuite) {
    const command = runs === 1 ? '`npm run bench`' : `\`npm run bench -- --runs ${runs}\``;
    const medians = runs === 1 ? [] : [mediansSentence(runs)];
    const doc = [
      '# Performance',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} by ${command} (${((Date.now() - started) / 60_000).toFixed(1)} min) at ${commitText(commit)} ` +
        `(load average ${loadAtStart} at the start, ${loadAtEnd} at the end) on ${machine}.`,
      ...medians,
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
  } else if (write) {
    const command = `\`npm run bench -- --only ${names.join(',')}${runs === 1 ? '' : ` --runs ${runs}`} --write\``;
    const measuredBy =
      `Measured again ${new Date().toISOString().slice(0, 10)}: ${rows.map((r) => r.row).join(', ')}, by ${command} (${((Date.now() - started) / 60_000).toFixed(1)} min) at ${commitText(commit)} ` +
      `(load average ${loadAtStart} at the start, ${loadAtEnd} at the end) on ${machine}.` +
      (runs === 1 ? '' : ` ${mediansSentence(runs)}`);
    const path = `${ROOT}docs/PERFORMANCE.md`;
    const doc = rowsMeasuredAgain(readFileSync(path, 'utf8'), rows, commitCell(commit), measuredBy);
    writeFileSync(path, doc);
    console.error(`bench: wrote ${rows.length} rows into docs/PERFORMANCE.md`);
  }
  const missed = rows.filter((r) => r.verdict === 'MISSED').length;
  const incomplete = rows.filter((r) => r.verdict === 'INCOMPLETE').length;
  console.error(
    `bench: ${rows.length} rows, ${missed} missed${incomplete > 0 ? `, ${incomplete} incomplete` : ''}`,
  );
}

try {
  await main();
} finally {
  // The suites that start the app share one Chromium per process, which would keep the run alive.
  await closeAppsBrowser();
}
