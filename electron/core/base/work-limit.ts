/**
 * A cap on work in flight: each call runs its work when fewer than `slots` others are running,
 * else waits its turn (arrival order). For work whose memory grows with how many run at once.
 * A work whose `signal` aborts while it waits leaves the line at once and never runs (see
 * {@link sharedLimiter}).
 */
export type Limiter = <T>(work: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/** Runs at most `slots` of the works given to it at once, the others in arrival order. */
export function limiter(slots: number): Limiter {
  // One party holding every slot: the shared cap's own queue, not a second one.
  const shared = sharedLimiter(slots, slots);
  return (work, signal) => shared('', work, signal);
}

/**
 * A cap shared by several parties (the services a task is sent to): `party`'s work runs when
 * fewer than `slots` works run in all and fewer than `perParty` of that party's, else waits.
 */
export type SharedLimiter = <T>(
  party: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

/** What a work given up rejects with: its signal's reason when that is an Error. */
function givenUp(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('Aborted.');
}

/**
 * Runs at most `slots` works at once, at most `perParty` of one party's: a party whose works
 * never end (a service that never answers) holds its own share, never the others'. A slot let go
 * goes to the first waiting work, in arrival order, whose party has room. A work whose `signal`
 * aborts while it waits (an agent's call the agent cancelled) is taken out of the line at once
 * and rejects with the signal's reason: a line of works no one wants, behind slots held for
 * long, would grow with every one given up, and never runs one; a running work is its own to end.
 * @throws RangeError unless 1 ≤ perParty ≤ slots.
 */
export function sharedLimiter(slots: number, perParty: number): SharedLimiter {
  if (!(perParty >= 1 && perParty <= slots)) throw new RangeError('perParty out of range');
  let running = 0;
  const held = new Map<string, number>();
  const waiting: { readonly party: string; readonly start: () => void }[] = [];
  const take = (party: string) => {
    running += 1;
    held.set(party, (held.get(party) ?? 0) + 1);
  };
  const roomFor = (party: string) => running < slots && (held.get(party) ?? 0) < perParty;
  const give = (party: string) => {
    running -= 1;
    const left = (held.get(party) ?? 1) - 1;
    if (left > 0) held.set(party, left);
    else held.delete(party);
    const next = waiting.findIndex((one) => roomFor(one.party));
    if (next < 0) return;
    const [chosen] = waiting.splice(next, 1);
    if (!chosen) return;
    take(chosen.party);
    chosen.start();
  };
  /** Resolves once `party` holds a slot; rejects, out of the line, when `signal` aborts first. */
  const turn = (party: string, signal: AbortSignal | undefined) =>
    new Promise<void>((start, reject) => {
      const leave = () => {
        const at = waiting.indexOf(place);
        if (at >= 0) waiting.splice(at, 1);
        reject(givenUp(signal?.reason));
      };
      const place = {
        party,
        start: () => {
          signal?.removeEventListener('abort', leave);
          start();
        },
      };
      waiting.push(place);
      signal?.addEventListener('abort', leave, { once: true });
    });
  return async (party, work, signal) => {
    if (signal?.aborted) throw givenUp(signal.reason);
    if (roomFor(party)) take(party);
    else await turn(party, signal);
    try {
      return await work();
    } finally {
      give(party);
    }
  };
}

/**
 * Runs `work` under `limit`, telling a wait given up from a work that failed: a work whose
 * `signal` aborted before its turn never ran, and `ifLeft` answers for it (a count of "stopped",
 * the caller's own error); an error of the work itself is thrown as it is.
 */
export async function inTurn<T>(
  limit: Limiter,
  work: () => Promise<T>,
  signal: AbortSignal | undefined,
  ifLeft: (reason: unknown) => T | Promise<T>,
): Promise<T> {
  let ran = false;
  try {
    return await limit(() => {
      ran = true;
      return work();
    }, signal);
  } catch (error) {
    if (ran) throw error;
    return ifLeft(signal?.reason);
  }
}
