/** One row of `npm run bench`: a ratio or count measured in this run, its target and verdict. */
export interface BenchRow {
  /** The row's name in docs/PERFORMANCE.md, e.g. "Poll efficiency". */
  readonly row: string;
  readonly scenario: string;
  /** The target as written, e.g. "≤ 1.05". */
  readonly target: string;
  /** What was measured, with units, e.g. "1.02 (max burst 71 req/s, limit 100)". */
  readonly measured: string;
  /** `true` met, `false` missed, `null` reported only (no target). */
  readonly pass: boolean | null;
  /** The command that reproduces just this row. */
  readonly command: string;
  /** Why a row misses and what would close it, or a caveat. */
  readonly note?: string;
}

/** A group of rows measured together (they share set-up). */
export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchRow[]>;
}
