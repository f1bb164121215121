/**
 * The table `npm run bench` writes to docs/PERFORMANCE.md, from one run or from `--runs N`: with
 * one run a row is written as it was measured; with N each judged figure is the median of its
 * runs, named so with the runs' range, and the verdict is the median's; a row missing from a run
 * (its suite failed, or gave no such row) is said to be, with no median of the runs left.
 */
import { describe, expect, it } from 'vitest';
import {
  combineRuns,
  performanceTable,
  rowsMeasuredAgain,
  type BenchRow,
  type JudgedFigure,
} from '../../support/bench-runs';

const ratio = (value: number): JudgedFigure => ({
  name: 'ratio',
  value,
  unit: '',
  digits: 2,
  bound: { atMost: 1.2 },
});

const startUp = (value: number, extra: Partial<BenchRow> = {}): BenchRow => ({
  row: 'Start-up',
  scenario: 'empty vs 100,000 tasks',
  target: 'ratio ≤ 1.2',
  measured: `${value.toFixed(2)} (details)`,
  pass: value <= 1.2,
  judged: [ratio(value)],
  command: 'npm run bench -- --only renderer',
  ...extra,
});

const bundle = (kb: number): BenchRow => ({
  row: 'Renderer bundle',
  scenario: 'gzip sizes',
  target: '≤ 250 KB gzip',
  measured: `${kb.toFixed(1)} KB gzip`,
  pass: kb <= 250,
  judged: [{ name: 'size', value: kb, unit: ' KB gzip', digits: 1, bound: { atMost: 250 } }],
  command: 'npm run bench -- --only renderer',
});

describe('the bench table from one run', () => {
  it('writes each row as its run measured it, its verdict its own', () => {
    const rows = combineRuns([
      [{ rows: [bundle(236.5), startUp(1.25, { note: 'Runs (ms): 1, 2.' })] }],
      [{ rows: [{ ...bundle(1), row: 'Cold start', pass: null, judged: [] }] }],
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        row: 'Renderer bundle',
        measured: '236.5 KB gzip',
        verdict: 'met',
      }),
      expect.objectContaining({
        row: 'Start-up',
        measured: '1.25 (details)',
        verdict: 'MISSED',
        note: 'Runs (ms): 1, 2.',
      }),
      expect.objectContaining({ row: 'Cold start', verdict: 'reported' }),
    ]);
    expect(performanceTable(rows.slice(0, 1), 'abcd1234')).toBe(
      [
        '| Row | Scenario | Target | Measured | Verdict | Commit | Command |',
        '|---|---|---|---|---|---|---|',
        '| Renderer bundle | gzip sizes | ≤ 250 KB gzip | 236.5 KB gzip | met | abcd1234 | `npm run bench -- --only renderer` |',
      ].join('\n'),
    );
  });

  it('refuses a row whose judged figures say another verdict than its own', () => {
    expect(() => combineRuns([[{ rows: [{ ...startUp(1.25), pass: true }] }]])).toThrow(
      /"Start-up" says met but its judged figures say MISSED: ratio 1.25/,
    );
  });
});

