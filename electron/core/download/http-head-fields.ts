/**
 * The pieces of a strict HTTP/1.1 response head (http-response-parser.ts): CRLF-delimited lines in
 * one bounded buffer, header fields as RFC 9112 writes them, and the two headers that frame a
 * body, read as llhttp reads them (or stricter). Everything here refuses by throwing an
 * {@link HttpResponseError}.
 */

/** A response the reader refuses; `code` in llhttp's words where it has one. */
export class HttpResponseError extends Error {
  override readonly name = 'HttpResponseError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Status line and headers of one response (and of the 1xx before it, together). */
export const MAX_HEAD_BYTES = 16 * 1024;

export const CR = 13;
export const LF = 10;
/**
 * A header line: a token, a colon, a value of visible bytes, spaces and tabs. One quantifier per
 * part, so it matches or fails in linear time: the value's optional whitespace is trimmed by
 * {@link trimmedValue}, not by the pattern (a lazy value between two runs of it backtracked
 * through every split of a run that ended in a refused byte: 2,000 spaces cost 2 s).
 */
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):([\t\x20-\x7e\x80-\xff]*)$/;

const SP = 32;
const HTAB = 9;

/** `value` without the spaces and tabs around it (RFC 9112 OWS; nothing else is trimmed). */
function trimmedValue(value: string): string {
  let from = 0;
  let to = value.length;
  const ows = (code: number) => code === SP || code === HTAB;
  while (from < to && ows(value.charCodeAt(from))) from += 1;
  while (to > from && ows(value.charCodeAt(to - 1))) to -= 1;
  return value.slice(from, to);
}

export function fail(code: string, message: string): never {
  throw new HttpResponseError(code, message);
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('latin1');
}

/**
 * Lines of a CRLF-delimited block (a head, a chunk-size line, trailers) in one bounded buffer,
 * reset for each block; bare CR or LF refused.
 */
export class LineBlock {
  private readonly bytes = new Uint8Array(MAX_HEAD_BYTES);
  private limit = 0;
  private maxLines = 0;
  private overflow = '';
  private oneLine = false;
  length = 0;
  private lineStart = 0;
  private sawCR = false;
  lines: string[] = [];

  /** Starts a block of at most `limit` bytes and `maxLines` lines (one line: a chunk size). */
  reset(limit: number, maxLines: number, overflow: string, oneLine = false): void {
    this.limit = Math.min(limit, MAX_HEAD_BYTES);
    this.maxLines = maxLines;
    this.overflow = overflow;
    this.oneLine = oneLine;
    this.length = 0;
    this.lineStart = 0;
    this.sawCR = false;
    // A new list only when the last block's was filled (read by then): a chunk line per piece.
    if (this.lines.length > 0) this.lines = [];
  }

  /**
   * Takes bytes from `from` on until the block's end (its empty line, or its one line's CRLF);
   * returns where it stopped (the byte after) or -1 when it needs more.
   */
  take(input: Uint8Array, from: number, end: number): number {
    for (let at = from; at < end; at += 1) {
      const byte = input[at] as number;
      if (this.sawCR) {
        if (byte !== LF) fail('HPE_LF_EXPECTED', 'A CR not followed by LF in the response.');
        this.sawCR = false;
        const line = this.length - 1;
        if (line === this.lineStart && !this.oneLine) return at + 1;
        if (this.lines.length >= this.maxLines) fail(this.overflow, 'Too many header lines.');
        this.lines.push(latin1(this.bytes, this.lineStart, line));
        this.lineStart = this.length;
        if (this.oneLine) return at + 1;
        continue;
      }
      if (byte === LF) fail('HPE_CR_EXPECTED', 'A bare LF in the response.');
      if (this.length >= this.limit) fail(this.overflow, 'The response head is too large.');
      if (byte === CR) this.sawCR = true;
      this.bytes[this.length++] = byte;
      // Every other control byte (NUL among them) is refused line by line, by the patterns.
    }
    return -1;
  }
}

/** Name and value of each header line; obs-fold, a non-token name, a control byte refused. */
export function headerFields(lines: readonly string[]): [string, string][] {
  return lines.map((line) => {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      fail('HPE_INVALID_HEADER_TOKEN', 'A folded header line (obs-fold).');
    }
    const match = HEADER_LINE.exec(line);
    if (!match) fail('HPE_INVALID_HEADER_TOKEN', 'A header line that is not name: value.');
    return [match[1] as string, trimmedValue(match[2] as string)];
  });
}

export function valuesOf(fields: readonly (readonly [string, string])[], name: string): string[] {
  return fields.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
}

/**
 * The body's declared length: digits only (not a list, as llhttp); a repeated header must agree.
 */
export function contentLength(values: readonly string[]): number | undefined {
  let length: number | undefined;
  for (const digits of values) {
    if (!/^\d{1,15}$/.test(digits)) {
      fail('HPE_INVALID_CONTENT_LENGTH', 'A Content-Length that is not a number.');
    }
    const each = Number(digits);
    if (length !== undefined && each !== length) {
      fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length values that disagree.');
    }
    length = each;
  }
  return length;
}

/** True when the body is chunked; any other coding, or chunks with a length, refused. */
export function isChunked(values: readonly string[], hasLength: boolean, version: string): boolean {
  if (values.length === 0) return false;
  const codings = values.flatMap((value) => value.split(',')).map((part) => part.trim());
  if (codings.length !== 1 || codings[0]?.toLowerCase() !== 'chunked' || version === '0') {
    fail('HPE_INVALID_TRANSFER_ENCODING', 'A Transfer-Encoding other than chunked.');
  }
  if (hasLength) {
    fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Transfer-Encoding together with Content-Length.');
  }
  return true;
}
