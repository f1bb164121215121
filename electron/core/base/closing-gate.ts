/**
 * The core's one "closed" gate (pictor-core.ts): every writer the core owns passes it, so that a
 * close leaves no write behind. Without it, a page's rating still at work as the app quit asked
 * for its sidecar after the engine's stop had written the last ones: the write started after the
 * close, made the task's folder and `.pictor-tmp` in a library being put away, and no one waited
 * for it.
 *
 * Two doors, one close:
 * - {@link ask}: a user's change, from any front (a triage, a delete, an Undo): refused with
 *   "Pictor is closing" from the close's first moment ({@link refuseAsks}); one asked before is
 *   waited for, so the files it asks for are asked while the engine still writes them.
 * - {@link write}: a file the core writes (a task's sidecar, a thumbnail, the templates' copy):
 *   let in until {@link close}, the engine's own last writes at its stop included; refused after.
 *   `close` resolves once every write let in has ended: nothing starts after it, and nothing is
 *   still writing when the close that called it resolves.
 */
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';

/** What an ask or a write gets once the gate refuses it: nothing of it was done. */
function closingRefusal(): UserFacingError {
  return new UserFacingError(sentence('error.library.closing'), { code: 'failed' });
}

/** `work` started, and kept in `under` until it settles. */
function tracked<T>(under: Set<Promise<unknown>>, work: () => Promise<T>): Promise<T> {
  let running: Promise<T>;
  try {
    running = work();
  } catch (error) {
    return Promise.reject(error);
  }
  under.add(running);
  const done = (): void => void under.delete(running);
  running.then(done, done);
  return running;
}

/** Resolves once everything in `under` has settled (ended well or not). */
async function ended(under: Set<Promise<unknown>>): Promise<void> {
  while (under.size > 0) await Promise.allSettled([...under]);
}

export class ClosingGate {
  #asking = true;
  #writing = true;
  readonly #asks = new Set<Promise<unknown>>();
  readonly #writes = new Set<Promise<unknown>>();

  /** Runs a user's change now, unless the close has begun: then it is refused and not run. */
  ask<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#asking) return Promise.reject(closingRefusal());
    return tracked(this.#asks, work);
  }

  /** Runs a file write now, unless the gate has closed: then it is refused and not run. */
  write<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#writing) return Promise.reject(closingRefusal());
    return tracked(this.#writes, work);
  }

  /** Refuses every ask from now on; resolves once those let in before have ended. */
  refuseAsks(): Promise<void> {
    this.#asking = false;
    return ended(this.#asks);
  }

  /**
   * Refuses every ask and every write from now on; resolves once all those let in before have
   * ended.
   */
  async close(): Promise<void> {
    this.#asking = false;
    this.#writing = false;
    await Promise.all([ended(this.#asks), ended(this.#writes)]);
  }
}
