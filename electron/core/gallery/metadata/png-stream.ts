/**
 * The PNG edit of png-meta.ts done on the bytes as they stream in, so a download writes the
 * image with its provenance in one pass instead of writing it, reading it back twice (the
 * checksum walk and the copy) and writing it again. The same checks in the same order, the same
 * chunks dropped and inserted: for every input, {@link PngProvenanceStream} gives the bytes
 * planPng's plan gives, or fails where it fails (png-stream.test.ts holds them to each other on
 * valid, damaged and mutated files cut at every size). A failure here is only a reason to take
 * the file path: the caller then runs that one, whose refusal and log are the ones that count.
 */
import { crc32 } from 'node:zlib';
import { ContainerError } from './container';
import {
  KEYWORD_BYTES,
  MAX_CHUNK,
  MAX_CHUNKS,
  REPLACED_KEYWORDS,
  SIGNATURE,
  TEXT_CHUNKS,
  keywordIn,
} from './png-meta';

/**
 * Where Pictor's chunks go in the output: right after the signature and IHDR, which must come
 * first and hold 13 bytes (8 + 12 + 13). Nothing past this is given out before them.
 */
export const INSERTED_AT = 33;

/** What `held` is between parts: one shared empty buffer, never written. */
const NOTHING = Buffer.alloc(0);

/** A pixel chunk's data is left out of the outline. */
const PIXEL_CHUNKS = new Set(['IDAT', 'fdAT']);

/**
 * A pixel chunk as the outline holds it: its type, no data, no checksum (as
 * images/metadata-outline.ts writes it). One shared copy per type, never written.
 */
const EMPTY_PIXEL_CHUNKS = new Map(
  [...PIXEL_CHUNKS].map((type) => {
    const empty = Buffer.alloc(12);
    empty.write(type, 4, 'latin1');
    return [type, empty] as const;
  }),
);

/** Where the stream is: the signature, a chunk's header, its data, its CRC, or past IEND. */
type Stage = 'signature' | 'header' | 'keyword' | 'data' | 'crc' | 'trailer';

/**
 * Takes a PNG's bytes in pieces of any size and gives back the edited file's bytes: the
 * signature, every chunk whose CRC holds except the XMP and summary ones it replaces, Pictor's
 * `inserted` chunks right after IHDR, and whatever follows IEND as it was. Throws a
 * {@link ContainerError} where planPng would.
 */
export class PngProvenanceStream {
  private stage: Stage = 'signature';
  /** Bytes of the part being read (signature, header, keyword head, CRC). */
  private held: Buffer = NOTHING;
  private chunkCount = 0;
  private type = '';
  private length = 0;
  /** Data bytes of the current chunk still to come. */
  private remaining = 0;
  private crc = 0;
  /** Whether the current chunk goes into the output. */
  private keep = true;
  private failed: ContainerError | null = null;
  /** The output's length so far. */
  written = 0;
  /**
   * Whether a chunk went by where Content Credentials could be: a `caBX` store, or an `iTXt`
   * (XMP, which may name a remote store). The only chunks c2pa-detect.ts's PNG walk looks at.
   */
  mayCarryCredentials = false;
  /** Whether a chunk of the input was left out of the output (a replaced XMP or summary). */
  dropped = false;
  /** The output's outline so far (copies), or null: none asked for, or past its bound. */
  private outlineParts: Uint8Array[] | null;
  private outlineLength = 0;

  /**
   * @param outlineMax when given, the output's outline (its bytes but pixel data) is kept as it
   *   goes out, up to this many bytes: {@link outline}
   */
  constructor(
    private readonly inserted: Uint8Array,
    private readonly maxBytes: number,
    private readonly outlineMax?: number,
  ) {
    this.outlineParts = outlineMax === undefined ? null : [];
  }

