/**
 * The shared cap (sharedLimiter): at most `slots` works at once, at most `perParty` of one party's,
 * a slot let go handed to the first waiting work whose party has room, a waiting work whose signal
 * aborts taken out of the line. Works here end when the test lets them, so what runs at each step
 * is exact.
 */
import { describe, expect, it } from 'vitest';
import { inTurn, limiter, sharedLimiter } from '../../../../electron/core/base';

/** Works run through `limit`, each held until the test ends it; which run now, by name. */
function works(limit: ReturnType<typeof sharedLimiter>) {
  const running = new Map<string, () => void>();
  const start = (party: string, name: string) => {
    void limit(party, () => new Promise<void>((end) => running.set(name, end))).then(() =>
      running.delete(name),
    );
  };
  /** Ends `name` and lets every turn it hands on start. */
  const end = async (name: string) => {
    running.get(name)?.();
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };
  const now = async () => {
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    return [...running.keys()].sort();
  };
  return { start, end, now };
}

describe('sharedLimiter', () => {
  it('gives one party its share only: another party’s work runs beside a party that never ends', async () => {
    const { start, end, now } = works(sharedLimiter(2, 1));
    start('hung', 'h1');
    start('hung', 'h2');
    start('other', 'o1');
    start('other', 'o2');
    start('third', 't1');
    expect(await now()).toEqual(['h1', 'o1']);
    await end('o1');
    // o2 came first of those whose party has room: t1 waits for the next slot let go.
    expect(await now()).toEqual(['h1', 'o2']);
    await end('o2');
    expect(await now()).toEqual(['h1', 't1']);
    await end('t1');
    expect(await now()).toEqual(['h1']);
    await end('h1');
    expect(await now()).toEqual(['h2']);
  });

  it('holds the total: parties with room wait while every slot is taken', async () => {
    const { start, end, now } = works(sharedLimiter(2, 2));
    start('a', 'a1');
    start('b', 'b1');
    start('c', 'c1');
    start('a', 'a2');
    expect(await now()).toEqual(['a1', 'b1']);
    await end('b1');
    expect(await now()).toEqual(['a1', 'c1']);
    await end('c1');
    expect(await now()).toEqual(['a1', 'a2']);
  });

  it('lets a slot go when its work throws', async () => {
    const limit = sharedLimiter(1, 1);
    await expect(limit('a', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(limit('a', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('refuses a share out of range', () => {
    expect(() => sharedLimiter(2, 0)).toThrow(RangeError);
    expect(() => sharedLimiter(2, 3)).toThrow(RangeError);
  });

  it('takes a waiting work out of the line when its signal aborts, never to run', async () => {
    const limit = limiter(1);
    let holding = () => {};
    const held = limit(() => new Promise<void>((end) => (holding = end)));
    const ran: string[] = [];
    const given = new AbortController();
    const givenUp = limit(() => Promise.resolve(ran.push('given up')), given.signal);
    const after = limit(() => Promise.resolve(ran.push('after')));
    given.abort(new Error('cancelled'));
    // Out of the line at once, while the slot is still held: it waits for nothing.
    await expect(givenUp).rejects.toThrow('cancelled');
    holding();
    await held;
    await after;
    expect(ran).toEqual(['after']);
    // One whose signal was aborted already never runs, even with a slot free.
    await expect(limit(() => Promise.resolve(1), given.signal)).rejects.toThrow('cancelled');
  });
});

describe('inTurn', () => {
  it("answers a wait given up with ifLeft and throws a work's own failure as it is", async () => {
    const limit = limiter(1);
    let holding = () => {};
    const held = limit(() => new Promise<void>((end) => (holding = end)));
    const given = new AbortController();
    const left = inTurn(
      limit,
      () => Promise.resolve('ran'),
      given.signal,
      (reason) => (reason instanceof Error ? `left: ${reason.message}` : 'left'),
    );
    given.abort(new Error('cancelled'));
    expect(await left).toBe('left: cancelled');
    holding();
    await held;
    // A work that ran and failed is not taken for one that left, even once its signal aborted.
    const failing = new AbortController();
    const failed = inTurn(
      limit,
      () => {
        failing.abort(new Error('too late'));
        return Promise.reject(new Error('the work failed'));
      },
      failing.signal,
      () => 'left',
    );
    await expect(failed).rejects.toThrow('the work failed');
    expect(
      await inTurn(
        limit,
        () => Promise.resolve('ran'),
        undefined,
        () => 'left',
      ),
    ).toBe('ran');
  });
});
