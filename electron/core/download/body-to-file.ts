/**
 * Streams a response body into a temp file (or a sink: provenance-writer.ts) chunk by chunk
 * (never the whole image in memory), counting bytes against the cap and recognising the image by
 * its first bytes.
 */
import { open } from 'node:fs/promises';
import { BodyFile } from './body-file';
import type { AttemptAbort } from './attempt-abort';
import { discardBody } from './image-request';
import { sentence } from '../../../shared/i18n/sentence';
import { invalid, retry, type FailedOutcome } from './download-outcome';
import { formatBytes } from '../../../shared/text/format-bytes';
import { diskParams } from '../fs';
import { downloadWriteBuffers, type WriteBuffers } from './write-buffers';
import { directBody } from './pinned-body';
import type { BodySource } from './pinned-exchange';
import {
  DESCRIBE_BYTES,
  SNIFF_BYTES,
  describeNonImage,
  sniffImage,
  type ImageKind,
} from '../images';

export type BodyResult =
  { ok: true; kind: ImageKind; bytes: number } | { ok: false; outcome: FailedOutcome };

/** Keeps the first bytes of the body to tell what it is. */
class HeadSniffer {
  private readonly head = new Uint8Array(DESCRIBE_BYTES);
  private length = 0;
  kind: ImageKind | null = null;

  /** `true` once the body is known not to be an image (enough bytes seen and no magic). */
  push(chunk: Uint8Array): boolean {
    if (this.length === DESCRIBE_BYTES) return this.kind === null;
    const take = Math.min(chunk.length, DESCRIBE_BYTES - this.length);
    this.head.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.length);
    this.length += take;
    if (this.kind === null && this.length >= SNIFF_BYTES) this.kind = sniffImage(this.bytes());
    return this.kind === null && this.length >= DESCRIBE_BYTES;
  }

  bytes(): Uint8Array {
    return this.head.subarray(0, this.length);
  }

  notAnImage(): FailedOutcome {
    return invalid(sentence('error.gallery.notAnImage', { kind: describeNonImage(this.bytes()) }));
  }
}

function tooBig(maxBytes: number): FailedOutcome {
  return invalid(sentence('error.gallery.imageTooBig', { limit: formatBytes(maxBytes) }));
}

/** A write of the body that failed: a retry, in the disk's words. */
export function diskFailure(error: unknown): FailedOutcome {
  return retry(sentence('error.gallery.downloadNotWritten', diskParams(error)));
}

/** Content-Length when it is a plain number and describes the bytes we will read (no encoding). */
function declaredLength(response: Response): number | undefined {
  const raw = response.headers.get('content-length');
  const encoding = response.headers.get('content-encoding');
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return undefined;
  return Number(raw);
}

/** Where a body's gathered pieces are written (default: the download's own file, as they came). */
export interface BodySink {
  /**
   * Writes the body's next piece, with what the body has been recognised as so far. The piece is
   * a view of a write buffer used again once this has settled: what the sink keeps, it copies.
   * Rejects: the disk failed.
   */
  write(piece: Uint8Array, kind: ImageKind | null): Promise<void>;
}

interface BodyLimits {
  readonly maxBytes: number;
  readonly abort: AttemptAbort;
  /** Takes the body instead of `path` (provenance-writer.ts); its caller closes it. */
  readonly sink?: BodySink;
  /** Where the body's write buffer comes from; default: the process's (tests give their own). */
  readonly buffers?: WriteBuffers;
}

/**
 * The body's chunks gathered in one of the kept write buffers (write-buffers.ts) and written each
 * time it is full and at the end: a few awaited writes per image, not one per chunk. The sink has
 * taken what it was given before the buffer is filled again.
 */
class Gathered {
  private readonly buffer: Buffer;
  private filled = 0;

  constructor(
    private readonly sink: BodySink,
    private readonly limits: BodyLimits,
    private readonly sniffer: HeadSniffer,
  ) {
    this.buffer = (limits.buffers ?? downloadWriteBuffers).take();
  }

  /**
   * Copies `chunk` in, writing the buffer each time it is full; a disk failure stops it. A chunk
   * that does not fill the buffer is only copied: nothing to wait for (null), so the pump takes
   * the next chunk without an awaited step of its own.
   */
  add(chunk: Uint8Array): Promise<FailedOutcome | null> | null {
    if (this.filled + chunk.length < this.buffer.length) {
      this.buffer.set(chunk, this.filled);
      this.filled += chunk.length;
      return null;
    }
    return this.addFilling(chunk);
  }

