/**
 * The deletes of images and removals of tasks asked for and not ended yet (under way, or waiting
 * their turn behind another trash operation), each with the items it names and its own stop
 * signal: an Undo of any of those items stops the delete (trash-operations.ts), which then brings
 * back what it had moved itself, as one step, instead of running on to its end first.
 */

/** What a delete acts on: images (by `localId/index`) or tasks (by local id). */
export type TrashItems = 'images' | 'tasks';

interface Asked {
  readonly items: TrashItems;
  readonly keys: ReadonlySet<string>;
  readonly controller: AbortController;
}

/** One delete asked for: its stop signal (the caller's own included), and its end. */
export interface AskedDelete {
  readonly signal: AbortSignal;
  /** The delete ended (whichever way): an Undo no longer stops it. */
  end(): void;
}

export class AskedDeletes {
  private readonly asked = new Set<Asked>();

  /** Notes a delete of `keys`; `signal` (the caller's: the CLI's Ctrl+C) stops it too. */
  ask(items: TrashItems, keys: Iterable<string>, signal?: AbortSignal): AskedDelete {
    const controller = new AbortController();
    const entry: Asked = { items, keys: new Set(keys), controller };
    this.asked.add(entry);
    const stop = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    return {
      signal: controller.signal,
      end: () => {
        signal?.removeEventListener('abort', stop);
        this.asked.delete(entry);
      },
    };
  }

  /**
   * Stops every delete asked that names any of `keys`, whole (an Undo of part of a delete under
   * way takes all of it back: a delete is one step). Returns every item those deletes named.
   */
  stop(items: TrashItems, keys: ReadonlySet<string>): Set<string> {
    const named = new Set<string>();
    for (const entry of this.asked) {
      if (entry.items !== items || ![...keys].some((key) => entry.keys.has(key))) continue;
      entry.controller.abort();
      for (const key of entry.keys) named.add(key);
    }
    return named;
  }
}