  /**
   * The whole output's outline (images/metadata-outline.ts: the same bytes its walk reads from the
   * written file, every pixel chunk empty, what follows IEND as it is), made as it went out: the
   * file need not be read again for it. Null unless the stream ended whole within the bound.
   */
  get outline(): Buffer | null {
    if (this.failed || this.stage !== 'trailer' || !this.outlineParts) return null;
    return Buffer.concat(this.outlineParts);
  }

  /** `part` of the output goes into the outline too: a copy (it may be a view of the input). */
  private outlined(part: Uint8Array, copy = true): void {
    if (!this.outlineParts) return;
    this.outlineLength += part.length;
    if (this.outlineLength > (this.outlineMax ?? 0)) this.outlineParts = null;
    else this.outlineParts.push(copy ? Buffer.from(part) : part);
  }

  /** Whether the current chunk's data is pixels (left out of the outline). */
  private get pixels(): boolean {
    return PIXEL_CHUNKS.has(this.type);
  }

  /** The output bytes `piece` completes (views of `piece` where they can be). */
  push(piece: Uint8Array): Uint8Array[] {
    if (this.failed) throw this.failed;
    try {
      const out: Uint8Array[] = [];
      let at = 0;
      while (at < piece.length) at = this.step(piece, at, out);
      for (const part of out) this.written += part.length;
      if (this.written > this.maxBytes) {
        throw new ContainerError('The image is too close to the size limit to take its metadata.');
      }
      return out;
    } catch (error) {
      // What was taken stays the stream's own (heldInput): a part it threw at may be a view.
      this.held = Buffer.from(this.held);
      this.failed =
        error instanceof ContainerError ? error : new ContainerError('The PNG could not be read.');
      throw this.failed;
    }
  }

  /** The length of Pictor's chunks, given out at {@link INSERTED_AT}. */
  get insertedLength(): number {
    return this.inserted.length;
  }

  /**
   * The input taken and not given out yet (a header, a keyword's head or a CRC being read): until
   * a chunk is dropped, the input so far is the output without Pictor's chunks, then these bytes.
   * Never changed after it is returned (the stream holds new bytes in a new buffer).
   */
  get heldInput(): Uint8Array {
    return this.held;
  }

  /** Ends the stream: throws unless it ended after IEND (its trailer may follow). */
  end(): void {
    if (this.failed) throw this.failed;
    if (this.stage !== 'trailer') {
      this.failed = new ContainerError('The image file ends inside its PNG structure.');
      throw this.failed;
    }
  }

  /**
   * Takes up to `wanted` bytes into `held`; the index after what it took. A part that lies whole
   * in `piece` is a view of it, not a copy (a PNG has a header and a CRC per chunk, thousands of
   * chunks in a large image): such a view is given out or let go of before `push` returns, unless
   * the step that took it copies it (a text chunk's header, kept while its keyword comes). A part
   * across pieces is gathered in a buffer of its own.
   */
  private fill(piece: Uint8Array, at: number, wanted: number): number {
    const take = Math.min(wanted - this.held.length, piece.length - at);
    this.held =
      this.held.length === 0 && take === wanted
        ? Buffer.from(piece.buffer, piece.byteOffset + at, take)
        : Buffer.concat([this.held, piece.subarray(at, at + take)]);
    return at + take;
  }

  private step(piece: Uint8Array, at: number, out: Uint8Array[]): number {
    switch (this.stage) {
      case 'signature':
        return this.signature(piece, at, out);
      case 'header':
        return this.header(piece, at, out);
      case 'keyword':
        return this.keyword(piece, at, out);
      case 'data': {
        const take = Math.min(this.remaining, piece.length - at);
        const data = piece.subarray(at, at + take);
        this.crc = crc32(data, this.crc);
        if (this.keep) out.push(data);
        if (this.keep && !this.pixels) this.outlined(data);
        this.remaining -= take;
        if (this.remaining === 0) this.stage = 'crc';
        return at + take;
      }
      case 'crc':
        return this.checksum(piece, at, out);
      case 'trailer':
        out.push(piece.subarray(at));
        this.outlined(piece.subarray(at));
        return piece.length;
    }
  }

