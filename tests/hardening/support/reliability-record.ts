/**
 * Figures the hardening suites measured, written as JSON under test-results/reliability so
 * `npm run reliability` (tests/hardening/report.ts) can put them in docs/RELIABILITY.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { SOAK, commandFor } from './scale';
import { REPO_ROOT } from '../../support/source-files';

export const RELIABILITY_DIR = join(REPO_ROOT, 'test-results', 'reliability');

/**
 * What a row says of a figure it does not count (a parser row has no tasks to lose). A row never
 * writes 0 for something it did not count: a published 0 is a count.
 */
export const NOT_MEASURED = 'not measured';
/** A count the row's test made, or {@link NOT_MEASURED}. */
export type Measured = number | typeof NOT_MEASURED;

/** One row of the reliability table, as one suite measured it. */
export interface ReliabilityFigure {
  /** Section of the reliability report: faults, crashes, hostile input, key safety. */
  readonly section: 'faults' | 'crashes' | 'hostile-input' | 'key-safety';
  /** Short name of the row, e.g. "Soak: 200 tasks under random faults". */
  readonly row: string;
  /** Load held, e.g. "200 tasks, 2 images each". */
  readonly load: string;
  /** Faults injected / crashes / inputs tried, with counts, e.g. { '429': 41, reset: 12 }. */
  readonly injected: Readonly<Record<string, number>>;
  /** What was checked and found (counts). */
  readonly outcome: Readonly<Record<string, number | string>>;
  /** Tasks or images the row's work should have kept and did not. */
  readonly lost: Measured;
  /** Work done twice that must happen once (a second submit, a second copy of an image). */
  readonly duplicated: Measured;
  /** What got out that must not (the key in a text, a hostile or temp file left on disk). */
  readonly leaked: Measured;
  /** Test file (relative to the repo root) that measured it. */
  readonly file: string;
}

/** Writes a figure for the report and prints one line so the test output shows it too. */
export function recordReliability(figure: ReliabilityFigure): void {
  const size = SOAK ? 'soak' : 'test';
  const entry = {
    ...figure,
    size,
    command: commandFor(figure.file),
    at: new Date().toISOString(),
    node: process.versions.node,
    machine: `${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${process.platform}`,
  };
  mkdirSync(RELIABILITY_DIR, { recursive: true });
  const name = `${figure.file.replace(/[^a-z0-9]+/gi, '-')}-${figure.row.replace(/[^a-z0-9]+/gi, '-')}`;
  writeFileSync(
    join(RELIABILITY_DIR, `${size}-${name.toLowerCase()}.json`),
    JSON.stringify(entry, null, 2),
  );
  console.log(
    `reliability: ${figure.row} — load ${figure.load}; injected ${JSON.stringify(figure.injected)}; ` +
      `lost ${figure.lost}, duplicated ${figure.duplicated}, leaked ${figure.leaked}`,
  );
}
