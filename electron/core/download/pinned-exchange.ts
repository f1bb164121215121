/**
 * One GET or HEAD of an image download on its own socket, pinned to the checked address: the
 * request written with `Connection: close` once the connection is judged (pinned-dial.ts), the
 * response read by http-response-parser.ts.
 *
 * Why not node:http: it reads every socket chunk into a new 64 KB buffer that only V8's full
 * collections free, so a burst of downloads grew the main process's heap by hundreds of MB and
 * kept it. Here the socket reads with `onread` into a kept buffer (`tls.connect` honours `onread`
 * for a socket it dials itself, Node's lib/internal/tls/wrap.js; TLSWrap decrypts into it), one
 * of a few shared by all downloads (write-buffers.ts), and body pieces are handed on as views of
 * it: while one is out (its reader awaiting a write), reading is paused, and any read that still
 * arrives goes into another kept buffer, so no piece is overwritten before it is taken.
 *
 * TLS verifies as https.request did: SNI is the URL's host name (none for an IP literal), the
 * certificate is checked against that name whatever address was connected to. The signal (the
 * attempt's timeouts and the user's stop) destroys the socket at any point: connecting, the
 * handshake, the head, the body. Every failure settles the head promise or the body's `pipe`,
 * never an unhandled error.
 */
import type { Socket } from 'node:net';
import type { ResolvedAddress } from '../../ports/http';
import { ResponseParser, type ResponseHead } from './http-response-parser';
import { dial, whenReady, type ConnectionCheck } from './pinned-dial';
import { WriteBuffers } from './write-buffers';

/** What socket reads land in: 64 KB (a socket's default read), a few kept for all downloads. */
const readBuffers = new WriteBuffers(64 * 1024, 16);
/** Given to a settled socket for the read that will not come. */
const SPENT = Buffer.alloc(1);

/**
 * Takes one body piece: `null` when it has been taken (copied) already, or a promise that
 * settles once it has. The piece is valid only until then.
 */
export type TakePiece = (piece: Uint8Array) => Promise<void> | null;

/** The body of an answer, read from its socket as its reader takes it. */
export interface BodySource {
  /** Hands every piece to `take`; settles at the body's end, rejects when it is cut or refused. */
  pipe(take: TakePiece): Promise<void>;
  /** Stops reading: the socket is destroyed. */
  cancel(reason?: unknown): void;
}

export interface PinnedRequest {
  readonly url: URL;
  readonly method: 'GET' | 'HEAD';
  readonly headers: Headers;
  readonly address: ResolvedAddress;
  readonly signal?: AbortSignal;
  /** The only trusted certificates (tests' self-signed hosts); pinned-dial.ts's otherwise. */
  readonly ca?: string | Buffer;
  /** Judges the connection before the request is written (pinned-dial.ts). */
  readonly checkConnection?: ConnectionCheck;
}

/** Bytes read and not yet parsed: the rest of a read whose piece is out. */
interface Held {
  readonly buffer: Buffer;
  at: number;
  readonly end: number;
}

