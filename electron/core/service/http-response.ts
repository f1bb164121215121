/**
 * Reading a service response body safely: bounded in size, abortable even when the transport
 * ignores the signal, and never throwing (the caller decides what a short or broken body means).
 */
import { cleanText } from '../../../shared/service/wire';
import { HTML_TEXT_ENTITIES } from '../../../shared/text/entities';
import { MergedPieces } from './merged-pieces';

/** What became of reading a body. `text` is what arrived, possibly partial. */
export type BodyRead =
  | { readonly outcome: 'complete'; readonly text: string }
  | { readonly outcome: 'too_large'; readonly text: string }
  /** The stream failed (connection broke) or the signal aborted; `error` is why. */
  | { readonly outcome: 'broken'; readonly text: string; readonly error: unknown };

const EXCERPT_CHARS = 200;

function declaredLength(response: Response): number | undefined {
  const raw = response.headers.get('content-length');
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

function decode(chunks: readonly Uint8Array[], total: number): string {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** Rejects with the signal's reason when it aborts; `stop` removes the listener. */
function abortPromise(signal: AbortSignal): { promise: Promise<never>; stop: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Only ever observed through Promise.race; this keeps an unraced abort from being "unhandled".
  promise.catch(() => undefined);
  return { promise, stop: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts, even when
 * the work behind `promise` ignores the signal (a fake or a stuck transport).
 */
export async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const aborted = abortPromise(signal);
  try {
    return await Promise.race([promise, aborted.promise]);
  } finally {
    aborted.stop();
  }
}

function cancelQuietly(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  reader.cancel().catch(() => undefined);
}

/** What became of streaming a body to a reader: it all came, or not (and why). */
export type BodyStream =
  | { readonly outcome: 'complete' }
  | { readonly outcome: 'too_large' }
  /** The reader wanted no more (it refused what it had read). */
  | { readonly outcome: 'stopped' }
  | { readonly outcome: 'broken'; readonly error: unknown };

/** How {@link eachPiece} reads a body. */
interface PieceReading {
  readonly maxBytes: number;
  /**
   * The piece that passes `maxBytes` is handed on cut at it, and what is held when the body ends
   * short (too large, broken) is handed on too: a text keeps what arrived.
   */
  readonly keep: boolean;
}

/**
 * Reads `body` to `take`, its pieces merged as they arrive (merged-pieces.ts), at most
 * `maxBytes`. The signal cancels the reader, which ends a read waiting on the transport at once
 * whatever the transport does: one listener for the body, not a race per piece (a race with one
 * promise that stays pending leaves it a reaction per piece, each holding its piece, until the
 * body ends: a reaction a byte for an answer sent a byte at a time).
 */
async function eachPiece(
  body: ReadableStream<Uint8Array>,
  how: PieceReading,
  signal: AbortSignal,
  take: (piece: Uint8Array) => boolean,
): Promise<BodyStream> {
  const reader = body.getReader();
  const onAbort = (): void => cancelQuietly(reader);
  signal.addEventListener('abort', onAbort, { once: true });
  const pieces = new MergedPieces(take, onAbort);
  let outcome: BodyStream;
  try {
    outcome = await readPieces(reader, how, signal, pieces);
  } catch (error) {
    cancelQuietly(reader);
    outcome = { outcome: 'broken', error: signal.aborted ? signal.reason : error };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (outcome.outcome !== 'complete' && !how.keep) pieces.drop();
  else if (!pieces.flush()) return { outcome: 'stopped' };
  return outcome;
}

/** {@link eachPiece}'s loop. @throws what the body threw. */
async function readPieces(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  how: PieceReading,
  signal: AbortSignal,
  pieces: MergedPieces,
): Promise<BodyStream> {
  const aborted = (): BodyStream => {
    cancelQuietly(reader);
    return { outcome: 'broken', error: signal.reason };
  };
  let total = 0;
  for (;;) {
    if (signal.aborted) return aborted();
    const { done, value } = await reader.read();
    if (signal.aborted) return aborted();
    if (pieces.refused) return { outcome: 'stopped' };
    if (done) return { outcome: 'complete' };
    const room = how.maxBytes - total;
    total += value.byteLength;
    if (value.byteLength > room) {
      cancelQuietly(reader);
      if (how.keep) pieces.add(value.subarray(0, room));
      return { outcome: 'too_large' };
    }
    if (!pieces.add(value)) {
      cancelQuietly(reader);
      return { outcome: 'stopped' };
    }
  }
}

/**
 * Reads `response`'s body as UTF-8 text, stopping after `maxBytes` bytes.
 * Never throws: a broken stream or an abort comes back as `outcome: 'broken'`.
 */
export async function readBodyText(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<BodyRead> {
  const length = declaredLength(response);
  if (length !== undefined && length > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    return { outcome: 'too_large', text: '' };
  }
  if (response.body === null) return { outcome: 'complete', text: '' };
  const chunks: Uint8Array[] = [];
  let total = 0;
  const read = await eachPiece(response.body, { maxBytes, keep: true }, signal, (piece) => {
    chunks.push(piece);
    total += piece.byteLength;
    return true;
  });
  const text = decode(chunks, total);
  if (read.outcome === 'broken') return { outcome: 'broken', text, error: read.error };
  return { outcome: read.outcome === 'too_large' ? 'too_large' : 'complete', text };
}

/**
 * Streams `response`'s body to `take` as it arrives, the pieces that arrive together merged
 * (merged-pieces.ts), stopping after `maxBytes` bytes or as soon as `take` answers false. Keeps
 * nothing: the reader does. Never throws: a broken stream or an abort comes back as
 * `outcome: 'broken'`.
 */
export async function streamBody(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  take: (chunk: Uint8Array) => boolean,
): Promise<BodyStream> {
  const length = declaredLength(response);
  if (length !== undefined && length > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    return { outcome: 'too_large' };
  }
  if (response.body === null) return { outcome: 'complete' };
  return eachPiece(response.body, { maxBytes, keep: false }, signal, take);
}

/** Drops a body that will not be read (a redirect's), so the connection can be reused. */
export function discardBody(response: Response): void {
  try {
    response.body?.cancel().catch(() => undefined);
  } catch {
    // A locked or odd body (from a fake or a broken transport) is simply left to be collected.
  }
}

function looksLikeHtml(text: string): boolean {
  return /^\s*<(!doctype|html|head|body|\?xml)/i.test(text) || /<\/[a-z][a-z0-9]*\s*>/i.test(text);
}

const ENTITY = new RegExp(`&(${[...HTML_TEXT_ENTITIES.keys()].join('|')});`, 'gi');

const BLOCK_START = /<(?:(script|style)\b|!--)/gi;

/**
 * Drops scripts, styles and comments (an unclosed one takes the rest of the page with it).
 * A scan with indexOf, not a lazy regex: a body of a million unclosed `<script`s (or `<`s)
 * made the regex version quadratic, minutes of blocked event loop for one error page.
 */
function withoutBlocks(html: string): string {
  const lower = html.toLowerCase();
  const starts = new RegExp(BLOCK_START.source, BLOCK_START.flags);
  let out = '';
  let from = 0;
  for (let match = starts.exec(html); match; match = starts.exec(html)) {
    out += `${html.slice(from, match.index)} `;
    const name = match[1]?.toLowerCase();
    const end = lower.indexOf(name ? `</${name}` : '-->', starts.lastIndex);
    const close = end === -1 ? -1 : name ? lower.indexOf('>', end) : end + 2;
    if (close === -1) return out;
    from = close + 1;
    starts.lastIndex = from;
  }
  return out + html.slice(from);
}

/** The readable text of an HTML error page: scripts, styles and tags gone, common entities decoded. */
export function stripHtml(html: string): string {
  return (
    withoutBlocks(html)
      // `[^<>]`, not `[^>]`: a run of `<` without `>` would make every `<` scan to the end.
      .replace(/<[^<>]*>/g, ' ')
      .replace(ENTITY, (_, name: string) => HTML_TEXT_ENTITIES.get(name.toLowerCase()) ?? ' ')
  );
}

/** A short, single-line, tag-free excerpt of a body for an error's detail. */
export function bodyExcerpt(text: string, max = EXCERPT_CHARS): string {
  const readable = cleanText(looksLikeHtml(text) ? stripHtml(text) : text, max);
  return readable === '' ? '(empty body)' : readable;
}

/** `JSON.parse` that reports failure instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
