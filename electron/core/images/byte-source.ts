/**
 * Bounded reads for the header check (image-header.ts): the parsers ask for small ranges of a
 * file by offset, and a budget caps how many reads and how many bytes one check may cost, so no
 * file, however crafted, makes the check read it whole or loop.
 */
import type { FileHandle } from 'node:fs/promises';

/** Random access to an image's bytes. */
export interface ByteSource {
  /** Total length in bytes. */
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer only at the end of the source). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** The check spent its budget: the file is built to make a parser work without end. */
export class ReadBudgetError extends Error {
  override readonly name = 'ReadBudgetError';
}

/** What one header check may read. */
export interface ReadBudget {
  readonly reads: number;
  readonly bytes: number;
}

/**
 * Enough for every real file: a JPEG's segments before its scan are usually a few dozen (an ICC
 * profile or a C2PA manifest is split in 64 KiB pieces; a signed file may carry a thousand), each
 * two small reads (marker, length), plus one EXIF segment read whole.
 */
export const HEADER_READ_BUDGET: ReadBudget = { reads: 16_384, bytes: 4 * 1024 * 1024 };

/** A source over bytes in memory (tests, small buffers). */
export function bufferSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) =>
      Promise.resolve(bytes.subarray(offset, Math.min(bytes.length, offset + length))),
  };
}

/** A source over an open file of known size (the caller checked it and closes it). */
export function fileSource(handle: FileHandle, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const wanted = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(wanted);
      let filled = 0;
      while (filled < wanted) {
        const { bytesRead } = await handle.read(buffer, filled, wanted - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
  };
}

/**
 * Reads exact ranges within the source's size, counted against a budget. A range that is not
 * wholly inside the source comes back `null` (the file ends inside a structure), never short.
 */
export class BoundedReader {
  private readsSpent = 0;
  private bytesSpent = 0;

  constructor(
    private readonly source: ByteSource,
    private readonly budget: ReadBudget = HEADER_READ_BUDGET,
  ) {}

  get size(): number {
    return this.source.size;
  }

  /** Exactly `length` bytes at `offset`, or `null` when they are not all in the source. */
  async bytes(offset: number, length: number): Promise<Uint8Array | null> {
    if (!Number.isSafeInteger(offset) || offset < 0 || length < 0) return null;
    if (offset + length > this.source.size) return null;
    this.readsSpent += 1;
    this.bytesSpent += length;
    if (this.readsSpent > this.budget.reads || this.bytesSpent > this.budget.bytes) {
      throw new ReadBudgetError('The image header took more reading than any real image needs.');
    }
    const got = await this.source.read(offset, length);
    // A file that shrank after its size was taken: treated as ending here.
    return got.length === length ? got : null;
  }
}

/** Big-endian and little-endian integers of a short byte range (the caller checked its length). */
export const be16 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
export const le16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
export const be32 = (b: Uint8Array, at: number): number => be16(b, at) * 0x10000 + be16(b, at + 2);
export const le32 = (b: Uint8Array, at: number): number => le16(b, at) + le16(b, at + 2) * 0x10000;
export const le24 = (b: Uint8Array, at: number): number => le16(b, at) + (b[at + 2] ?? 0) * 0x10000;

/** Four bytes as Latin-1 text (a chunk type or FourCC). */
export function fourCc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);
}
