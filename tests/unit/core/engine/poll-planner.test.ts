import { describe, expect, it } from 'vitest';
import { PollPlanner } from '../../../../electron/core/engine/poll-planner';
import { backoffDelay } from '../../../../electron/core/engine/backoff';
import { maxInWindow } from '../../../support/bursts';

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

  it('places polls at whole milliseconds, even where the slots do not divide the interval', () => {
    // 200 ms in 30 slots is 6.67 ms a slot: a clock moved to such a time would stamp records with
    // a fraction, which the history's schema refuses (the task then never leaves `submitting`).
    for (const interval of [200, 1_000, 3_000, 7_001]) {
      const planner = new PollPlanner(interval, 30);
      const times = Array.from({ length: 60 }, (_, i) => planner.place(`t${i}`, 10_000));
      expect(
        times.filter((time) => !Number.isInteger(time)),
        `${interval} ms`,
      ).toEqual([]);
      expect(Math.max(...times)).toBeLessThan(10_000 + interval);
      expect(new Set(times).size, `${interval} ms: every slot its own time`).toBe(30);
    }
  });

  it('spreads any task count over the cycle: no third of the interval holds more than 1.5× its share', () => {
    const interval = 3_000;
    for (let tasks = 1; tasks <= 120; tasks += 1) {
      const limit = Math.ceil((tasks / 3) * 1.5);
      const keys = Array.from({ length: tasks }, (_, i) => `t${i}`);
      const planner = new PollPlanner(interval, 30);
      const atOnce = keys.map((key) => planner.place(key, 10_400));
      expect(maxInWindow(atOnce, interval / 3), `${tasks} placed at once`).toBeLessThanOrEqual(
        limit,
      );
      const woken = [...planner.placeAll(keys, 50_750).values()];
      expect(maxInWindow(woken, interval / 3), `${tasks} after a wake`).toBeLessThanOrEqual(limit);
      // Timers that fire late re-place tasks one by one, each around the others' old phases.
      const oneByOne = [...keys].reverse().map((key, i) => planner.place(key, 90_100 + i));
      expect(maxInWindow(oneByOne, interval / 3), `${tasks} one by one`).toBeLessThanOrEqual(limit);
      expect(planner.size).toBe(tasks);
    }
  });

  it('also spreads tasks that arrived at scattered times, when they are woken together', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (const tasks of [31, 40, 59, 95, 119]) {
      const planner = new PollPlanner(3_000, 30);
      const keys = Array.from({ length: tasks }, (_, i) => `t${i}`);
      for (const key of keys) planner.place(key, Math.floor(random() * 9_000));
      const woken = [...planner.placeAll(keys, 20_000).values()];
      expect(maxInWindow(woken, 1_000)).toBeLessThanOrEqual(Math.ceil(tasks / 2));
    }
  });

  it('puts 40 tasks at most 14 to a third of the interval (the earliest-slot rule gave 20)', () => {
    const planner = new PollPlanner(3_000, 30);
    const keys = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const times = [...planner.placeAll(keys, 0).values()];
    expect(maxInWindow(times, 1_000)).toBe(14);
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
