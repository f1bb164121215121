/**
 * The one reader of an archive's file: yauzl reads the central directory and every entry through
 * it (`yauzl.fromRandomAccessReader`), never through its own `fd-slicer`.
 *
 * Why: fd-slicer queues every read of an archive on one shared descriptor, and an entry stream
 * destroyed while its next read waits in that queue lets go of the file first; the read then runs
 * for a stream with no file (`TypeError: Cannot read properties of null (reading 'fd')`, thrown
 * at the process) and never frees the queue, so every other read of the archive waits for ever.
 * An import stopped mid-copy (Cancel, Ctrl+C, a full disk, a refusal while other tasks read) does
 * exactly that.
 *
 * Here the archive owns its queue. Reads run one at a time in the order asked (as before: a few
 * entries read at once take turns on the file); a range stream asks for its next read only while
 * it is alive, and when it is destroyed its read still waiting is taken out of the queue and the
 * one running is waited for before the stream closes. Closing the archive cancels what waits,
 * waits for the read running, then closes the file: a stop at any point drains the reads in order,
 * none runs for a stream that is gone, none is left waiting, none runs on a closed descriptor.
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

/** A read asked for: waiting its turn, then running, then settled. */
export interface QueuedRead {
  /** The bytes read (0 at the file's end); rejects when the read failed or was cancelled. */
  readonly result: Promise<number>;
  /** Takes the read out of the queue if it has not started; a running read runs to its end. */
  cancel(): void;
  /** Settles (never rejects) once the read is over: done, failed, or cancelled before its turn. */
  readonly settled: Promise<void>;
}

interface Waiting {
  readonly buffer: Buffer;
  readonly offset: number;
  readonly length: number;
  readonly position: number;
  readonly resolve: (bytesRead: number) => void;
  readonly reject: (error: Error) => void;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

const closedError = () => new Error('The archive is closed.');

export class ArchiveFile extends yauzl.RandomAccessReader {
  private readonly queue: Waiting[] = [];
  private running: Promise<void> | null = null;
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
   * Queues a read of at most `length` bytes at `position` into `buffer` at `offset`. Refused
   * (its result rejects) once the archive is closing.
   */
  queueRead(buffer: Buffer, offset: number, length: number, position: number): QueuedRead {
    let resolve: (bytesRead: number) => void = () => undefined;
    let reject: (error: Error) => void = () => undefined;
    const result = new Promise<number>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    const waiting: Waiting = { buffer, offset, length, position, resolve, reject };
    if (this.closing) reject(closedError());
    else this.queue.push(waiting);
    this.pump();
    const cancel = () => {
      const at = this.queue.indexOf(waiting);
      if (at < 0) return;
      this.queue.splice(at, 1);
      reject(new Error('The read was cancelled.'));
    };
    return { result, cancel, settled };
  }

  /** yauzl's small reads (the central directory, local headers), in yauzl's signature. */
  override read(...[buffer, offset, length, position, callback]: YauzlRead): void {
    this.queueRead(buffer, offset, length, position).result.then(
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
   * Cancels the reads still waiting, waits for the one running, then closes the file; no read
   * starts after this is called. The same promise on every call; never rejects (a file only read
   * has nothing to lose).
   */
  closeFile(): Promise<void> {
    this.closing ??= (async () => {
      for (const waiting of this.queue.splice(0)) waiting.reject(closedError());
      await this.running;
      await this.handle.close().catch(() => undefined);
    })();
    return this.closing;
  }

  /** Starts the next read in the queue when none is running. */
  private pump(): void {
    if (this.running || this.closing) return;
    const next = this.queue.shift();
    if (!next) return;
    this.running = this.handle.read(next.buffer, next.offset, next.length, next.position).then(
      (read) => next.resolve(read.bytesRead),
      (error: unknown) => next.reject(asError(error)),
    );
    void this.running.then(() => {
      this.running = null;
      this.pump();
    });
  }
}

/**
 * A range of the archive as a stream: one read asked for at a time, the next only while the
 * stream is alive; destroyed, its waiting read is cancelled and it closes once the read running
 * has settled.
 */
class RangeStream extends Readable {
  private position: number;
  private pending: QueuedRead | null = null;

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
    this.pending = this.file.queueRead(buffer, 0, length, this.position);
    this.pending.result.then(
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
    // Its read still waiting leaves the queue; it closes once the one running has settled.
    this.pending?.cancel();
    void (this.pending?.settled ?? Promise.resolve()).then(() => callback(error));
  }
}
