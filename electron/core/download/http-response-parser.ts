/**
 * A strict reader of one HTTP/1.1 response to a GET or HEAD (an image download's), fed the bytes
 * of its socket as they come (pinned-exchange.ts). The image host may be hostile, so it accepts
 * only what RFC 9112 allows and bounds everything it keeps: the status line and headers (16 KB
 * and 128 lines, as Node's 16 KB default or stricter; interim 1xx heads count towards the same
 * bytes), a chunk-size line with its extensions, the trailers. It refuses bare CR or LF, NUL and
 * other control bytes, obs-fold, a name that is not a token; a Content-Length that is not digits
 * or disagrees with another; a Transfer-Encoding other than `chunked`, or one beside a
 * Content-Length (as llhttp does: that pair is how requests are smuggled).
 *
 * The body is framed by its length, by chunks, or by the connection's end; a HEAD, a 204, 205 or
 * 304 has none. A body that stops short of its length or its last chunk is an error at the end,
 * never a shorter file taken as whole. Body bytes are handed on as views of what was fed, never
 * copied out or kept here: the caller says when to stop (its `body` answers false) and feeds the
 * rest once it has taken them. A chunked body's data is moved together inside what was fed (over
 * the framing already read) and goes on as one piece a feed: a host that frames an 8 MB image
 * in one-byte chunks cost a size line read as text and a piece handed on per byte, 8.4 million
 * pieces and 2.9–4.2 s of the process's CPU; now about a thousand pieces and 0.37–0.60 s, the
 * size lines read from their bytes (tests/unit/core/download/chunked-image-pieces.test.ts).
 */
import {
  CR,
  HttpResponseError,
  LF,
  LineBlock,
  MAX_HEAD_BYTES,
  contentLength,
  fail,
  headerFields,
  isChunked,
  valuesOf,
} from './http-head-fields';

export { HttpResponseError };

export interface ResponseHead {
  readonly status: number;
  readonly reason: string;
  /** Name and value pairs as they came (names in their own case). */
  readonly headers: readonly (readonly [string, string])[];
  /** False for a HEAD, a 204, 205 or 304: nothing follows the head. */
  readonly hasBody: boolean;
}

export interface ResponseEvents {
  head(head: ResponseHead): void;
  /** A piece of the body, a view of the bytes fed; false: stop feeding until it is taken. */
  body(piece: Uint8Array): boolean;
}

const MAX_HEADER_LINES = 128;
const MAX_INTERIM = 8;
/** A chunk-size line with its extensions. */
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILER_BYTES = 16 * 1024;
/** Hex digits of a chunk size (leading zeros included); its value must also be a safe integer. */
const MAX_CHUNK_DIGITS = 16;

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3}) ([\t\x20-\x7e\x80-\xff]*)$/;
/** Hex digits, then extensions after optional whitespace (BWS is allowed only before a `;`). */
const CHUNK_LINE = /^([0-9A-Fa-f]+)(?:[\t ]*;[\t\x20-\x7e\x80-\xff]*)?$/;
const NULL_BODY = new Set([204, 205, 304]);

/** The value of a hex digit's byte, or -1. */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

type State =
  'head' | 'length' | 'close' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'done';

export class ResponseParser {
  private state: State = 'head';
  private readonly block = new LineBlock();
  private headBytes = 0;
  private interim = 0;
  private remaining = 0;
  private sawAny = false;
  /** A refusal met after chunk data the caller had not taken: thrown at the next feed. */
  private refusal: { readonly error: unknown } | null = null;

  constructor(
    private readonly method: 'GET' | 'HEAD',
    private readonly events: ResponseEvents,
  ) {
    this.block.reset(MAX_HEAD_BYTES, MAX_HEADER_LINES, 'HPE_HEADER_OVERFLOW');
  }

  /** True once the response is whole: nothing more is read. */
  get done(): boolean {
    return this.state === 'done';
  }

