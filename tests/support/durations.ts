/**
 * Per-file durations of a vitest run (its JSON report, test-results/vitest.json) against a
 * committed baseline (tests/durations-baseline.json): the baseline is written from real runs'
 * reports (`writeBaseline`), never by hand, and `.ci/run` prints the slowest files of its run
 * beside it (`slowestReport`), so a file that grew slower shows in every CI log.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { z } from 'zod';

/** What this module reads of vitest's JSON report: each file's path and its start and end. */
const VitestReport = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      startTime: z.number(),
      endTime: z.number(),
    }),
  ),
});

/** The committed baseline: each test file (relative, with `/`) and its duration in ms. */
const Baseline = z.object({
  files: z.record(z.string(), z.number().nonnegative()),
});

export type Durations = ReadonlyMap<string, number>;

export interface SlowRow {
  readonly file: string;
  readonly ms: number;
  /** The file's duration in the baseline; undefined for a file the baseline does not hold. */
  readonly baselineMs: number | undefined;
}

/** The project-relative path of `name` (vitest reports absolute ones), with `/`. */
function relativeTo(root: string, name: string): string {
  const file = isAbsolute(name) ? relative(root, name) : name;
  return file.split(sep).join('/');
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Could not read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Each file's duration (ms, whole) in the vitest JSON report at `file`. */
export function reportDurations(file: string, root: string): Durations {
  const report = VitestReport.parse(readJson(file));
  return new Map(
    report.testResults.map((result) => [
      relativeTo(root, result.name),
      Math.max(0, Math.round(result.endTime - result.startTime)),
    ]),
  );
}

/** The durations in the baseline at `file`. */
export function baselineDurations(file: string): Durations {
  return new Map(Object.entries(Baseline.parse(readJson(file)).files));
}

/** The `count` slowest files of `current`, slowest first, each beside its baseline duration. */
export function slowestRows(current: Durations, baseline: Durations, count: number): SlowRow[] {
  return [...current]
    .sort(([fileA, a], [fileB, b]) => b - a || fileA.localeCompare(fileB))
    .slice(0, count)
    .map(([file, ms]) => ({ file, ms, baselineMs: baseline.get(file) }));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function change(row: SlowRow): string {
  if (row.baselineMs === undefined) return 'not in the baseline';
  const delta = row.ms - row.baselineMs;
  const sign = delta >= 0 ? '+' : '−';
  const percent =
    row.baselineMs > 0 ? ` (${sign}${Math.round((Math.abs(delta) / row.baselineMs) * 100)}%)` : '';
  return `baseline ${seconds(row.baselineMs)}, ${sign}${seconds(Math.abs(delta))}${percent}`;
}

/** One line per row: the duration, the baseline's and the change, then the file. */
export function formatRows(rows: readonly SlowRow[]): string[] {
  return rows.map(
    (row) => `${seconds(row.ms).padStart(8)}  ${change(row).padEnd(36)}  ${row.file}`,
  );
}

/** The report `.ci/run` prints: a heading and the `count` slowest files of the run. */
export function slowestReport(
  reportFile: string,
  baselineFile: string,
  root: string,
  count = 10,
): string[] {
  const baseline = existsSync(baselineFile) ? baselineDurations(baselineFile) : new Map();
  const rows = slowestRows(reportDurations(reportFile, root), baseline, count);
  return [
    `durations: the slowest test files of this run (against ${relativeTo(root, baselineFile)})`,
    ...formatRows(rows),
  ];
}

/**
 * The baseline's text from real runs' reports: a later report's file replaces an earlier one's
 * (a run of a few files after a whole run), and a file that no longer exists under `root` is left
 * out. Keys sorted, so a new baseline's diff shows what changed.
 */
export function baselineText(reportFiles: readonly string[], root: string): string {
  const merged = new Map<string, number>();
  for (const file of reportFiles) {
    for (const [test, ms] of reportDurations(file, root)) merged.set(test, ms);
  }
  const files = Object.fromEntries(
    [...merged]
      .filter(([test]) => existsSync(`${root}/${test}`))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const about =
    'Per-file durations (ms) of real vitest runs, written by `tsx tests/support/durations-cli.ts ' +
    'write` from their JSON reports; never edited by hand. .ci/run prints its slowest files beside them.';
  return `${JSON.stringify({ about, files }, null, 2)}\n`;
}
