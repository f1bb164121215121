/**
 * The one reader of an archive's file: yauzl reads the central directory and every entry through
 * it (`yauzl.fromRandomAccessReader`), never through its own `fd-slicer`.
 *
 * Why: fd-slicer queues every read of an archive on one shared descriptor, and an entry stream
 * destroyed while its next read waits in that queue lets go of the file first; the read then runs
 * on a stream with no file (`TypeError: Cannot read properties of null (reading 'fd')`, thrown at
 * the process) and never frees the queue, so every other read of the archive waits for ever. An
 * import stopped mid-copy (Cancel, Ctrl+C, a full disk, an entry refused while other tasks read)
 * does exactly that.
 *
 * Here the reads belong to the archive: each is a positioned read of its own (no queue to jam), a
 * range stream asks for its next read only while it is alive and holds one at a time, and it
 * closes only once that read has settled. The file is closed when the archive is, after every read
 * on it has settled: stopping drains the reads in flight, none runs on a closed descriptor and
 * none is left waiting.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** The most a range stream reads at once (and keeps buffered ahead of its reader). */
const CHUNK_BYTES = 64 * 1024;

/** yauzl's `read`: into `buffer` at `offset`, `length` bytes at `position`, then `callback`. */
type YauzlRead = [
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
  callback: (error: Error | null, bytesRead?: number) => void,
];

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export class ArchiveFile extends yauzl.RandomAccessReader {
  private readonly reads = new Set<Promise<number>>();
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly handle: FileHandle,
    /** The file's size when it was opened: what yauzl reads the archive's end from. */
    readonly size: number,
  ) {
    super();
  }

  /** Opens `path` for reading. @throws the file system's error. */
  static async open(path: string): Promise<ArchiveFile> {
    const handle = await open(path, 'r');
    try {
      return new ArchiveFile(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Reads at most `length` bytes at `position` into `buffer` at `offset`; the bytes read (0 at
   * the file's end). Refused once the archive is closing.
   */
  readAt(buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
    if (this.closing) return Promise.reject(new Error('The archive is closed.'));
    const read = this.handle
      .read(buffer, offset, length, position)
      .then((result) => result.bytesRead);
    this.reads.add(read);
    const settled = () => void this.reads.delete(read);
    read.then(settled, settled);
    return read;
  }

  /** yauzl's small reads (the central directory, local headers), in yauzl's signature. */
  override read(...[buffer, offset, length, position, callback]: YauzlRead): void {
    this.readAt(buffer, offset, length, position).then(
      (bytesRead) => callback(null, bytesRead),
      (error: unknown) => callback(asError(error)),
    );
  }

  /** An entry's bytes from `start` up to `end` (exclusive), as yauzl asks for them. */
  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this, start, end);
  }

  /** yauzl's close, once nothing holds the archive open any more. */
  override close(callback: (error: Error | null) => void): void {
    void this.closeFile().then(() => callback(null));
  }

  /**
   * Closes the file once every read on it has settled; no read starts after this is called.
   * The same promise on every call; never rejects (a read-only file has nothing to lose).
   */
  closeFile(): Promise<void> {
    this.closing ??= (async () => {
      while (this.reads.size > 0) await Promise.allSettled([...this.reads]);
      await this.handle.close().catch(() => undefined);
    })();
    return this.closing;
  }
}

/**
 * A range of the archive as a stream: one read at a time, the next asked for only while the
 * stream is alive, and destroyed only once the read in flight has settled.
 */
class RangeStream extends Readable {
  private position: number;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: ArchiveFile,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
    this.position = start;
  }

  override _read(size: number): void {
    const length = Math.min(size, CHUNK_BYTES, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.reading = this.file.readAt(buffer, 0, length, this.position).then(
      (bytesRead) => {
        if (this.destroyed) return;
        if (bytesRead === 0) {
          this.destroy(new Error('The archive ends before this entry does.'));
          return;
        }
        this.position += bytesRead;
        this.push(buffer.subarray(0, bytesRead));
      },
      (error: unknown) => {
        if (!this.destroyed) this.destroy(asError(error));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Closed only once its read in flight has settled: nothing of it is left on the file.
    const done = () => callback(error);
    void this.reading.then(done, done);
  }
}
