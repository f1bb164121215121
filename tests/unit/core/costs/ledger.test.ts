/**
 * The ledger's local days and months in a time zone given as a parameter (two zones, one clock
 * change), its totals per unit (as a history sums them), the caps' periods, and its CSV made safe
 * for spreadsheets.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerEntry, LedgerTotals } from '../../../../shared/domain/cost-ledger';
import { csvCell, csvHeader, csvRow } from '../../../../electron/core/costs/ledger-csv';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { makeRecord } from '../history/history-fixtures';
import {
  localDay,
  parseLocalDate,
  periodStart,
} from '../../../../electron/core/costs/local-periods';

const TOKYO = 'Asia/Tokyo';
const NEW_YORK = 'America/New_York';

function entry(
  createdAt: string,
  cost: LedgerEntry['cost'],
  provider: LedgerEntry['provider'] = 'pictor',
): LedgerEntry {
  return {
    localId: `local-${createdAt}`,
    taskId: `task-${createdAt}`,
    provider,
    model: null,
    size: null,
    prompt: `a prompt of ${createdAt}`,
    status: 'completed',
    createdAt: Date.parse(createdAt),
    cost,
    inHistory: true,
  };
}

const usd = (micros: number): LedgerEntry['cost'] => ({
  source: 'reported',
  micros,
  unit: 'USD',
  field: 'usage.cost',
});

describe('local days and periods', () => {
  it('puts one instant on different days in two zones', () => {
    const instant = Date.parse('2026-03-31T20:00:00Z');
    expect(localDay(instant, TOKYO)).toBe('2026-04-01');
    expect(localDay(instant, NEW_YORK)).toBe('2026-03-31');
  });

  it('starts a day and a month at the local midnight, across a clock change', () => {
    // New York moved its clocks on 2026-03-08; Tokyo has no clock change.
    const now = Date.parse('2026-03-08T15:00:00Z');
    expect(new Date(periodStart('day', now, NEW_YORK)).toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
    expect(new Date(periodStart('month', now, NEW_YORK)).toISOString()).toBe(
      '2026-03-01T05:00:00.000Z',
    );
    expect(new Date(periodStart('day', now, TOKYO)).toISOString()).toBe('2026-03-08T15:00:00.000Z');
    expect(new Date(periodStart('month', now, TOKYO)).toISOString()).toBe(
      '2026-02-28T15:00:00.000Z',
    );
    const after = Date.parse('2026-03-09T15:00:00Z');
    expect(new Date(periodStart('day', after, NEW_YORK)).toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
  });

  it('reads a typed date as its local midnight, and refuses one that is not a date', () => {
    expect(parseLocalDate('2026-11-01', TOKYO)).toBe(Date.parse('2026-10-31T15:00:00Z'));
    expect(parseLocalDate('2026-02-30', TOKYO)).toBeUndefined();
    expect(parseLocalDate('yesterday', TOKYO)).toBeUndefined();
  });
});

const entries = [
  entry('2026-03-31T20:00:00Z', usd(40_000)),
  entry(
    '2026-03-31T23:30:00Z',
    { source: 'estimated', micros: 10_000, unit: 'USD', basis: 'image' },
    'fal',
  ),
  entry(
    '2026-04-01T12:00:00Z',
    { source: 'reported', micros: 2_000_000, unit: 'credits', field: 'cost' },
    'bfl',
  ),
  entry('2026-04-01T13:00:00Z', { source: 'not_billed' }),
  entry('2026-04-01T14:00:00Z', { source: 'unknown' }),
];

/** The totals of {@link entries} as the ledger sums them, written to a history as tasks. */
function ledgerTotals(list: readonly LedgerEntry[], timeZone: string): LedgerTotals {
  const store = HistoryStore.open(':memory:');
  try {
    store.putMany(
      list.map((one) =>
        makeRecord({
          localId: one.localId,
          provider: one.provider,
          createdAt: one.createdAt,
          cost: one.cost,
        }),
      ),
    );
    return new CostBook({ history: store, now: () => 0, timeZone }).totals();
  } finally {
    store.close();
  }
}

describe('totals', () => {
  it('sum per unit, never mixing units, with the estimated part apart', () => {
    const totals = ledgerTotals(entries, TOKYO);
    expect(totals.overall).toEqual([
      { unit: 'credits', micros: 2_000_000, estimatedMicros: 0, tasks: 1 },
      { unit: 'USD', micros: 50_000, estimatedMicros: 10_000, tasks: 2 },
    ]);
    expect(totals.byService.map((row) => [row.provider, row.unit, row.micros])).toEqual([
      ['bfl', 'credits', 2_000_000],
      ['fal', 'USD', 10_000],
      ['pictor', 'USD', 40_000],
    ]);
    expect(totals.unknownTasks).toBe(1);
  });

  it('group by the local day and month of the zone given', () => {
    const tokyo = ledgerTotals(entries, TOKYO);
    expect(tokyo.byDay.map((row) => [row.day, row.unit, row.micros])).toEqual([
      ['2026-04-01', 'credits', 2_000_000],
      ['2026-04-01', 'USD', 50_000],
    ]);
    expect(tokyo.byMonth.map((row) => [row.month, row.unit, row.micros])).toEqual([
      ['2026-04', 'credits', 2_000_000],
      ['2026-04', 'USD', 50_000],
    ]);
    const newYork = ledgerTotals(entries, NEW_YORK);
    expect(newYork.byDay.map((row) => [row.day, row.unit, row.micros])).toEqual([
      ['2026-03-31', 'USD', 50_000],
      ['2026-04-01', 'credits', 2_000_000],
    ]);
    expect(newYork.byMonth.map((row) => [row.month, row.unit, row.micros])).toEqual([
      ['2026-03', 'USD', 50_000],
      ['2026-04', 'credits', 2_000_000],
    ]);
  });
});

describe('the CSV', () => {
  it('makes every cell a spreadsheet could run inert', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}HYPERLINK("x")`)).toBe(`"'${start}HYPERLINK(""x"")"`);
    }
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
  });

  it('has a header and one row per task, amounts as exact decimals', () => {
    const hostile = {
      ...entry('2026-04-01T12:00:00Z', usd(40_000)),
      taskId: '=cmd|" /C calc"!A0',
      prompt: '@SUM(1+1)\nand a second line, with a comma',
    };
    const removed = { ...entries[3]!, inHistory: false };
    const csv = csvHeader() + [hostile, removed].map((entry) => csvRow(entry, TOKYO)).join('');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'local_date,created_at,provider,model,prompt,task_id,local_id,status,source,amount,unit,detail,in_history',
    );
    expect(lines[1]).toBe(
      `2026-04-01,2026-04-01T12:00:00.000Z,pictor,,"'@SUM(1+1)\nand a second line, with a comma","'=cmd|"" /C calc""!A0",local-2026-04-01T12:00:00Z,completed,reported,0.04,USD,usage.cost,yes`,
    );
    expect(lines[2]).toMatch(/,not_billed,,,,no$/);
    expect(lines.at(-1)).toBe('');
  });
});
