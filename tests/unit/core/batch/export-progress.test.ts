/**
 * An export's progress for the page: about fifty reports whatever the selection's size, each
 * after the image it counts, and always the last one (which ends the progress line).
 */
import { describe, expect, it } from 'vitest';
import { exportProgressTo } from '../../../../electron/core/batch/export-images';

function reportsFor(total: number): { done: number; total: number }[] {
  const sent: { done: number; total: number }[] = [];
  const report = exportProgressTo((progress) => sent.push(progress));
  for (let done = 1; done <= total; done += 1) report(done, total);
  return sent;
}

describe('an export’s progress reports', () => {
  it('are every image for a few, about fifty for many, and always the last', () => {
    expect(reportsFor(3)).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
    const many = reportsFor(1_000);
    expect(many.length).toBeLessThanOrEqual(51);
    expect(many.length).toBeGreaterThanOrEqual(40);
    expect(many.at(-1)).toEqual({ done: 1_000, total: 1_000 });
    const odd = reportsFor(101);
    expect(odd.at(-1)).toEqual({ done: 101, total: 101 });
    expect(odd.every(({ done }, n) => n === 0 || done > odd[n - 1]!.done)).toBe(true);
  });
});
