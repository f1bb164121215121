/**
 * How many of a client's calls the server works on at once, and how many it reads ahead. The SDK
 * runs every call it is handed at once, and a client may send thousands in one write (a pipe's
 * chunk holds a thousand small calls) and never read the answers: each call's work and answer
 * would sit in the server's memory. So the transport hands the SDK at most CALLS_AT_ONCE calls,
 * and a next one only while the client has read its answers (stdout under MAX_UNREAD_BYTES);
 * the others wait, in arrival order. Past CALLS_WAITING waiting, or MAX_WAITING_BYTES of them (a
 * call's line may be 10 MB, the SDK's bound), the server stops reading the client's messages: what
 * it sends next waits in the pipe, in the client's memory. It reads on below half of both.
 *
 * Notifications pass at once (a cancel is never stuck behind calls), and a cancel frees its
 * call's place: the SDK sends no answer to a call that was cancelled.
 *
 * A call whose id an earlier call of the connection had is not run (the protocol says a client
 * never uses an id twice): the SDK runs both, so a `generate` sent twice under one id, by a client
 * that retries after its own timeout, submitted twice, and both answers carried one id. A repeat
 * of a call still waiting or at work is answered by an error without an id (with the id, the
 * client would take it for the first call's answer); a repeat of an answered or cancelled one,
 * among the connection's last IDS_REMEMBERED calls, by an error with its id. Those refusals are
 * answers like any other: they wait their turn behind the unread answers and count among the
 * waiting, so a client that repeats an id and never reads stops being read, as one that calls does.
 */
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_UNREAD_BYTES, outputRoom, type OutputRoom } from './mcp-output-room';

/** Calls worked on at once (an agent sends a few side by side). */
export const CALLS_AT_ONCE = 16;
/** Calls read and waiting their turn before the server stops reading. */
const CALLS_WAITING = 1_000;
/** Bytes of calls (and refusals) read and waiting before the server stops reading. */
export const MAX_WAITING_BYTES = 32 * 1024 * 1024;
/** What a refusal holds beside its id, about: the error's sentence and framing. */
const REFUSAL_BYTES = 320;
/** The ids of the connection's latest calls kept to refuse a repeat (past the calls in flight). */
const IDS_REMEMBERED = 10_000;
/** An id longer than this is remembered by its digest (a line may hold an id of megabytes). */
const LONGEST_KEPT_ID = 128;

/** The JSON-RPC code of an invalid request. */
const INVALID_REQUEST = -32600;

/** How `id` is remembered: its type and text (the SDK tells 1 and "1" apart), a long one hashed. */
function keyOf(id: RequestId): string {
  const text = String(id);
  const kept =
    text.length <= LONGEST_KEPT_ID ? text : `#${createHash('sha256').update(text).digest('hex')}`;
  return `${typeof id}:${kept}`;
}

/** A call read and not yet handed on, with its id's key and about the memory it holds. */
interface WaitingCall {
  readonly message: JSONRPCMessage & { readonly id: RequestId };
  readonly key: string;
  readonly bytes: number;
}

/** A refusal of a repeated id, not yet written (see refuse()). */
interface WaitingRefusal {
  readonly id: RequestId | undefined;
  readonly earlier: Earlier;
  readonly bytes: number;
}

type Earlier = 'is being answered' | 'was answered';