function requestHead(request: PinnedRequest): string {
  const { url } = request;
  let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  // Headers has checked names and values: no CR, LF or NUL can be in them.
  for (const [name, value] of request.headers) {
    if (name === 'host' || name === 'connection') continue;
    head += `${name}: ${value}\r\n`;
  }
  return `${head}Connection: close\r\n\r\n`;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export class PinnedExchange implements BodySource {
  private readonly socket: Socket;
  private readonly parser: ResponseParser;
  private readBuffer: Buffer | null = null;
  private readonly held: Held[] = [];
  /** A body piece parsed before anyone asked for the body. */
  private unclaimed: Uint8Array | null = null;
  private take: TakePiece | null = null;
  private taking: Promise<void> | null = null;
  private ended = false;
  private closed = false;
  private settled = false;
  private resolveHead!: (head: ResponseHead) => void;
  private rejectHead!: (error: unknown) => void;
  private resolveBody: (() => void) | null = null;
  private rejectBody: ((error: unknown) => void) | null = null;
  private failure: unknown = null;
  private bodyDone = false;
  readonly head: Promise<ResponseHead>;

  constructor(private readonly request: PinnedRequest) {
    this.head = new Promise((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    this.parser = new ResponseParser(request.method, {
      head: (head) => this.resolveHead(head),
      body: (piece) => this.give(piece),
    });
    this.socket = this.connect();
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('end', () => this.onEnd());
    this.socket.on('close', () => this.onClose());
    request.signal?.addEventListener('abort', this.onAbort, { once: true });
    whenReady(this.socket, request.url, request.checkConnection).then(
      () => {
        if (!this.settled) this.socket.write(requestHead(request));
      },
      (error: unknown) => this.fail(error),
    );
  }

  private readonly onAbort = (): void => {
    this.fail(abortReason(this.request.signal as AbortSignal));
  };

  private connect(): Socket {
    const onread = {
      buffer: () => this.nextReadBuffer(),
      callback: (bytes: number, buffer: Uint8Array) => this.onRead(bytes, buffer as Buffer),
    };
    return dial({ ...this.request, onread });
  }

  /** The buffer the next read lands in: the same one, unless bytes in it are still out. */
  private nextReadBuffer(): Buffer {
    const current = this.readBuffer;
    // Settled: no read follows, and a buffer taken now would never be given back.
    if (this.settled) return current ?? SPENT;
    if (current && !this.held.some((held) => held.buffer === current)) return current;
    this.readBuffer = readBuffers.take();
    return this.readBuffer;
  }

  private onRead(bytes: number, buffer: Buffer): boolean {
    if (this.settled) return false;
    this.held.push({ buffer, at: 0, end: bytes });
    if (this.held.length > 1 || this.taking || this.unclaimed) return false;
    return this.drain();
  }

  /** Hands on a parsed piece; false when it is out (reading waits until it is taken). */
  private give(piece: Uint8Array): boolean {
    if (!this.take) {
      this.unclaimed = piece;
      return false;
    }
    const taking = this.take(piece);
    if (taking === null) return true;
    this.taking = taking;
    taking.then(
      () => {
        this.taking = null;
        this.continue();
      },
      (error: unknown) => {
        this.taking = null;
        this.fail(error);
        this.release();
      },
    );
    return false;
  }

  /** Parses what is held; true when all of it was, and reading may go on. */
  private drain(): boolean {
    try {
      for (let held = this.held[0]; held; held = this.held[0]) {
        held.at = this.parser.feed(held.buffer, held.at, held.end);
        if (held.at < held.end || this.taking || this.unclaimed) return false;
        this.held.shift();
        if (held.buffer !== this.readBuffer) readBuffers.give(held.buffer);
        if (this.parser.done) break;
      }
      if (this.parser.done) this.complete();
      else if (this.ended) this.endOfStream();
      return !this.settled;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** A piece was taken: parse on, and read again once all read is parsed. */
  private continue(): void {
    if (this.settled) return this.release();
    if (this.unclaimed) {
      const piece = this.unclaimed;
      this.unclaimed = null;
      try {
        if (!this.give(piece)) return;
      } catch (error) {
        return this.fail(error);
      }
    }
    if (this.drain() && !this.ended) this.socket.resume();
  }

  private onEnd(): void {
    this.ended = true;
    if (this.held.length === 0 && !this.taking && !this.unclaimed) this.endOfStream();
  }

  private endOfStream(): void {
    try {
      this.parser.finish();
      this.complete();
    } catch (error) {
      this.fail(error);
    }
  }

  private onClose(): void {
    this.closed = true;
    if (!this.settled && !this.ended) {
      this.fail(Object.assign(new Error('The connection closed.'), { code: 'ECONNRESET' }));
    }
    this.release();
  }

  private complete(): void {
    if (this.settled) return;
    this.bodyDone = true;
    this.settle();
    this.resolveBody?.();
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.failure = error;
    this.settle();
    this.rejectHead(error);
    this.rejectBody?.(error);
  }

  private settle(): void {
    this.settled = true;
    this.request.signal?.removeEventListener('abort', this.onAbort);
    this.socket.destroy();
    this.release();
  }

  /**
   * Gives the read buffers back once no piece of them is out and the socket is closed: until
   * then TLS may still decrypt what it holds into the buffer it was given. Bytes read and not yet
   * taken (a piece parsed before the body was asked for, a read not yet parsed) are the body's
   * until the exchange settles: a TLS host that sends a small answer whole and closes is closed
   * before its reader asks, and giving those buffers back then lost the body, read as empty.
   */
  private release(): void {
    if (this.taking || !this.closed || !this.readBuffer) return;
    if (!this.settled && (this.unclaimed || this.held.length > 0)) return;
    readBuffers.give(this.readBuffer);
    for (const held of this.held.splice(0)) readBuffers.give(held.buffer);
    this.readBuffer = null;
    this.unclaimed = null;
  }

  pipe(take: TakePiece): Promise<void> {
    if (this.take) return Promise.reject(new TypeError('The body is already being read.'));
    this.take = take;
    if (this.bodyDone && !this.unclaimed && this.held.length === 0) return Promise.resolve();
    if (this.settled && !this.bodyDone) return Promise.reject(this.failure);
    const done = new Promise<void>((resolve, reject) => {
      this.resolveBody = resolve;
      this.rejectBody = reject;
    });
    queueMicrotask(() => this.continue());
    return done;
  }

  cancel(reason?: unknown): void {
    this.fail(reason ?? new Error('The body was cancelled.'));
  }
}
