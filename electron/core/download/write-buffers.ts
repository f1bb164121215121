/**
 * The buffers a download's body is gathered in before it is written: a few of one size, kept and
 * handed out again, so that a burst of downloads does not allocate (and leave the allocator
 * holding) a fresh buffer for every chunk the network gives. A body's chunks are copied into its
 * buffer and written a buffer at a time: a few large writes per image instead of one awaited
 * write per 16–64 KB chunk.
 *
 * A buffer handed out belongs to one body until it is given back; only what that body put in it
 * (`subarray(0, filled)`) is ever written, so no byte of an earlier body reaches a later one.
 */

/** One buffer's size: an 8 MB image is written in 32 writes. */
export const WRITE_BUFFER_BYTES = 256 * 1024;

/** At most this many kept (as many as the engine downloads at once by default): 4 MiB. */
const KEPT = 16;

export class WriteBuffers {
  private readonly free: Buffer[] = [];

  constructor(
    readonly size = WRITE_BUFFER_BYTES,
    private readonly kept = KEPT,
  ) {}

  /** A buffer for one body: a kept one, or a new one when none is free. */
  take(): Buffer {
    // Its own memory, not Node's shared pool: it is kept and written from for a long time.
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives `buffer` back once nothing reads it any more; beyond the few kept, it is dropped. */
  give(buffer: Buffer): void {
    if (buffer.length !== this.size || this.free.length >= this.kept) return;
    if (this.free.includes(buffer)) return;
    this.free.push(buffer);
  }

  /** How many are kept now (tests). */
  get keptCount(): number {
    return this.free.length;
  }
}

/** The process's buffers for download bodies. */
export const downloadWriteBuffers = new WriteBuffers();

/**
 * Writes all of `bytes` at `file`'s current position: a write that took fewer bytes is
 * continued, and one that took none (a disk that filled up) fails with ENOSPC rather than leaving
 * a short file that looks whole.
 */
export async function writeAll(
  file: {
    write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  },
  bytes: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await file.write(bytes, at, bytes.length - at);
    if (bytesWritten <= 0) {
      throw Object.assign(new Error('No space left on the device.'), { code: 'ENOSPC' });
    }
    at += bytesWritten;
  }
}

/**
 * Writes all of `parts`, in order, at `file`'s current position: one gathered write, and where it
 * took fewer bytes, the rest through {@link writeAll} (so a full disk fails, never cuts short).
 */
export async function writeAllParts(
  file: {
    writev(parts: Uint8Array[]): Promise<{ bytesWritten: number }>;
    write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  },
  parts: readonly Uint8Array[],
): Promise<void> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  if (total === 0) return;
  let skip = (await file.writev([...parts])).bytesWritten;
  if (skip >= total) return;
  for (const part of parts) {
    if (skip >= part.length) {
      skip -= part.length;
      continue;
    }
    await writeAll(file, part.subarray(skip));
    skip = 0;
  }
}
