/**
 * A cap on work in flight: each call runs its work when fewer than `slots` others are running,
 * else waits its turn (arrival order). For work whose memory grows with how many run at once.
 */
export type Limiter = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs at most `slots` of the works given to it at once, the others in arrival order. */
export function limiter(slots: number): Limiter {
  let free = slots;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}
