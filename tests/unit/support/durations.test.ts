/**
 * The durations report .ci/run prints (tests/support/durations.ts): given a run's vitest JSON
 * report and the committed baseline, the slowest files with their change; and the baseline
 * written from real reports, a later one's files replacing an earlier one's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineText, slowestReport } from '../../support/durations';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const root = tempFolderSync('durations');
afterAll(() => removeFolderSync(root));

/** A vitest JSON report (its real shape, absolute paths) of files that took `ms` each. */
function writeReport(name: string, durations: Record<string, number>): string {
  const testResults = Object.entries(durations).map(([file, ms], index) => ({
    name: join(root, file),
    status: 'passed',
    startTime: 1_700_000_000_000 + index,
    endTime: 1_700_000_000_000 + index + ms,
    assertionResults: [],
  }));
  const file = join(root, name);
  writeFileSync(file, JSON.stringify({ numTotalTests: testResults.length, testResults }));
  return file;
}

function writeBaseline(files: Record<string, number>): string {
  const file = join(root, 'baseline.json');
  writeFileSync(file, JSON.stringify({ about: 'a run', files }));
  return file;
}

describe('the slowest files against the baseline', () => {
  it('lists the slowest first, each with its baseline and change; a new file says so', () => {
    const durations: Record<string, number> = { 'tests/unit/new.test.ts': 30_000 };
    for (let i = 0; i < 12; i += 1) durations[`tests/unit/f${String(i)}.test.ts`] = 1_000 * i;
    const report = writeReport('run.json', durations);
    const baseline = writeBaseline({
      'tests/unit/f11.test.ts': 10_000,
      'tests/unit/f10.test.ts': 12_500,
      'tests/unit/f9.test.ts': 9_000,
      'tests/unit/gone.test.ts': 99_000,
    });
    const lines = slowestReport(report, baseline, root);
    expect(lines[0]).toBe(
      `durations: the slowest test files of this run (against ${baseline.slice(root.length + 1)})`,
    );
    expect(lines.slice(1).map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['30.0 s', 'not in the baseline', 'tests/unit/new.test.ts'],
      ['11.0 s', 'baseline 10.0 s, +1.0 s (+10%)', 'tests/unit/f11.test.ts'],
      ['10.0 s', 'baseline 12.5 s, −2.5 s (−20%)', 'tests/unit/f10.test.ts'],
      ['9.0 s', 'baseline 9.0 s, +0.0 s (+0%)', 'tests/unit/f9.test.ts'],
      ['8.0 s', 'not in the baseline', 'tests/unit/f8.test.ts'],
      ['7.0 s', 'not in the baseline', 'tests/unit/f7.test.ts'],
      ['6.0 s', 'not in the baseline', 'tests/unit/f6.test.ts'],
      ['5.0 s', 'not in the baseline', 'tests/unit/f5.test.ts'],
      ['4.0 s', 'not in the baseline', 'tests/unit/f4.test.ts'],
      ['3.0 s', 'not in the baseline', 'tests/unit/f3.test.ts'],
    ]);
  });

  it('refuses a report that is not vitest’s, naming the file', () => {
    const report = join(root, 'not-a-report.json');
    writeFileSync(report, JSON.stringify({ testResults: [{ name: 'x' }] }));
    expect(() => slowestReport(report, join(root, 'none.json'), root)).toThrow();
    expect(() => slowestReport(join(root, 'missing.json'), join(root, 'none.json'), root)).toThrow(
      /Could not read .*missing\.json/,
    );
  });
});

describe('the baseline', () => {
  it('takes a later report’s files over an earlier one’s and leaves out files that are gone', () => {
    mkdirSync(join(root, 'tests'), { recursive: true });
    for (const file of ['a.test.ts', 'b.test.ts']) writeFileSync(join(root, 'tests', file), '');
    const whole = writeReport('whole.json', {
      'tests/a.test.ts': 4_000.4,
      'tests/b.test.ts': 2_000,
      'tests/moved-away.test.ts': 1_000,
    });
    const again = writeReport('again.json', { 'tests/b.test.ts': 2_500.6 });
    const written = JSON.parse(baselineText([whole, again], root)) as { files: unknown };
    expect(written.files).toEqual({ 'tests/a.test.ts': 4_000, 'tests/b.test.ts': 2_501 });
  });
});
