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

export class PositionAnchors {
  private id = '';
  private version = '';
  /** `keys[j]`: the row at position `(j + 1) * ANCHOR_SPAN - 1`. */
  private keys: AnchorKey[] = [];
  /** Whether the walk found the order's end (no anchor past the last one). */
  private ended = false;

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
      if (key === null) this.ended = true;
      else this.keys.push(key);
    }
    const known = Math.min(need, this.keys.length);
    return {
      after: known === 0 ? null : (this.keys[known - 1] ?? null),
      skip: offset - known * ANCHOR_SPAN,
    };
  }

  /** Anchors known now (for tests). */
  get size(): number {
    return this.keys.length;
  }

  /** Keeps the anchors when they are of `id` and the library has not changed since; else drops them. */
  private holdFor(id: string): void {
    const version = `${this.readNumber('PRAGMA data_version', [])}:${this.readNumber('SELECT total_changes() AS n', [])}`;
    if (id === this.id && version === this.version) return;
    this.id = id;
    this.version = version;
    this.keys = [];
    this.ended = false;
  }
}
