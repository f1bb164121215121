/**
 * A sparse index of positions for the gallery's pages by position (a scrollbar dragged far down a
 * library of millions of images). SQLite's OFFSET steps over every row it skips, so the page at
 * image 1,250,000 costs 1,250 thousand index steps, and a drag that asks for a page at each frame
 * on its way there cost the sum of them all. Here the key of every {@link ANCHOR_SPAN}-th row of
 * the order asked for is kept as it is first walked past; a page then seeks to the anchor before
 * its offset (an index seek) and skips fewer than {@link ANCHOR_SPAN} rows. A drag to the middle
 * walks the rows up to the middle once, and a jump back or to a place already passed walks none.
 *
 * The anchors hold while the library does: any change committed since they were read (by this
 * connection, `total_changes()`; by another, `data_version`) drops them, as does another filter or
 * order. One set is kept: the gallery shows one filter at a time.
 *
 * At a million tasks that first walk is the cost (the rows up to the middle: 0.3 s of main's
 * loop), so the history worker walks an order ahead of any jump and main takes its anchors in
 * ({@link PositionAnchors.hold}, {@link PositionAnchors.adopt}; position-prebuild.ts): keys
 * another connection read stand only when no change was committed by anyone between main's look
 * before the worker's walk and its look after (the same two numbers), so they are the rows main
 * would have walked itself.
 */
import type { SqlValue } from './sqlite-connection';

/** Rows between two anchors. */
export const ANCHOR_SPAN = 4096;

/** A row's place in the order: its task's time and local id, the image's index. */
export type AnchorKey = readonly [createdAt: number, localId: string, idx: number];

/** Where a page at an offset starts: after `after` (or at the start), skipping `skip` rows. */
export interface Seek {
  readonly after: AnchorKey | null;
  readonly skip: number;
}

/** The key of the row `skip` rows past the one after `after` (at the start: null), or null. */
export type StepRow = (after: AnchorKey | null, skip: number) => AnchorKey | null;

/** Reads one value of the connection (`PRAGMA data_version`, `total_changes()`). */
export type ReadNumber = (sql: string, params: SqlValue[]) => number;

/** What main knows of an order when the worker is asked to walk on from there. */
export interface Held {
  readonly id: string;
  /** Which set it is: each time the anchors are dropped, a new one. */
  readonly set: number;
  /** The library's version as main read it (see {@link PositionAnchors.adopt}). */
  readonly stamp: string;
  /** Anchors known; the walk goes on after the last. */
  readonly known: number;
  readonly last: AnchorKey | null;
  /** The order's end was found: nothing left to walk. */
  readonly ended: boolean;
}

/** Anchors walked elsewhere from a {@link Held} on: the next ones, and whether the order ended. */
export interface AnchorChunk {
  readonly keys: readonly AnchorKey[];
  readonly ended: boolean;
  /** When the order ended: how many rows come after the chunk's last key (fewer than a span). */
  readonly tail?: number;
}

export class PositionAnchors {
  private id = '';
  private version = '';
  /** `keys[j]`: the row at position `(j + 1) * ANCHOR_SPAN - 1`. */
  private keys: AnchorKey[] = [];
  /** Whether the walk found the order's end (no anchor past the last one). */
  private ended = false;
  /** Rows after the last anchor, when a walk that found the end counted them. */
  private tail: number | null = null;
  /** Counts the sets: {@link Held.set}. */
  private sets = 0;

  constructor(private readonly readNumber: ReadNumber) {}

  /**
   * Where the page at `offset` of the order `id` (its order, filter and parameters) starts,
   * walking `step` from the last anchor known to the one before `offset` when it is not known yet.
   */
  seek(id: string, offset: number, step: StepRow): Seek {
    const need = Math.floor(Math.max(0, offset) / ANCHOR_SPAN);
    if (need === 0) return { after: null, skip: Math.max(0, offset) };
    this.holdFor(id);
    while (this.keys.length < need && !this.ended) {
      const key = step(this.keys.at(-1) ?? null, ANCHOR_SPAN - 1);
      // The end found here: the rows after the last anchor are not counted (no total).
      if (key === null) this.ended = true;
      else this.keys.push(key);
    }
    const known = Math.min(need, this.keys.length);
    return {
      after: known === 0 ? null : (this.keys[known - 1] ?? null),
      skip: offset - known * ANCHOR_SPAN,
    };
  }

  /** What is known of `id`'s anchors under the library as it is now (another set is dropped). */
  hold(id: string): Held {
    this.holdFor(id);
    return this.held();
  }

  /**
   * Takes in anchors walked by another connection from `from` on; refused (null) when the set is
   * no longer `from`'s (dropped for another order, even one dropped again since) or the library
   * changed since `from` was read. Taken, nothing was committed between the two looks, so the walk
   * saw the rows this connection sees; anchors it walked itself meanwhile are the same rows (the
   * set only grew), and the chunk adds the rest.
   */
  adopt(from: Held, chunk: AnchorChunk): Held | null {
    if (from.set !== this.sets || this.stamp() !== from.stamp) return null;
    this.keys.push(...chunk.keys.slice(this.keys.length - from.known));
    if (chunk.ended) {
      this.ended = true;
      this.tail = chunk.tail ?? null;
    }
    return this.held();
  }

  /**
   * How many rows the order `id` holds, when its anchors are complete under the library as it is
   * now and the walk that found the end counted the rows after the last one; else null. The
   * gallery's count of the filter its pages walk, read without walking the library again.
   */
  total(id: string): number | null {
    if (id !== this.id || !this.ended || this.tail === null) return null;
    if (this.stamp() !== this.version) return null;
    return this.keys.length * ANCHOR_SPAN + this.tail;
  }

  /**
   * Every `step`th anchor of `id` held now (the first after `step` rows' spans), whether or not the
   * library changed since: keys that cut the order into slices of about `step` spans.
   */
  every(id: string, step: number): AnchorKey[] {
    if (id !== this.id) return [];
    return this.keys.filter((_key, n) => (n + 1) % step === 0);
  }

  /** The library's version as this connection sees it: changes with any commit, by anyone. */
  libraryVersion(): string {
    return this.stamp();
  }

  /** Anchors known now (for tests). */
  get size(): number {
    return this.keys.length;
  }

  /** Keeps the anchors when they are of `id` and the library has not changed since; else drops them. */
  private holdFor(id: string): void {
    const version = this.stamp();
    if (id === this.id && version === this.version) return;
    this.id = id;
    this.version = version;
    this.keys = [];
    this.ended = false;
    this.tail = null;
    this.sets += 1;
  }

  private held(): Held {
    const { id, sets: set, version: stamp, keys, ended } = this;
    return { id, set, stamp, known: keys.length, last: keys.at(-1) ?? null, ended };
  }

  /** The library's version on this connection: others' commits, then this one's changes. */
  private stamp(): string {
    return `${this.readNumber('PRAGMA data_version', [])}:${this.readNumber('SELECT total_changes() AS n', [])}`;
  }
}
