/**
 * The rows `npm run bench` writes to docs/PERFORMANCE.md, and how `--runs N` makes one row of N
 * interleaved runs: each judged figure is the median of its runs, the Measured cell names it as
 * the median with the runs' range, and the verdict is the median's. Here (not in tests/bench) so
 * the writer's test can read it: tests import no bench code.
 */
import { median } from './median';

/**
 * One figure a row judges (or reports) in one run, with the bound its target sets. A row's own
 * verdict in a run is every bounded figure within its bound; with several runs, every figure's
 * median within it.
 */
export interface JudgedFigure {
  /** What it is, as the Measured cell names it, e.g. "ratio", "p95 painted". */
  readonly name: string;
  readonly value: number;
  /** Written right after the value, e.g. " ms", " KB gzip", "%", "" for a ratio. */
  readonly unit: string;
  /** Decimals written. */
  readonly digits: number;
  /** The target's bound on it; none when the figure is reported only. */
  readonly bound?:
    { readonly atMost: number } | { readonly below: number } | { readonly atLeast: number };
}

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
  /**
   * The figures the verdict is made of (and those reported beside it): with `--runs N` each is
   * the median of its runs. A row with none gives no median; its runs' verdicts are listed.
   */
  readonly judged: readonly JudgedFigure[];
  /** The command that reproduces just this row. */
  readonly command: string;
  /** Why a row misses and what would close it, or a caveat. */
  readonly note?: string;
}

/** One suite's run: its rows, or why it gave none (the child process failed). */
export type SuiteRun = { readonly rows: readonly BenchRow[] } | { readonly failed: string };

/** A row of the written table: its cells, the verdict as written. */
export interface TableRow {
  readonly row: string;
  readonly scenario: string;
  readonly target: string;
  readonly measured: string;
  /** "met", "MISSED", "reported", or "INCOMPLETE" (a run gave no figure: no median). */
  readonly verdict: string;
  readonly command: string;
  readonly note?: string;
}

const INCOMPLETE = 'INCOMPLETE';

function withinBound(figure: Pick<JudgedFigure, 'value' | 'bound'>): boolean {
  const { bound, value } = figure;
  if (bound === undefined) return true;
  if ('atMost' in bound) return value <= bound.atMost;
  if ('below' in bound) return value < bound.below;
  return value >= bound.atLeast;
}

function verdictOf(pass: boolean | null): string {
  return pass === null ? 'reported' : pass ? 'met' : 'MISSED';
}

/**
 * A row's figures must say what its verdict says: a bounded figure out of bounds in a met row (or
 * every one within in a missed row) is a row whose median would judge something else.
 */
function checked(row: BenchRow): BenchRow {
  const bounded = row.judged.filter((figure) => figure.bound !== undefined);
  if (row.pass === null || row.judged.length === 0) return row;
  if (bounded.length === 0) {
    throw new Error(`Bench row "${row.row}" has a verdict but bounds none of its judged figures.`);
  }
  if (bounded.every(withinBound) !== row.pass) {
    throw new Error(
      `Bench row "${row.row}" says ${verdictOf(row.pass)} but its judged figures say ` +
        `${verdictOf(!row.pass)}: ${bounded.map((f) => `${f.name} ${f.value}`).join(', ')}.`,
    );
  }
  return row;
}

const written = (figure: Pick<JudgedFigure, 'digits'>, value: number) =>
  Number.isFinite(value) ? value.toFixed(figure.digits) : 'n/a';

/** "1.18 (range 1.15–1.20; runs 1.20, 1.15, 1.18)" for one figure over the runs. */
function medianText(first: JudgedFigure, values: readonly number[]): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const runs = values.map((value) => written(first, value)).join(', ');
  return (
    `${first.name} ${written(first, median(values))}${first.unit} ` +
    `(range ${written(first, low)}–${written(first, high)}${first.unit}; runs ${runs})`
  );
}

/**
 * The runs' notes: once when they agree; else each run's own sentences after "Run k:", then the
 * sentences every run's note has, once.
 */
