/**
 * Reads an image's container structure a range at a time, so a file of any size is walked with
 * a bounded amount of memory: a window of {@link WINDOW_BYTES} is kept of the file, and the
 * walkers ask for small ranges inside it (chunk and segment headers, a keyword, a bitstream's
 * first bytes). Files are read through a handle Pictor opened itself; bytes in memory (tests,
 * small buffers) through the same interface.
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes read from a file at a time, and the most a walker holds of it. */
export const WINDOW_BYTES = 256 * 1024;

/** Random access to an image's bytes by range. */
export interface RangeReader {
  readonly size: number;
  /**
   * Exactly `length` bytes from `offset`, or `null` when they are not all in the file. The bytes
   * may be a view of the reader's window: valid until the next call (copy what is kept longer).
   */
  bytes(offset: number, length: number): Promise<Uint8Array | null>;
}

export function bufferReader(bytes: Uint8Array): RangeReader {
  return {
    size: bytes.length,
    bytes: (offset, length) =>
      Promise.resolve(
        offset >= 0 && length >= 0 && offset + length <= bytes.length
          ? bytes.subarray(offset, offset + length)
          : null,
      ),
  };
}

async function readFully(handle: FileHandle, into: Buffer, offset: number): Promise<number> {
  let filled = 0;
  while (filled < into.length) {
    const { bytesRead } = await handle.read(into, filled, into.length - filled, offset + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * A reader over an open file of `size` bytes that keeps one window of it: walks that go forward
 * (every container walk does) read each part of the file once, in window-sized reads.
 */
export function fileReader(handle: FileHandle, size: number): RangeReader {
  const window = Buffer.allocUnsafe(Math.min(WINDOW_BYTES, Math.max(size, 1)));
  let start = 0;
  let filled = 0;
  return {
    size,
    async bytes(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) return null;
      if (length > window.length) {
        const own = Buffer.allocUnsafe(length);
        return (await readFully(handle, own, offset)) === length ? own : null;
      }
      if (offset < start || offset + length > start + filled) {
        start = offset;
        filled = await readFully(
          handle,
          window.subarray(0, Math.min(window.length, size - offset)),
          offset,
        );
        // A file that shrank after its size was taken: treated as ending here.
        if (length > filled) return null;
      }
      // A view of the window, valid until the next read (see RangeReader.bytes).
      return window.subarray(offset - start, offset - start + length);
    },
  };
}