  private signature(piece: Uint8Array, at: number, out: Uint8Array[]): number {
    const next = this.fill(piece, at, 8);
    if (this.held.length < 8) return next;
    if (!SIGNATURE.equals(this.held)) {
      throw new ContainerError('The file does not start like a PNG image.');
    }
    out.push(this.held);
    this.outlined(this.held);
    this.held = NOTHING;
    this.stage = 'header';
    return next;
  }

  private header(piece: Uint8Array, at: number, out: Uint8Array[]): number {
    const next = this.fill(piece, at, 8);
    if (this.held.length < 8) return next;
    if (this.chunkCount >= MAX_CHUNKS)
      throw new ContainerError('The PNG image has too many chunks.');
    const length = this.held.readUInt32BE(0);
    if (length > MAX_CHUNK) throw new ContainerError('A PNG chunk declares an impossible length.');
    const held = this.held;
    // Four char codes, not Buffer's toString (its slow path: ~1.5 µs a chunk, ~1,000 an image).
    const type = String.fromCharCode(held[4] ?? 0, held[5] ?? 0, held[6] ?? 0, held[7] ?? 0);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new ContainerError('A PNG chunk has an invalid type.');
    if (this.chunkCount === 0 && (type !== 'IHDR' || length !== 13)) {
      throw new ContainerError('The PNG image does not start with its header chunk.');
    }
    if (type === 'caBX' || type === 'iTXt') this.mayCarryCredentials = true;
    this.type = type;
    this.length = length;
    this.remaining = length;
    this.crc = crc32(this.held.subarray(4, 8));
    this.keep = true;
    // A text chunk's header waits for its keyword (keyword below), in its own copy: the piece it
    // may be a view of is the caller's again once push returns. Any other goes out now.
    if (TEXT_CHUNKS.has(type)) {
      this.held = Buffer.from(this.held);
      this.stage = 'keyword';
      return next;
    }
    out.push(this.held);
    const empty = EMPTY_PIXEL_CHUNKS.get(type);
    if (empty) this.outlined(empty, false);
    else this.outlined(this.held);
    this.held = NOTHING;
    this.stage = length === 0 ? 'crc' : 'data';
    return next;
  }

  /** A text chunk's head: its keyword says whether the chunk is kept; header and head go out together. */
  private keyword(piece: Uint8Array, at: number, out: Uint8Array[]): number {
    const wanted = 8 + Math.min(KEYWORD_BYTES, this.length);
    const next = this.fill(piece, at, wanted);
    if (this.held.length < wanted) return next;
    const head = this.held.subarray(8);
    this.keep = !REPLACED_KEYWORDS.has(keywordIn(head) ?? '');
    if (!this.keep) this.dropped = true;
    this.crc = crc32(head, this.crc);
    this.remaining = this.length - head.length;
    if (this.keep) {
      out.push(this.held);
      this.outlined(this.held);
    }
    this.held = NOTHING;
    this.stage = this.remaining === 0 ? 'crc' : 'data';
    return next;
  }

  private checksum(piece: Uint8Array, at: number, out: Uint8Array[]): number {
    const next = this.fill(piece, at, 4);
    if (this.held.length < 4) return next;
    if (this.crc !== this.held.readUInt32BE(0)) {
      throw new ContainerError(`A PNG ${this.type} chunk fails its checksum.`);
    }
    if (this.keep) out.push(this.held);
    if (this.keep && !this.pixels) this.outlined(this.held);
    this.held = NOTHING;
    this.chunkCount += 1;
    if (this.type === 'IHDR') {
      out.push(this.inserted);
      this.outlined(this.inserted, false);
    }
    this.stage = this.type === 'IEND' ? 'trailer' : 'header';
    return next;
  }
}
