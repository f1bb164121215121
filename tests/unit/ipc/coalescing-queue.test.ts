/** The keyed queue behind the page's task batches (electron/ipc/coalescing-queue.ts), on the manual clock. */
import { describe, expect, it } from 'vitest';
import { CoalescingQueue } from '../../../electron/ipc/coalescing-queue';
import { ManualClock } from '../../fakes/manual-clock';

const INTERVAL = 150;

function queue() {
  const clock = new ManualClock();
  const start = clock.now();
  const batches: { at: number; values: string[] }[] = [];
  const q = new CoalescingQueue<string>({
    clock,
    intervalMs: INTERVAL,
    deliver: (values) => batches.push({ at: clock.now() - start, values }),
  });
  return { clock, q, batches };
}

describe('CoalescingQueue', () => {
  it('sends a burst as one batch, each key once with its last value, in order of first appearance', async () => {
    const { clock, q, batches } = queue();
    q.push('a', 'a1');
    q.push('b', 'b1');
    q.push('a', 'a2');
    q.push('c', 'c1');
    q.push('b', 'b2');
    expect(batches).toEqual([]);
    await clock.advance(0);
    expect(batches).toEqual([{ at: 0, values: ['a2', 'b2', 'c1'] }]);
  });

  it('after a quiet interval the first change goes at once; under load a batch per interval', async () => {
    const { clock, q, batches } = queue();
    // A change every 10 ms for 3 s, each of its own key: 300 changes.
    for (let n = 0; n < 300; n += 1) {
      q.push(`task-${n % 50}`, `change-${n}`);
      await clock.advance(10);
    }
    await clock.advance(INTERVAL);
    const times = batches.map((batch) => batch.at);
    expect(times[0]).toBe(0);
    for (let n = 1; n < times.length; n += 1) {
      expect(times[n]! - times[n - 1]!).toBeGreaterThanOrEqual(INTERVAL);
    }
    // At most one batch per interval: 3 s of changes are about 20 batches, never 300.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(3_000 / INTERVAL) + 1);
    // Nothing lost: the last change of every key arrived, last.
    expect(batches.flatMap((batch) => batch.values)).toContain('change-299');
    expect(batches.at(-1)!.values).toContain('change-299');
  });

  it('waits out the interval after a batch, then sends what came meanwhile together', async () => {
    const { clock, q, batches } = queue();
    q.push('a', 'a1');
    await clock.advance(0);
    await clock.advance(40);
    q.push('a', 'a2');
    q.push('b', 'b1');
    await clock.advance(100);
    expect(batches).toHaveLength(1);
    await clock.advance(10);
    expect(batches).toEqual([
      { at: 0, values: ['a1'] },
      { at: INTERVAL, values: ['a2', 'b1'] },
    ]);
  });

  it('flush sends what waits at once; dispose sends it and takes nothing more', async () => {
    const { clock, q, batches } = queue();
    q.push('a', 'a1');
    q.flush();
    expect(batches).toEqual([{ at: 0, values: ['a1'] }]);
    q.push('b', 'b1');
    expect(q.size).toBe(1);
    q.dispose();
    expect(batches.at(-1)).toEqual({ at: 0, values: ['b1'] });
    q.push('c', 'c1');
    await clock.advance(1_000);
    expect(batches).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('sends nothing, and keeps no timer, when nothing waits', async () => {
    const { clock, q, batches } = queue();
    q.flush();
    await clock.advance(1_000);
    expect(batches).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
