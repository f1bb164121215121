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
 *
 * A long change asked before the close (a library move, an import, a rebuild, metadata written
 * into many files) is not waited for whole: it is given {@link closing}, which aborts at the
 * close's first moment, and stops at its next safe point (a move removes what it copied, an
 * import keeps the tasks it finished); the close waits for that stop.
 *
 * {@link askNow} is `ask`'s door for a change made at once, on the caller's turn (a star, a price,
 * a board renamed: one synchronous history write): nothing of it outlives the call, so there is
 * nothing to wait for; it is refused from the same first moment. It belongs at a front's entry
 * (the one place the IPC, the CLI and MCP reach), never inside the engine's own edits: the
 * engine's work, and a change asked before the close (a trash Undo finishing), edit records
 * during the close by design.
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
  readonly #closing = new AbortController();

  /**
   * Aborted (with the refusal as its reason) from the close's first moment: the stop signal of a
   * long change asked before it, so the close waits for its stop, not for its end.
   */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** Runs a user's change now, unless the close has begun: then it is refused and not run. */
  ask<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#asking) return Promise.reject(closingRefusal());
    return tracked(this.#asks, work);
  }

  /**
   * Runs a synchronous user's change now, unless the close has begun: then it throws the refusal
   * and `work` is not run.
   */
  askNow<T>(work: () => T): T {
    if (!this.#asking) throw closingRefusal();
    return work();
  }

  /** Runs a file write now, unless the gate has closed: then it is refused and not run. */
  write<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#writing) return Promise.reject(closingRefusal());
    return tracked(this.#writes, work);
  }

  /** Refuses every ask from now on; resolves once those let in before have ended. */
  refuseAsks(): Promise<void> {
    this.#refuseAsks();
    return ended(this.#asks);
  }

  /**
   * Refuses every ask and every write from now on; resolves once all those let in before have
   * ended.
   */
  async close(): Promise<void> {
    this.#refuseAsks();
    this.#writing = false;
    await Promise.all([ended(this.#asks), ended(this.#writes)]);
  }

  #refuseAsks(): void {
    this.#asking = false;
    if (!this.#closing.signal.aborted) this.#closing.abort(closingRefusal());
  }
}