/** `inner` (reading `input`, writing `out`) with its calls handed on a few at a time. */
export class CallGate implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  /** The calls handed on and not yet answered, by their ids' keys. */
  private readonly running = new Set<string>();
  private readonly waiting: WaitingCall[] = [];
  /** Refusals waiting to be written: they need room on the way out, not a place to run. */
  private readonly refusals: WaitingRefusal[] = [];
  /** About the memory the waiting calls and refusals hold (their text's length). */
  private waitingBytes = 0;
  /** The keys of the latest calls' ids, oldest first (IDS_REMEMBERED of them). */
  private readonly remembered = new Set<string>();
  private readingPaused = false;
  private drainAwaited = false;

  /** Room on the stream the answers are written to (get_image waits for it). */
  readonly room: OutputRoom;

  constructor(
    private readonly inner: Transport,
    private readonly input: Readable,
    private readonly out: Writable,
  ) {
    this.room = outputRoom(out);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message) => this.received(message);
    this.inner.onclose = () => {
      this.waiting.length = 0;
      this.refusals.length = 0;
      this.waitingBytes = 0;
      this.onclose?.();
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answered = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const sent = this.inner.send(message, options);
    if (answered && message.id !== undefined) this.ended(message.id);
    await sent;
  }

  private received(message: JSONRPCMessage): void {
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      // Only a cancel of a call the SDK has goes on (see cancelled()).
      if (id === undefined || !this.cancelled(id)) return;
    }
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message);
      return;
    }
    const key = keyOf(message.id);
    if (this.inFlight(key)) return this.refuse(undefined, 'is being answered');
    if (this.remembered.has(key)) return this.refuse(message.id, 'was answered');
    this.remember(key);
    const call = { message, key, bytes: JSON.stringify(message).length };
    this.waiting.push(call);
    this.waited(call.bytes);
  }

  /** Something of `bytes` waits its turn; the reading stops while too many or too much wait. */
  private waited(bytes: number): void {
    this.waitingBytes += bytes;
    this.pump();
    const count = this.waiting.length + this.refusals.length;
    const full = count >= CALLS_WAITING || this.waitingBytes >= MAX_WAITING_BYTES;
    if (full && !this.readingPaused) {
      this.readingPaused = true;
      this.input.pause();
    }
  }

  /** Whether a call under the id of `key` waits or is at work. */
  private inFlight(key: string): boolean {
    return this.running.has(key) || this.waiting.some((call) => call.key === key);
  }

  private remember(key: string): void {
    this.remembered.add(key);
    if (this.remembered.size <= IDS_REMEMBERED) return;
    const oldest = this.remembered.values().next();
    if (oldest.done !== true) this.remembered.delete(oldest.value);
  }

  /** A call under an id an earlier call had: not run, said so in its turn (see the file comment). */
  private refuse(id: RequestId | undefined, earlier: Earlier): void {
    const bytes = REFUSAL_BYTES + (id === undefined ? 0 : String(id).length);
    this.refusals.push({ id, earlier, bytes });
    this.waited(bytes);
  }

  private sendRefusal(id: RequestId | undefined, earlier: Earlier): void {
    const message = `Invalid Request: the call's id is that of an earlier call of this connection, which ${earlier}, so it was not run. Each call needs an id of its own.`;
    const error = { code: INVALID_REQUEST, message };
    void this.inner
      .send(id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error })
      .catch((failed: unknown) => this.onerror?.(failed as Error));
  }

  /**
   * A call was cancelled: its place freed when running, else dropped when still waiting.
   * @returns whether the SDK has the call, so is to hear of the cancel. A cancel of a call it has
   * not (still waiting, or not sent yet: the protocol lets it be ignored) is not passed on: the SDK
   * reads a write's lines in one go and runs the cancel's handler a moment later, so a cancel sent
   * just before its call aborted the call once it was handed on, and its place, held for an answer
   * the SDK never sends, was never freed (CALLS_AT_ONCE of them and no call was answered again).
   */
  private cancelled(id: RequestId): boolean {
    const key = keyOf(id);
    if (this.running.has(key)) {
      this.ended(id);
      return true;
    }
    const at = this.waiting.findIndex((call) => call.key === key);
    if (at >= 0) this.waitingBytes -= this.waiting.splice(at, 1)[0]?.bytes ?? 0;
    return false;
  }

  private ended(id: RequestId): void {
    if (!this.running.delete(keyOf(id))) return;
    this.pump();
  }

  /**
   * Hands on the waiting calls there is room for, and writes the waiting refusals, while the client
   * has read its answers; reads on once few wait.
   */
  private pump(): void {
    for (;;) {
      const refusal = this.refusals.length > 0;
      if (!refusal && (this.waiting.length === 0 || this.running.size >= CALLS_AT_ONCE)) break;
      if (this.out.writableLength > MAX_UNREAD_BYTES) {
        this.pumpOnDrain();
        break;
      }
      const next = refusal ? this.refusals.shift() : this.waiting.shift();
      if (next === undefined) break;
      this.waitingBytes -= next.bytes;
      if ('earlier' in next) this.sendRefusal(next.id, next.earlier);
      else {
        this.running.add(next.key);
        this.onmessage?.(next.message);
      }
    }
    const count = this.waiting.length + this.refusals.length;
    const few = count < CALLS_WAITING / 2 && this.waitingBytes < MAX_WAITING_BYTES / 2;
    if (this.readingPaused && few) {
      this.readingPaused = false;
      this.input.resume();
    }
  }

  private pumpOnDrain(): void {
    if (this.drainAwaited) return;
    this.drainAwaited = true;
    const again = () => {
      this.out.off('drain', again);
      this.out.off('close', again);
      this.drainAwaited = false;
      this.pump();
    };
    this.out.on('drain', again);
    this.out.on('close', again);
  }
}
