/**
 * The served folder's real path (`realpath` of the root as given), asked once for a burst of
 * requests instead of twice for each: a screen of thumbnails is tens of requests within a few
 * hundred milliseconds, and each lookup is a trip through libuv's thread pool that the response
 * waits for. Requests that come while a lookup is on its way share it; its answer is used for
 * {@link ROOT_HELD_MS}, then asked again. The root is trusted as given (open-inside.ts): a root
 * that is a link the user re-points is followed within that time; a folder that does not exist
 * is asked for again on the next request (a gallery created meanwhile is served at once). Every
 * check on what a request names (its real path inside this one, what was opened) is made per
 * request as before.
 */
import type { Clock } from '../../ports/clock';
import { processTimers } from '../../core/base';
import { realRootOf } from '../../core/fs';

/** How long a root's real path is used before it is asked for again. */
export const ROOT_HELD_MS = 1000;

interface Held {
  readonly at: number;
  readonly real: Promise<Buffer | null>;
}

export class RealRoots {
  /** One root: the served folder now (a moved gallery replaces it). */
  private held: { readonly root: string; readonly entry: Held } | null = null;

  constructor(private readonly clock: Pick<Clock, 'now'> = processTimers) {}

  /** `root`'s real path, shared with the requests of the last {@link ROOT_HELD_MS}. */
  of(root: string): Promise<Buffer | null> {
    const now = this.clock.now();
    const held = this.held;
    if (held?.root === root && now - held.entry.at < ROOT_HELD_MS) return held.entry.real;
    const real = realRootOf(root);
    const entry: Held = { at: now, real };
    this.held = { root, entry };
    void real.then((answer) => {
      // Not found is never held: the next request asks again.
      if (answer === null && this.held?.entry === entry) this.held = null;
    });
    return real;
  }
}
