/**
 * How many of a client's calls the server works on at once, and how many it reads ahead. The SDK
 * runs every call it is handed at once, and a client may send thousands in one write (a pipe's
 * chunk holds a thousand small calls) and never read the answers: each call's work and answer
 * would sit in the server's memory. So the transport hands the SDK at most CALLS_AT_ONCE calls,
 * and a next one only while the client has read its answers (stdout under MAX_UNREAD_BYTES);
 * the others wait, in arrival order. Past CALLS_WAITING waiting, the server stops reading the
 * client's messages: what it sends next waits in the pipe, in the client's memory.
 *
 * Notifications pass at once (a cancel is never stuck behind calls), and a cancel frees its
 * call's place: the SDK sends no answer to a call that was cancelled.
 */
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
import { MAX_UNREAD_BYTES } from './mcp-output-room';

/** Calls worked on at once (an agent sends a few side by side). */
export const CALLS_AT_ONCE = 16;
/** Calls read and waiting their turn before the server stops reading. */
const CALLS_WAITING = 1_000;

function keyOf(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

/** `inner` (reading `input`, writing `out`) with its calls handed on a few at a time. */
export class CallGate implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  /** The calls handed on and not yet answered, by id (an id sent twice counts twice). */
  private readonly running = new Map<string, number>();
  private runningCount = 0;
  private readonly waiting: JSONRPCMessage[] = [];
  private readingPaused = false;
  private drainAwaited = false;

  constructor(
    private readonly inner: Transport,
    private readonly input: Readable,
    private readonly out: Writable,
  ) {}

  start(): Promise<void> {
    this.inner.onmessage = (message) => this.received(message);
    this.inner.onclose = () => {
      this.waiting.length = 0;
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
      if (id !== undefined) this.cancelled(id);
    }
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message);
      return;
    }
    this.waiting.push(message);
    this.pump();
    if (this.waiting.length >= CALLS_WAITING && !this.readingPaused) {
      this.readingPaused = true;
      this.input.pause();
    }
  }

  /** A call was cancelled: its place freed when running, else dropped when still waiting. */
  private cancelled(id: RequestId): void {
    if (this.running.has(keyOf(id))) return this.ended(id);
    const at = this.waiting.findIndex((one) => isJSONRPCRequest(one) && one.id === id);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  private ended(id: RequestId): void {
    const key = keyOf(id);
    const count = this.running.get(key);
    if (count === undefined) return;
    if (count > 1) this.running.set(key, count - 1);
    else this.running.delete(key);
    this.runningCount -= 1;
    this.pump();
  }

  /** Hands on the waiting calls there is room for; reads on once few wait. */
  private pump(): void {
    while (this.runningCount < CALLS_AT_ONCE) {
      if (this.waiting.length > 0 && this.out.writableLength > MAX_UNREAD_BYTES) {
        this.pumpOnDrain();
        break;
      }
      const next = this.waiting.shift();
      if (next === undefined) break;
      if (isJSONRPCRequest(next)) {
        const key = keyOf(next.id);
        this.running.set(key, (this.running.get(key) ?? 0) + 1);
        this.runningCount += 1;
      }
      this.onmessage?.(next);
    }
    if (this.readingPaused && this.waiting.length < CALLS_WAITING / 2) {
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