  /**
   * Reads `input[from, end)`; returns where it stopped: `end`, or just after a body piece the
   * caller asked to stop at. Throws an {@link HttpResponseError} for a response it refuses.
   *
   * The data of the chunks it reads goes on as one piece at the end (or before a refusal): each
   * chunk's bytes are moved down over the framing read before them, inside `input`, so a body
   * of one-byte chunks is one piece a read, not a piece a byte. Nothing before `from` is touched.
   */
  feed(input: Uint8Array, from = 0, end = input.length): number {
    if (this.refusal !== null) throw this.refusal.error;
    if (from < end) this.sawAny = true;
    const run = { from: -1, to: -1 };
    try {
      const at = this.feedFrom(input, from, end, run);
      if (at < end) return at;
    } catch (error) {
      // The data before the refusal goes on first, as it came before it (a cap it passes is
      // what the caller says); when the caller asks to stop at it, the refusal waits for the
      // next feed, so nothing is refused before the caller has taken what came before.
      if (!this.handOn(input, run)) {
        this.refusal = { error };
        return end - 1;
      }
      throw error;
    }
    this.handOn(input, run);
    return end;
  }

  private feedFrom(
    input: Uint8Array,
    from: number,
    end: number,
    run: { from: number; to: number },
  ): number {
    let at = from;
    while (at < end && this.state !== 'done') {
      const state = this.state;
      if (state === 'head') at = this.readHead(input, at, end);
      else if (state === 'chunk-data') {
        const take = Math.min(this.remaining, end - at);
        this.remaining -= take;
        if (run.from < 0) run.from = run.to = at;
        else input.copyWithin(run.to, at, at + take);
        run.to += take;
        at += take;
        if (this.remaining === 0) this.state = 'chunk-end';
      } else if (state === 'length') {
        const take = Math.min(this.remaining, end - at);
        this.remaining -= take;
        const piece = input.subarray(at, at + take);
        at += take;
        if (this.remaining === 0) this.state = 'done';
        if (!this.events.body(piece)) return at;
      } else if (state === 'close') {
        const piece = input.subarray(at, end);
        at = end;
        if (!this.events.body(piece)) return at;
      } else if (state === 'chunk-end') at = this.readChunkEnd(input, at);
      else if (state === 'chunk-size') at = this.readChunkSize(input, at, end);
      else at = this.readTrailers(input, at, end);
    }
    return end;
  }

  /**
   * The chunks' data one feed gathered, handed on as one piece (none when it read none); false
   * when the caller asked to stop at it.
   */
  private handOn(input: Uint8Array, run: { readonly from: number; readonly to: number }): boolean {
    if (run.from < 0 || run.to === run.from) return true;
    const piece = new Uint8Array(input.buffer, input.byteOffset + run.from, run.to - run.from);
    return this.events.body(piece);
  }

  /** The connection ended: fine only where the end is the body's end. */
  finish(): void {
    if (this.refusal !== null) throw this.refusal.error;
    if (this.state === 'done') return;
    if (this.state === 'close') {
      this.state = 'done';
      return;
    }
    if (this.state === 'head') {
      fail(
        this.sawAny ? 'HPE_INVALID_EOF_STATE' : 'ECONNRESET',
        'The connection closed before a response.',
      );
    }
    fail('ERR_STREAM_PREMATURE_CLOSE', 'The connection closed before the end of the body.');
  }

  private readHead(input: Uint8Array, from: number, end: number): number {
    const stop = this.block.take(input, from, end);
    if (stop < 0) return end;
    this.headBytes += this.block.length;
    this.startBody(this.block.lines);
    return stop;
  }

