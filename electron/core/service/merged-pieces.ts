/**
 * A body's pieces merged before they are handed on (http-response.ts reads bodies through it: the
 * answer reader posts each piece it is handed to the answer worker, an error status's body is kept
 * on main). A transport hands on pieces as its message gives them (readableBody, under the app's
 * Electron net and the CLI's streamed requests; undici's and node:http's messages give one for each
 * chunk the service framed): an answer sent a byte at a time, a chunked body of one-byte chunks,
 * came as a megabyte of one-byte pieces, each moved to the worker by a message of its own, 7.8–9.7
 * s of the process's CPU for one answer (load 10–15). Now what arrives in one turn of the event
 * loop goes on together: 1.1–1.4 s, of which handing on a million pieces costs the transport itself
 * 0.9–1.4 s (tests/hardening/hostile/answer-byte-pieces.test.ts). readableBody has since read what
 * its message holds when asked (core/fs/readable-body.ts), a socket read's worth a piece, as
 * undici's fetch does; this merge stays the reader's own bound on whatever a transport hands on.
 *
 * A piece of {@link MERGED_BELOW} bytes or more goes on as it came (the transport's chunks do:
 * nothing is copied). Smaller ones are held, and copied into one buffer from the second on; what
 * is held goes on, in order, when a larger piece comes, when {@link MERGED_BYTES} are held, when the
 * body ends, and at the end of the turn they came in (`setImmediate`, after the turn's reads): no
 * piece waits for a timer or for bytes that have not come, so a held wait's event is read in the
 * turn its last byte arrived.
 */
import { clearImmediate, setImmediate } from 'node:timers';

/** The most held before it goes on. */
const MERGED_BYTES = 64 * 1024;
/** A piece this large goes on as it came. */
const MERGED_BELOW = 16 * 1024;

export class MergedPieces {
  readonly #take: (piece: Uint8Array) => boolean;
  readonly #onRefused: () => void;
  /** The one small piece held, as it came (a body of one small piece is never copied). */
  #first: Uint8Array | null = null;
  /** Where the pieces are copied once there are two (kept for the body's next ones). */
  #merged: Uint8Array | null = null;
  #length = 0;
  #turn: NodeJS.Immediate | null = null;
  #refused = false;

  /**
   * `take` gets the pieces merged, in order, and answers false to want no more; `onRefused` is
   * told when it said so at the end of a turn (no read was waiting on it).
   */
  constructor(take: (piece: Uint8Array) => boolean, onRefused: () => void) {
    this.#take = take;
    this.#onRefused = onRefused;
  }

  /** Whether `take` wanted no more. */
  get refused(): boolean {
    return this.#refused;
  }

  /** Takes the next piece; false once `take` wanted no more. */
  add(piece: Uint8Array): boolean {
    if (this.#refused) return false;
    if (piece.byteLength >= MERGED_BELOW) return this.flush() && this.#hand(piece);
    if (piece.byteLength === 0) return true;
    if (this.#length + piece.byteLength > MERGED_BYTES && !this.flush()) return false;
    this.#hold(piece);
    if (this.#length === MERGED_BYTES) return this.flush();
    this.#turn ??= setImmediate(() => {
      this.#turn = null;
      if (!this.flush()) this.#onRefused();
    });
    return true;
  }

  /** Hands on what is held; false once `take` wanted no more. */
  flush(): boolean {
    this.#endTurn();
    if (this.#refused) return false;
    if (this.#length === 0) return true;
    const piece = this.#first ?? this.#merged?.slice(0, this.#length);
    this.#first = null;
    this.#length = 0;
    return piece === undefined || this.#hand(piece);
  }

  /** Lets go of what is held: the body is not read on. */
  drop(): void {
    this.#endTurn();
    this.#first = null;
    this.#merged = null;
    this.#length = 0;
  }

  #hold(piece: Uint8Array): void {
    if (this.#length === 0) {
      this.#first = piece;
      this.#length = piece.byteLength;
      return;
    }
    this.#merged ??= new Uint8Array(MERGED_BYTES);
    if (this.#first) {
      this.#merged.set(this.#first);
      this.#first = null;
    }
    this.#merged.set(piece, this.#length);
    this.#length += piece.byteLength;
  }

  #hand(piece: Uint8Array): boolean {
    if (this.#take(piece)) return true;
    this.#refused = true;
    this.drop();
    return false;
  }

  #endTurn(): void {
    if (this.#turn) clearImmediate(this.#turn);
    this.#turn = null;
  }
}
