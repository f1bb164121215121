import type { BenchRow } from '../support/bench-runs';

/** A row and its judged figures: declared with the writer that combines runs (tests/support). */
export type { BenchRow, JudgedFigure } from '../support/bench-runs';

/** A group of rows measured together (they share set-up). */
export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchRow[]>;
}