  private async addFilling(chunk: Uint8Array): Promise<FailedOutcome | null> {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(this.buffer.length - this.filled, chunk.length - at);
      this.buffer.set(chunk.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      const failed = this.filled === this.buffer.length ? await this.flush() : null;
      if (failed) return failed;
    }
    return null;
  }

  /** Writes what the buffer holds (nothing when it is empty). */
  async flush(): Promise<FailedOutcome | null> {
    if (this.filled === 0) return null;
    const gathered = this.buffer.subarray(0, this.filled);
    this.filled = 0;
    try {
      await this.sink.write(gathered, this.sniffer.kind);
      return null;
    } catch (error) {
      return diskFailure(error);
    }
  }

  /** Gives the buffer back: nothing reads it any more. */
  release(): void {
    (this.limits.buffers ?? downloadWriteBuffers).give(this.buffer);
  }
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  gathered: Gathered,
  limits: BodyLimits,
  sniffer: HeadSniffer,
): Promise<{ bytes: number } | FailedOutcome> {
  let bytes = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      return limits.abort.failure(error, 'receiving');
    }
    if (chunk.done) return (await gathered.flush()) ?? { bytes };
    bytes += chunk.value.length;
    if (bytes > limits.maxBytes) return tooBig(limits.maxBytes);
    if (sniffer.push(chunk.value)) return sniffer.notAnImage();
    const writing = gathered.add(chunk.value);
    const failed = writing && (await writing);
    if (failed) return failed;
  }
}

/**
 * The pump over a pinned download's own body (pinned-body.ts): each piece, a view of the socket's
 * read buffer, is counted, sniffed and copied into the write buffer before the socket reads again;
 * while a full buffer is written, reading waits.
 */
async function pumpDirect(
  source: BodySource,
  gathered: Gathered,
  limits: BodyLimits,
  sniffer: HeadSniffer,
): Promise<{ bytes: number } | FailedOutcome> {
  let bytes = 0;
  let stopped: FailedOutcome | null = null;
  const stop = (outcome: FailedOutcome): never => {
    stopped = outcome;
    throw new Error('The body was refused.');
  };
  try {
    await source.pipe((piece) => {
      bytes += piece.length;
      if (bytes > limits.maxBytes) stop(tooBig(limits.maxBytes));
      if (sniffer.push(piece)) stop(sniffer.notAnImage());
      const writing = gathered.add(piece);
      return writing && writing.then((failed) => void (failed && stop(failed)));
    });
  } catch (error) {
    return stopped ?? limits.abort.failure(error, 'receiving');
  }
  return (await gathered.flush()) ?? { bytes };
}

async function pumpToFile(
  body: ReadableStream<Uint8Array>,
  path: string,
  limits: BodyLimits,
  sniffer: HeadSniffer,
) {
  // Not synced here: the download syncs the file it keeps before placing it (download-image.ts).
  const own = new BodyFile(path);
  const source = directBody(body);
  const reader = source ? null : body.getReader();
  const gathered = new Gathered(limits.sink ?? own, limits, sniffer);
  try {
    return await (reader
      ? pump(reader, gathered, limits, sniffer)
      : pumpDirect(source as BodySource, gathered, limits, sniffer));
  } catch (error) {
    return diskFailure(error);
  } finally {
    if (reader) await reader.cancel().catch(() => undefined);
    else source?.cancel();
    await own.close();
    gathered.release();
  }
}

/**
 * Reads a 200 response's body into `path` (created by its first write), or into `limits.sink`,
 * and says what it holds.
 */
export async function bodyToFile(
  response: Response,
  path: string,
  limits: BodyLimits,
): Promise<BodyResult> {
  const declared = declaredLength(response);
  const sniffer = new HeadSniffer();
  if (declared !== undefined && declared > limits.maxBytes) {
    await discardBody(response);
    return { ok: false, outcome: tooBig(limits.maxBytes) };
  }
  const result = response.body
    ? await pumpToFile(response.body, path, limits, sniffer)
    : { bytes: 0 };
  if (!('bytes' in result)) return { ok: false, outcome: result };
  if (declared !== undefined && result.bytes < declared) {
    return {
      ok: false,
      outcome: retry(
        sentence('error.gallery.downloadCutShort', {
          received: String(result.bytes),
          declared: String(declared),
        }),
      ),
    };
  }
  if (sniffer.kind === null) return { ok: false, outcome: sniffer.notAnImage() };
  return { ok: true, kind: sniffer.kind, bytes: result.bytes };
}

/**
 * Flushes a file written earlier (a download's body) to disk; a failure is a retry outcome.
 */
export async function syncFile(path: string): Promise<FailedOutcome | null> {
  try {
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return null;
  } catch (error) {
    return retry(sentence('error.gallery.downloadNotWritten', diskParams(error)));
  }
}
