import { describe, expect, it } from 'vitest';
import { PollPlanner } from '../../../../electron/core/engine/poll-planner';
import { backoffDelay } from '../../../../electron/core/engine/backoff';

describe('PollPlanner', () => {
  it('puts a lone task at the earliest time, and spreads many evenly over the interval', () => {
    const planner = new PollPlanner(3_000, 30);
    expect(planner.place('a', 10_000)).toBe(10_000);
    planner.release('a');
    const times = Array.from({ length: 90 }, (_, i) => planner.place(`t${i}`, 10_000));
    expect(Math.min(...times)).toBe(10_000);
    expect(Math.max(...times)).toBeLessThan(13_000);
    const perSlot = new Map<number, number>();
    for (const time of times) perSlot.set(time, (perSlot.get(time) ?? 0) + 1);
    expect([...perSlot.values()].every((count) => count === 3)).toBe(true);
  });

  it('frees a slot when a task is released', () => {
    const planner = new PollPlanner(3_000, 3);
    planner.place('a', 0);
    planner.place('b', 0);
    expect(planner.place('c', 0)).toBe(2_000);
    planner.release('b');
    expect(planner.size).toBe(2);
    expect(planner.place('d', 0)).toBe(1_000);
  });
});

describe('backoffDelay', () => {
  const options = { baseMs: 3_000, maxMs: 60_000, random: () => 0.5 };
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelay(n, options))).toEqual([
      3_000, 6_000, 12_000, 24_000, 48_000, 60_000, 60_000,
    ]);
  });
  it('never goes below Retry-After', () => {
    expect(backoffDelay(1, options, 30_000)).toBeGreaterThanOrEqual(30_000);
    expect(backoffDelay(1, { ...options, random: () => 0 }, 30_000)).toBe(30_000);
  });
  it('jitters within ±20 %', () => {
    expect(backoffDelay(2, { ...options, random: () => 0 })).toBe(4_800);
    expect(backoffDelay(2, { ...options, random: () => 0.999999 })).toBe(7_200);
  });
});