function notesOf(rows: readonly BenchRow[]): string | undefined {
  const notes = rows.map((row) => row.note ?? '');
  if (notes.every((note) => note === '')) return undefined;
  if (notes.every((note) => note === notes[0])) return notes[0];
  const sentences = notes.map((note) => note.split(/(?<=\.) /).filter(Boolean));
  const shared = (sentences[0] ?? []).filter((one) => sentences.every((own) => own.includes(one)));
  const own = sentences.map((list, index) => {
    const left = list.filter((one) => !shared.includes(one)).join(' ');
    return `Run ${index + 1}: ${left === '' ? 'no note of its own.' : left}`;
  });
  return [...own, ...shared].join(' ');
}

/** One row's N runs (a string: the row was missing from that run, and why) as one table row. */
function combined(name: string, runs: readonly (BenchRow | string)[]): TableRow {
  const present = runs.filter((run): run is BenchRow => typeof run !== 'string');
  const first = present[0];
  if (first === undefined) throw new Error(`Bench row "${name}" is in no run.`);
  const base = {
    row: name,
    scenario: first.scenario,
    target: first.target,
    command: first.command,
  };
  const n = runs.length;
  if (n === 1) {
    return { ...base, measured: first.measured, verdict: verdictOf(first.pass), note: first.note };
  }
  const note = notesOf(present);
  const missing = runs.flatMap((run, index) =>
    typeof run === 'string' ? [`run ${index + 1} of ${n} (${run})`] : [],
  );
  const names = first.judged.map((figure) => figure.name);
  const figureMissing = present.flatMap((run) => {
    const own = run.judged.map((figure) => figure.name);
    return names.filter((figure) => !own.includes(figure));
  });
  if (missing.length > 0 || figureMissing.length > 0) {
    const absent = [
      ...missing.map((what) => `the row is missing in ${what}`),
      ...[...new Set(figureMissing)].map((figure) => `${figure} is missing in a run`),
    ];
    const given = runs
      .map((run, index) => (typeof run === 'string' ? null : `run ${index + 1}: ${run.measured}`))
      .filter((text): text is string => text !== null);
    return {
      ...base,
      measured: `no median: ${absent.join('; ')}; ${given.join('; ')}`,
      verdict: INCOMPLETE,
      note,
    };
  }
  if (names.length === 0) {
    const verdicts = present.map((run) => verdictOf(run.pass));
    const met = present.filter((run) => run.pass === true).length;
    const judged = present.some((run) => run.pass !== null);
    return {
      ...base,
      measured:
        `no judged figure declared, so no median; the ${n} runs' verdicts ${verdicts.join(', ')}` +
        `${judged ? ' (the verdict is their majority)' : ''}; run 1: ${first.measured}`,
      verdict: judged ? verdictOf(met * 2 > n) : 'reported',
      note,
    };
  }
  const figures = first.judged.map((figure) => {
    const values = present.map(
      (run) => run.judged.find((own) => own.name === figure.name)?.value ?? Number.NaN,
    );
    return { figure, values, value: median(values) };
  });
  // The run nearest the first figure's median gives the details behind the medians.
  const firstValues = figures[0]?.values ?? [];
  const firstMedian = figures[0]?.value ?? Number.NaN;
  const nearest = firstValues.reduce(
    (best, value, index) =>
      Math.abs(value - firstMedian) < Math.abs((firstValues[best] ?? Infinity) - firstMedian)
        ? index
        : best,
    0,
  );
  const bounded = figures.filter(({ figure }) => figure.bound !== undefined);
  const judged = bounded.length > 0 && present.some((run) => run.pass !== null);
  const met = bounded.every(({ figure, value }) => withinBound({ value, bound: figure.bound }));
  return {
    ...base,
    measured:
      `median of ${n} interleaved runs: ${figures.map(({ figure, values }) => medianText(figure, values)).join('; ')}; ` +
      `run ${nearest + 1} (nearest the median of ${first.judged[0]?.name ?? ''}): ${present[nearest]?.measured ?? ''}`,
    verdict: judged ? verdictOf(met) : 'reported',
    note,
  };
}

