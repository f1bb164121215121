/**
 * What the page receives of tasks kept under an id that carries a key, before the app's sweep
 * (kept-key-sweep.ts) has cleaned them: nothing of the key. The sweep walks a library in slices,
 * and what another process writes reaches it on the change feed's timer, so for a while such a
 * row is in the history as it was kept, and every list, gallery page, task, search result, cost
 * row and task update would hand its id to the page. The one wiring (ipc/wire-app.ts) passes
 * every answer and every event through {@link KeptIdPage}: each row of it (an object with a
 * string `taskId`: a task's record, a gallery item, a cost row) whose id carries a key the app
 * holds goes out with the key scrubbed from every text of that row, as the sweep will leave it
 * (batch/kept-key-id.ts `withTextsScrubbed`: its id, a tracked task's prompt made from the id,
 * the addresses the service gave with it).
 *
 * Rows are judged by their id against the keys, not by how far the sweep has walked: a row the
 * sweep cleaned holds `[redacted]` and goes out as it is, a row no sweep has reached yet (written
 * by another process a moment ago) is caught all the same. The ids of a page are searched at once
 * (secrets `keyCarriers`: a fraction of a millisecond for a page of some hundred tasks); a
 * payload without a task id is not searched at all.
 *
 * The keys' text is known once the vault answers (the app's start does not wait for the
 * keychain). Until then a payload holding a task id waits (events keep their order behind it);
 * when the keys cannot be read, nothing waits any more and nothing is scrubbed, as the log then
 * writes its held lines: the one rule of what leaves the app while the keys are unknown or
 * unreadable, written once in core/secrets/held-key-scrub.ts (a file, the clipboard, a CSV).
 */
import { isJsonObject } from '../../shared/domain/plain-object';
import { withTextsScrubbed } from '../core/batch';
import { keyCarriers, scrubKey } from '../core/secrets';
import type { Disposable } from '../ports/disposable';

/** The rows of `value` (objects with a string `taskId`), outermost first; not under a row. */
function rowsOf(value: unknown, rows: Record<string, unknown>[]): void {
  if (Array.isArray(value)) {
    for (const item of value) rowsOf(item, rows);
  } else if (isJsonObject(value)) {
    if (typeof value['taskId'] === 'string') rows.push(value);
    else for (const item of Object.values(value)) rowsOf(item, rows);
  }
}

/** `value` with each of `carriers` scrubbed whole; what holds none is the same object. */
function withRowsScrubbed(
  value: unknown,
  carriers: ReadonlySet<object>,
  keys: readonly string[],
): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => withRowsScrubbed(item, carriers, keys));
    return items.some((item, n) => item !== value[n]) ? items : value;
  }
  if (!isJsonObject(value)) return value;
  if (carriers.has(value)) return withTextsScrubbed(value, (text) => scrubKey(text, keys));
  const entries = Object.entries(value);
  const changed = entries.map(([name, item]) => [name, withRowsScrubbed(item, carriers, keys)]);
  return changed.some(([, item], n) => item !== entries[n]?.[1])
    ? Object.fromEntries(changed)
    : value;
}

export class KeptIdPage {
  /** The keys held (`null`: not read yet). */
  #keys: readonly string[] | null = null;
  readonly #known: Promise<void>;
  #resolve: () => void = () => undefined;

  constructor() {
    this.#known = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Every payload from now on is read against `keys` (each change of a key sets them again). */
  setKeys(keys: readonly string[]): void {
    this.#keys = [...keys];
    this.#resolve();
  }

  /**
   * The keys held, once known (none when they cannot be read): what the gallery protocol judges
   * the page's images by (protocol/held-key-file.ts), so they wait as the page's answers do.
   */
  heldKeys(): readonly string[] | Promise<readonly string[]> {
    return this.#keys ?? this.#known.then(() => this.#keys ?? []);
  }

  /** The keys could not be read: what waits goes out, and what comes is not searched. */
  release(): void {
    if (this.#keys === null) this.setKeys([]);
  }

  /**
   * `value` with every row whose id carries a held key scrubbed (a copy; `value` is not changed),
   * or `value` itself when none does. Waits for the keys while they are unread and `value` holds a
   * task id.
   */
  scrub<T>(value: T): T | Promise<T> {
    const rows: Record<string, unknown>[] = [];
    rowsOf(value, rows);
    if (rows.length === 0) return value;
    const keys = this.#keys;
    if (keys === null) return this.#known.then(() => this.scrub(value));
    if (keys.length === 0) return value;
    const found = keyCarriers(
      rows.map((row) => row['taskId'] as string),
      keys,
    );
    if (found.length === 0) return value;
    const carriers = new Set<object>(found.flatMap((at): object[] => rows.slice(at, at + 1)));
    return withRowsScrubbed(value, carriers, keys) as T;
  }

  /** `handlers` (the wiring's, by channel), each answer scrubbed before the bridge parses it. */
  answers<H extends object>(handlers: H): H {
    type Handler = (...args: unknown[]) => unknown;
    const entries = Object.entries(handlers as Record<string, Handler>).map(
      ([channel, handler]) => [
        channel,
        async (...args: unknown[]) => this.scrub(await handler(...args)),
      ],
    );
    return Object.fromEntries(entries) as H;
  }

  /**
   * Gives this guard the keys' text from `keys` now and at each change of a key (the vault may
   * answer late: the app's start does not wait for the keychain); when they cannot be read,
   * {@link release}. A read that ends after a later one is dropped.
   */
  follow(keys: {
    readableKeys(): Promise<string[]>;
    onChange(listener: () => void): Disposable;
  }): Disposable {
    let reads = 0;
    const read = async (): Promise<void> => {
      const mine = ++reads;
      try {
        const text = await keys.readableKeys();
        if (mine === reads) this.setKeys(text);
      } catch {
        // The log is told the same way, and says so (AppRuntime.redactKeyIn).
        this.release();
      }
    };
    const changes = keys.onChange(() => void read());
    void read();
    return changes;
  }

  /** `emit` (the bridge's), each payload scrubbed first, sent in the order they were emitted. */
  emitter<E extends (channel: never, payload: never) => void>(emit: E): E {
    const send = emit as unknown as (channel: unknown, payload: unknown) => void;
    let queue: Promise<void> | null = null;
    const scrubbed = (channel: unknown, payload: unknown): void => {
      if (queue === null) {
        const out = this.scrub(payload);
        if (!(out instanceof Promise)) return send(channel, out);
        queue = out.then((clean) => send(channel, clean)).catch(() => undefined);
      } else {
        const next = queue.then(async () => send(channel, await this.scrub(payload)));
        queue = next.catch(() => undefined);
      }
      const mine = queue;
      void mine.finally(() => {
        if (queue === mine) queue = null;
      });
    };
    return scrubbed as unknown as E;
  }
}
