import { describe, expect, it } from 'vitest';
import { SUBMITS_IN_FLIGHT, SubmitSlots } from '../../../../electron/core/engine/submit-slots';

/** A request that ends when the test says so. */
function held() {
  let end: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { done, end };
}

describe('SubmitSlots', () => {
  it.each([1, 4, 5, 12])(
    'with %s requests, sends at most the limit to one address at once, the rest in order',
    async (count) => {
      const slots = new SubmitSlots();
      const started: number[] = [];
      const requests = Array.from({ length: count }, () => held());
      const sends = requests.map((request, n) =>
        slots.around('https://a.example/', async () => {
          started.push(n);
          await request.done;
        }),
      );
      // Another address is not held up by the first's queue.
      let other = false;
      await slots.around('https://b.example/', async () => void (other = true));
      expect(other).toBe(true);
      const first = Math.min(count, SUBMITS_IN_FLIGHT);
      expect(started).toEqual(Array.from({ length: first }, (_, n) => n));
      expect(slots.inFlight('https://a.example/')).toBe(first);
      for (const [n, request] of requests.entries()) {
        request.end();
        await sends[n];
        expect(slots.inFlight('https://a.example/')).toBeLessThanOrEqual(SUBMITS_IN_FLIGHT);
      }
      expect(started).toEqual(Array.from({ length: count }, (_, n) => n));
      expect(slots.inFlight('https://a.example/')).toBe(0);
    },
  );

  it('frees the slot of a request that failed', async () => {
    const slots = new SubmitSlots(1);
    await expect(slots.around('x', () => Promise.reject(new Error('refused')))).rejects.toThrow();
    await expect(slots.around('x', () => Promise.resolve('sent'))).resolves.toBe('sent');
    expect(slots.inFlight('x')).toBe(0);
  });
});
