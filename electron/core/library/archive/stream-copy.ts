/**
 * Reading an entry of a source with its bytes counted: whatever size the archive declared, the
 * reader stops one chunk past the limit, and an aborted signal stops it between chunks. Copies go
 * to a new file (`wx`: never over an existing one), are hashed on the way and flushed to disk.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { removeQuietly } from '../../fs';
import { SNIFF_BYTES } from '../../images';
import { throwIfAborted } from './archive-errors';

/** An entry that held more than it may: refused, whatever it declared. */
export class OversizeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`It holds more than the ${maxBytes} bytes allowed.`);
    this.name = 'OversizeError';
  }
}

/**
 * Writing the copy failed: the library's disk (full, read-only, over quota, failing), not the
 * entry being read. Not a reason to refuse the entry: the import stops, and what it added is
 * taken back. `cause` is the file system's error.
 */
export class LibraryWriteError extends Error {
  override readonly name = 'LibraryWriteError';
  constructor(override readonly cause: unknown) {
    super(
      `Writing into the library failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/** Runs a write to the library's disk, its failure a {@link LibraryWriteError}. */
async function toLibrary<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw new LibraryWriteError(error);
  }
}

export interface CopiedFile {
  readonly size: number;
  readonly sha256: string;
  /** The first bytes, to tell the image kind. */
  readonly head: Buffer;
}

/**
 * `stream` with its errors kept for whoever reads it: an error can come before anyone reads (an
 * archive entry that inflates past its declared size fails as soon as its first chunk is
 * decompressed, while the reader still opens its target file). With no listener, Node would
 * throw it at the process: the main process, for a crafted archive. The stream keeps it, and
 * the reader's loop throws it in its turn.
 */
export function keepingErrors<T extends Readable>(stream: T): T {
  stream.on('error', () => undefined);
  return stream;
}

async function* chunks(
  stream: Readable,
  maxBytes: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  let count = 0;
  try {
    for await (const chunk of stream) {
      throwIfAborted(signal);
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      count += buffer.length;
      if (count > maxBytes) throw new OversizeError(maxBytes);
      yield buffer;
    }
  } finally {
    stream.destroy();
  }
}

/** The whole of `stream`, at most `maxBytes` of it. @throws OversizeError, AbortError. */
export async function readBounded(
  stream: Readable,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks(stream, maxBytes, signal)) parts.push(chunk);
  return Buffer.concat(parts);
}

/**
 * Copies `stream` into the new file `target`, removed again on any failure; the stream is read to
 * its end or destroyed, whatever happens.
 * @throws OversizeError, AbortError, the stream's errors; LibraryWriteError when writing `target`
 *   failed.
 */
export async function copyToNewFile(
  stream: Readable,
  target: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<CopiedFile> {
  const handle = await toLibrary(() => open(target, 'wx', 0o644)).catch((error: unknown) => {
    stream.destroy();
    throw error;
  });
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of chunks(stream, maxBytes, signal)) {
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
      hash.update(chunk);
      size += chunk.length;
      let written = 0;
      while (written < chunk.length) {
        const rest = chunk.length - written;
        written += (await toLibrary(() => handle.write(chunk, written, rest))).bytesWritten;
      }
    }
    await toLibrary(() => handle.sync());
    await toLibrary(() => handle.close());
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeQuietly(target);
    stream.destroy();
    throw error;
  }
  return { size, sha256: hash.digest('hex'), head: head.subarray(0, SNIFF_BYTES) };
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
