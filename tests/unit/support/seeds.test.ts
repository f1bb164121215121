import { describe, expect, it } from 'vitest';
import { seedsToRun } from '../../support/seeds';

describe('the seeds a randomised test runs', () => {
  it('are its fixed seeds when none is asked for', () => {
    expect(seedsToRun(undefined, [300_456_596, 945_370_432])).toEqual([300_456_596, 945_370_432]);
    expect(seedsToRun('', [28_028])).toEqual([28_028]);
  });

  it('are the one asked for, alone, to replay it', () => {
    expect(seedsToRun('715608504', [1, 2, 3])).toEqual([715_608_504]);
  });

  it('are one drawn at random when asked for random, a new one each time', () => {
    const drawn = Array.from({ length: 5 }, () => seedsToRun('random', [1, 2]));
    for (const seeds of drawn) {
      expect(seeds).toHaveLength(1);
      expect(Number.isSafeInteger(seeds[0])).toBe(true);
    }
    expect(new Set(drawn.map(([seed]) => seed)).size).toBeGreaterThan(1);
  });

  it('refuse what is neither a whole number nor random, instead of running seed NaN', () => {
    for (const asked of ['randum', '1.5', 'NaN', '12abc'])
      expect(() => seedsToRun(asked, [1]), asked).toThrow('A seed is a whole number or random.');
  });
});
