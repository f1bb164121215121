import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_AFTER_MS,
  waitAmount,
  parseRetryAfter,
} from '../../../../electron/core/service/retry-after';

const NOW = Date.parse('2025-03-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each<[string | null, number | undefined]>([
    [null, undefined],
    ['', undefined],
    ['   ', undefined],
    ['0', 0],
    ['1', 1000],
    [' 30 ', 30_000],
    ['120', 120_000],
    ['3600', MAX_RETRY_AFTER_MS],
    ['3601', MAX_RETRY_AFTER_MS],
    ['99999999999999999999999', MAX_RETRY_AFTER_MS],
    ['-5', undefined],
    ['1.5', undefined],
    ['+5', undefined],
    ['5s', undefined],
    ['soon', undefined],
    ['garbage, 99 Foo 2025', undefined],
    ['2025', 2_025_000],
    ['Sat, 01 Mar 2025 12:00:30 GMT', 30_000],
    ['Saturday, 01-Mar-25 12:01:00 GMT', 60_000],
    ['Sat Mar  1 12:00:10 2025', 10_000],
    ['Sat, 01 Mar 2025 11:00:00 GMT', 0],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
    ['Sun, 01 Mar 2026 12:00:00 GMT', MAX_RETRY_AFTER_MS],
    ['Mon, 99 Foo 2025 99:99:99 GMT', undefined],
  ])('%j → %s', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('never returns a negative or non-finite delay', () => {
    for (const value of ['0', '00000', 'Fri, 31 Dec 1999 23:59:59 GMT', '1e3', 'Infinity', 'NaN']) {
      const result = parseRetryAfter(value, NOW);
      if (result !== undefined) {
        expect(result).toBeGreaterThanOrEqual(0);
        expect(Number.isFinite(result)).toBe(true);
      }
    }
  });
});

describe('waitAmount', () => {
  it.each([
    [0, 'seconds', 1],
    [1000, 'seconds', 1],
    [30_000, 'seconds', 30],
    [89_000, 'seconds', 89],
    [120_000, 'minutes', 2],
    [3_600_000, 'minutes', 60],
  ])('%d ms → %s %d', (ms, unit, amount) => {
    expect(waitAmount(ms)).toEqual({ unit, amount });
  });
});