describe('the bench table from three interleaved runs', () => {
  it("gives each judged figure's median with the runs' range, the verdict the median's", () => {
    // The first run misses; the median (1.18) is within the bound.
    const [row] = combineRuns([
      [{ rows: [startUp(1.25)] }, { rows: [startUp(1.1)] }, { rows: [startUp(1.18)] }],
    ]);
    expect(row?.verdict).toBe('met');
    expect(row?.measured).toBe(
      'median of 3 interleaved runs: ratio 1.18 (range 1.10–1.25; runs 1.25, 1.10, 1.18); ' +
        'run 3 (nearest the median of ratio): 1.18 (details)',
    );
    // Two runs of three out of bounds: the median is too.
    const [missed] = combineRuns([
      [{ rows: [startUp(1.25)] }, { rows: [startUp(1.1)] }, { rows: [startUp(1.21)] }],
    ]);
    expect(missed?.verdict).toBe('MISSED');
    expect(missed?.measured).toMatch(
      /^median of 3 interleaved runs: ratio 1\.21 \(range 1\.10–1\.25;/,
    );
  });

  it('takes the median of each figure of a row apart, and the verdict from every median', () => {
    const row = (open: number, p95: number): BenchRow => ({
      ...startUp(1),
      row: 'History list',
      pass: open <= 100 && p95 <= 5,
      judged: [
        { name: 'open', value: open, unit: ' ms', digits: 0, bound: { atMost: 100 } },
        { name: 'p95', value: p95, unit: ' ms', digits: 1, bound: { atMost: 5 } },
      ],
    });
    const [met] = combineRuns([
      [{ rows: [row(90, 6)] }, { rows: [row(120, 4)] }, { rows: [row(95, 5)] }],
    ]);
    expect(met?.measured).toContain('open 95 ms (range 90–120 ms; runs 90, 120, 95); p95 5.0 ms');
    expect(met?.verdict).toBe('met');
    const [missed] = combineRuns([
      [{ rows: [row(90, 6)] }, { rows: [row(120, 4)] }, { rows: [row(95, 5.5)] }],
    ]);
    expect(missed?.verdict).toBe('MISSED');
  });

  it('reports a row with no bound as the median, no verdict', () => {
    const cold = (ms: number): BenchRow => ({
      ...startUp(1),
      row: 'Cold start',
      pass: null,
      judged: [{ name: 'empty', value: ms, unit: ' ms', digits: 0 }],
    });
    const [row] = combineRuns([
      [{ rows: [cold(187)] }, { rows: [cold(250)] }, { rows: [cold(190)] }],
    ]);
    expect(row?.verdict).toBe('reported');
    expect(row?.measured).toMatch(
      /^median of 3 interleaved runs: empty 190 ms \(range 187–250 ms;/,
    );
  });

  it('says a row is missing from a run whose suite failed, and gives no median of the other two', () => {
    const rows = combineRuns([
      [
        { rows: [bundle(236), startUp(1.1)] },
        { failed: 'its process exited 1' },
        { rows: [bundle(237), startUp(1.3)] },
      ],
    ]);
    for (const row of rows) {
      expect(row.verdict).toBe('INCOMPLETE');
      expect(row.measured).toMatch(
        /^no median: the row is missing in run 2 of 3 \(its suite failed: its process exited 1\); run 1: .*; run 3: /,
      );
      expect(row.measured).not.toContain('median of');
    }
  });

  it('says a row is missing from a run that did not give it', () => {
    const [bundleRow, startRow] = combineRuns([
      [
        { rows: [bundle(236), startUp(1.1)] },
        { rows: [bundle(236)] },
        { rows: [bundle(236), startUp(1.1)] },
      ],
    ]);
    expect(bundleRow?.verdict).toBe('met');
    expect(startRow?.verdict).toBe('INCOMPLETE');
    expect(startRow?.measured).toBe(
      'no median: the row is missing in run 2 of 3 (the suite gave no such row); ' +
        'run 1: 1.10 (details); run 3: 1.10 (details)',
    );
  });

  it('says a figure is missing from a run, with no median', () => {
    const [row] = combineRuns([
      [
        { rows: [startUp(1.1)] },
        { rows: [{ ...startUp(1.1), judged: [] }] },
        { rows: [startUp(1.1)] },
      ],
    ]);
    expect(row?.verdict).toBe('INCOMPLETE');
    expect(row?.measured).toMatch(/^no median: ratio is missing in a run; run 1: /);
  });

  it('lists the verdicts of a row that declares no judged figure, their majority its verdict', () => {
    const plain = (pass: boolean): BenchRow => ({ ...startUp(1), pass, judged: [] });
    const [row] = combineRuns([
      [{ rows: [plain(false)] }, { rows: [plain(true)] }, { rows: [plain(true)] }],
    ]);
    expect(row?.verdict).toBe('met');
    expect(row?.measured).toBe(
      "no judged figure declared, so no median; the 3 runs' verdicts MISSED, met, met " +
        '(the verdict is their majority); run 1: 1.00 (details)',
    );
  });

  it('writes a note once when the runs agree, and each run’s when they differ', () => {
    const noted = (note: string) => ({ ...startUp(1.1), note });
    const [same] = combineRuns([
      [{ rows: [noted('a')] }, { rows: [noted('a')] }, { rows: [noted('a')] }],
    ]);
    expect(same?.note).toBe('a');
    const [apart] = combineRuns([
      [{ rows: [noted('a')] }, { rows: [noted('b')] }, { rows: [noted('a')] }],
    ]);
    expect(apart?.note).toBe('Run 1: a Run 2: b Run 3: a');
    // What every run's note says is written once, after each run's own figures.
    const [shared] = combineRuns([
      [
        { rows: [noted('Runs: 1, 2. The page is not polled.')] },
        { rows: [noted('Runs: 3, 4. The page is not polled.')] },
        { rows: [noted('The page is not polled.')] },
      ],
    ]);
    expect(shared?.note).toBe(
      'Run 1: Runs: 1, 2. Run 2: Runs: 3, 4. Run 3: no note of its own. The page is not polled.',
    );
  });
});

describe('rows measured again into the doc (`--only … --write`)', () => {
  const doc = [
    '# Performance',
    '',
    'Measured 2026-12-01 by `npm run bench` at commit aaaa1111.',
    'Each row is a ratio or a count.',
    '',
    'Absolute times are reported, not judged.',
    '',
    performanceTable(
      combineRuns([
        [{ rows: [bundle(240), startUp(1.1, { note: 'Old start-up note.' })] }],
        [{ rows: [{ ...bundle(1), row: 'Cold start', pass: null, judged: [], note: 'Cold.' }] }],
      ]),
      'aaaa1111',
    ),
    '',
    '## Notes',
    '',
    '- **Start-up**: Old start-up note.',
    '- **Cold start**: Cold.',
    '',
  ].join('\n');
  const again = combineRuns([
    [
      { rows: [startUp(1.3), bundle(230)] },
      { rows: [startUp(1.1), bundle(231)] },
      { rows: [startUp(1.15, { note: 'New note.' }), bundle(232)] },
    ],
  ]);
  const written = rowsMeasuredAgain(doc, again, 'bbbb2222', 'Measured again: two rows.');
  const lines = written.split('\n');

  it('replaces each measured row in place, naming its commit, and leaves the others as they were', () => {
    const table = lines.filter((line) => line.startsWith('| ') && !line.startsWith('| Row'));
    expect(table.map((line) => line.split(' | ')[0])).toEqual([
      '| Renderer bundle',
      '| Start-up',
      '| Cold start',
    ]);
    const line = (name: string) =>
      performanceTable(
        again.filter((row) => row.row === name),
        'bbbb2222',
      ).split('\n')[2];
    expect(table[0]).toBe(line('Renderer bundle'));
    expect(table[1]).toBe(line('Start-up'));
    expect(table[1]).toContain('| bbbb2222 |');
    const before = doc.split('\n').find((line) => line.startsWith('| Cold start'));
    expect(table[2]).toBe(before);
  });

  it("says in the header what measured them, after the doc's other measurements", () => {
    expect(lines.slice(0, 6)).toEqual([
      '# Performance',
      '',
      'Measured 2026-12-01 by `npm run bench` at commit aaaa1111.',
      'Measured again: two rows.',
      'Each row is a ratio or a count.',
      '',
    ]);
  });

  it("replaces a measured row's note, drops one it no longer has, keeps the others'", () => {
    const notes = lines.slice(lines.indexOf('## Notes'));
    expect(notes).toEqual([
      '## Notes',
      '',
      '- **Cold start**: Cold.',
      `- **Start-up**: ${again.find((row) => row.row === 'Start-up')?.note ?? ''}`,
      '',
    ]);
    const without = rowsMeasuredAgain(doc, combineRuns([[{ rows: [startUp(1.1)] }]]), 'c', 'M.');
    expect(without).not.toContain('Old start-up note.');
    expect(without).toContain('- **Cold start**: Cold.');
  });

  it('adds a row the table lacks at its end, and refuses a doc with no table', () => {
    const added = rowsMeasuredAgain(
      doc,
      combineRuns([[{ rows: [{ ...bundle(5), row: 'New row' }] }]]),
      'c',
      'M.',
    );
    const table = added
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Row'));
    expect(table.at(-1)).toMatch(/^\| New row \|/);
    expect(table).toHaveLength(4);
    expect(() => rowsMeasuredAgain('# Performance\n', again, 'c', 'M.')).toThrow(/no table/);
  });
});