/**
 * The table's rows from each suite's runs (`runs[suite][run]`): a row per name, in the order the
 * suites and their first runs gave them. With one run a row is written as its run measured it.
 */
export function combineRuns(runs: readonly (readonly SuiteRun[])[]): TableRow[] {
  const table: TableRow[] = [];
  for (const suiteRuns of runs) {
    const names: string[] = [];
    for (const run of suiteRuns) {
      for (const row of 'rows' in run ? run.rows : []) {
        checked(row);
        if (!names.includes(row.row)) names.push(row.row);
      }
    }
    for (const name of names) {
      const rowRuns = suiteRuns.map((run) =>
        'failed' in run
          ? `its suite failed: ${run.failed}`
          : (run.rows.find((row) => row.row === name) ?? 'the suite gave no such row'),
      );
      table.push(combined(name, rowRuns));
    }
  }
  return table;
}

/** The Markdown table, each row naming the commit it was measured at. */
export function performanceTable(rows: readonly TableRow[], commit: string): string {
  const lines = [
    '| Row | Scenario | Target | Measured | Verdict | Commit | Command |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.row} | ${r.scenario} | ${r.target} | ${r.measured} | ${r.verdict} | ${commit} | \`${r.command}\` |`,
    ),
  ];
  return lines.join('\n');
}

/** The row a table line is of: its first cell. */
function rowNameOf(line: string): string {
  return line.slice(2, line.indexOf(' | ', 2));
}

/**
 * docs/PERFORMANCE.md with `rows` measured again (`npm run bench -- --only … --write`), the rest
 * as it was: each row replaces the table's line of its name (a row the table lacks joins its end),
 * its note replaces the row's old one under "## Notes" (a row with none drops the old one), and
 * `measuredBy`, the sentence saying what measured them, when and where, joins the header after its
 * other "Measured …" sentences. A doc with no table is refused: there is nothing to measure again.
 */
export function rowsMeasuredAgain(
  doc: string,
  rows: readonly TableRow[],
  commit: string,
  measuredBy: string,
): string {
  const lines = doc.split('\n');
  const first = lines.findIndex((line) => line.startsWith('| Row |'));
  if (first === -1) throw new Error('docs/PERFORMANCE.md has no table to measure rows again in.');
  let last = first + 1;
  while (lines[last + 1]?.startsWith('| ')) last += 1;
  const table = lines.slice(first + 2, last + 1);
  const written = performanceTable(rows, commit).split('\n').slice(2);
  rows.forEach((row, index) => {
    const at = table.findIndex((line) => rowNameOf(line) === row.row);
    const line = written[index] ?? '';
    if (at === -1) table.push(line);
    else table[at] = line;
  });
  const head = lines.slice(0, first);
  const measured = head.findLastIndex((line) => line.startsWith('Measured '));
  head.splice(measured === -1 ? 1 : measured + 1, 0, measuredBy);
  const rest = lines.slice(last + 1);
  const remeasured = new Set(rows.map((row) => row.row));
  const heading = rest.indexOf('## Notes');
  const sectionEnd = (from: number) => {
    const next = rest.findIndex((line, index) => index > from && line.startsWith('## '));
    return next === -1 ? rest.length : next;
  };
  const before = heading === -1 ? rest : rest.slice(0, heading);
  const after = heading === -1 ? [] : rest.slice(sectionEnd(heading));
  const kept = (heading === -1 ? [] : rest.slice(heading + 1, sectionEnd(heading))).filter(
    (line) => line.startsWith('- **') && !remeasured.has(line.slice(4, line.indexOf('**: '))),
  );
  const notes = [
    ...kept,
    ...rows.flatMap((row) => (row.note ? [`- **${row.row}**: ${row.note}`] : [])),
  ];
  const section = notes.length > 0 ? ['## Notes', '', ...notes, ''] : [];
  while (before.length > 0 && before[before.length - 1] === '') before.pop();
  return [...head, ...lines.slice(first, first + 2), ...table, ...before, '', ...section, ...after]
    .join('\n')
    .replace(/\n+$/, '\n');
}