  private startBody(lines: readonly string[]): void {
    const status = STATUS_LINE.exec(lines[0] ?? '');
    if (!status) fail('HPE_INVALID_STATUS', 'A status line that is not HTTP/1.x.');
    const [, version = '', code = '', reason = ''] = status;
    const fields = headerFields(lines.slice(1));
    const statusCode = Number(code);
    if (statusCode < 100 || statusCode > 599 || statusCode === 101) {
      fail('HPE_INVALID_STATUS', 'A status code out of range.');
    }
    const length = contentLength(valuesOf(fields, 'content-length'));
    const chunked = isChunked(valuesOf(fields, 'transfer-encoding'), length !== undefined, version);
    if (statusCode < 200) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      this.interim += 1;
      if (this.interim > MAX_INTERIM) fail('HPE_HEADER_OVERFLOW', 'Too many interim responses.');
      this.block.reset(MAX_HEAD_BYTES - this.headBytes, MAX_HEADER_LINES, 'HPE_HEADER_OVERFLOW');
      return;
    }
    const hasBody = this.method !== 'HEAD' && !NULL_BODY.has(statusCode);
    this.events.head({ status: statusCode, reason, headers: fields, hasBody });
    if (!hasBody) this.state = 'done';
    else if (chunked) this.startChunkLine();
    else if (length === undefined) this.state = 'close';
    else {
      this.remaining = length;
      this.state = length === 0 ? 'done' : 'length';
    }
  }

  private startChunkLine(): void {
    this.block.reset(MAX_CHUNK_LINE, 1, 'HPE_CHUNK_EXTENSIONS_OVERFLOW', true);
    this.state = 'chunk-size';
  }

  private readChunkSize(input: Uint8Array, from: number, end: number): number {
    const plain = this.block.length === 0 ? this.plainChunkSize(input, from, end) : -1;
    if (plain >= 0) return plain;
    const stop = this.block.take(input, from, end);
    if (stop < 0) return end;
    const match = CHUNK_LINE.exec(this.block.lines[0] ?? '');
    if (!match) fail('HPE_INVALID_CHUNK_SIZE', 'A chunk size that is not hex.');
    const digits = match[1] as string;
    const size = digits.length <= MAX_CHUNK_DIGITS ? Number.parseInt(digits, 16) : Infinity;
    this.startChunk(size);
    return stop;
  }

  /**
   * A chunk-size line of hex digits alone, whole in `input[from, end)`, read from its bytes (no
   * line kept, no text made: a body of one-byte chunks has a line for each byte); where it ends,
   * or -1 for any other line (extensions, whitespace, a line cut between reads, anything to
   * refuse), which the line block then reads by the rules above.
   */
  private plainChunkSize(input: Uint8Array, from: number, end: number): number {
    let at = from;
    let size = 0;
    for (; at < end && at - from < MAX_CHUNK_DIGITS; at += 1) {
      const digit = hexDigit(input[at] as number);
      if (digit < 0) break;
      size = size * 16 + digit;
    }
    if (at === from || at + 1 >= end || input[at] !== CR || input[at + 1] !== LF) return -1;
    this.startChunk(size);
    return at + 2;
  }

  /** The chunk a size line announced: its data, or (size 0) the trailers. */
  private startChunk(size: number): void {
    // Digits past 2^53 round to a double of 2^53 or more: refused, as an exact value would be.
    if (!Number.isSafeInteger(size)) fail('HPE_INVALID_CHUNK_SIZE', 'A chunk size too large.');
    if (size === 0) {
      this.block.reset(MAX_TRAILER_BYTES, MAX_HEADER_LINES, 'HPE_HEADER_OVERFLOW');
      this.state = 'trailers';
    } else {
      this.remaining = size;
      this.state = 'chunk-data';
    }
  }

  private chunkEndAt = 0;

  private readChunkEnd(input: Uint8Array, at: number): number {
    const want = this.chunkEndAt === 0 ? CR : LF;
    if (input[at] !== want) fail('HPE_STRICT', 'A chunk not followed by CRLF.');
    this.chunkEndAt += 1;
    if (this.chunkEndAt === 2) {
      this.chunkEndAt = 0;
      this.startChunkLine();
    }
    return at + 1;
  }

  private readTrailers(input: Uint8Array, from: number, end: number): number {
    const stop = this.block.take(input, from, end);
    if (stop < 0) return end;
    headerFields(this.block.lines);
    this.state = 'done';
    return stop;
  }
}
