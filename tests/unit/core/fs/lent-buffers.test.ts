import { describe, expect, it } from 'vitest';
import { LentBuffers } from '../../../../electron/core/fs/lent-buffers';
import { ManualClock } from '../../../fakes/manual-clock';

const MIB = 1024 * 1024;

function pool(keptBytes = 24 * MIB, clock = new ManualClock()): LentBuffers {
  return new LentBuffers({ grain: MIB, keptBytes, idleMs: 10_000, clock });
}

describe('LentBuffers', () => {
  it('makes a buffer of the bytes asked for, rounded up to a whole grain, at least one', () => {
    const buffers = pool();
    expect(buffers.take(8 * MIB + 53_694).length).toBe(9 * MIB);
    expect(buffers.take(8 * MIB).length).toBe(8 * MIB);
    expect(buffers.take(148).length).toBe(MIB);
    expect(buffers.take(0).length).toBe(MIB);
    expect(buffers.counters).toEqual({ kept: 0, keptBytes: 0, made: 4 });
  });

  it('lends the smallest kept buffer that holds the bytes, and makes one when none does', () => {
    const buffers = pool();
    const [small, middle, large] = [2, 5, 9].map((mib) => buffers.take(mib * MIB));
    buffers.give([large!, small!, middle!]);
    expect(buffers.take(4 * MIB)).toBe(middle);
    expect(buffers.take(MIB)).toBe(small);
    // Only the 9 MiB one is left: a 10 MiB read needs a new buffer, and leaves that one kept.
    const fresh = buffers.take(10 * MIB);
    expect(fresh.length).toBe(10 * MIB);
    expect(buffers.counters).toEqual({ kept: 1, keptBytes: 9 * MIB, made: 4 });
    expect(buffers.take(9 * MIB)).toBe(large);
  });

  it('keeps the largest given back, up to its bytes in all, and never one buffer twice', () => {
    const buffers = pool(16 * MIB);
    const [a, b, c] = [4, 8, 6].map((mib) => buffers.take(mib * MIB));
    buffers.give([a!, b!, c!, b!]);
    // 8 + 6 fit in 16 MiB; the 4 MiB one would pass it and is dropped.
    expect(buffers.counters).toEqual({ kept: 2, keptBytes: 14 * MIB, made: 3 });
    buffers.give([b!]);
    expect(buffers.counters).toEqual({ kept: 2, keptBytes: 14 * MIB, made: 3 });
    expect(buffers.take(7 * MIB)).toBe(b);
    expect(buffers.take(6 * MIB)).toBe(c);
    expect(buffers.take(MIB)).not.toBe(a);
  });

  it('keeps nothing larger than its bytes in all', () => {
    const buffers = pool(8 * MIB);
    buffers.give([buffers.take(9 * MIB)]);
    expect(buffers.counters).toEqual({ kept: 0, keptBytes: 0, made: 1 });
  });

  it('drops what it keeps after its idle time with none lent or given back', async () => {
    const clock = new ManualClock();
    const buffers = pool(24 * MIB, clock);
    buffers.give([buffers.take(3 * MIB)]);
    await clock.advance(9_999);
    buffers.give([buffers.take(2 * MIB)]);
    await clock.advance(9_999);
    expect(buffers.counters.kept).toBe(1);
    await clock.advance(1);
    expect(buffers.counters).toEqual({ kept: 0, keptBytes: 0, made: 1 });
  });
});
