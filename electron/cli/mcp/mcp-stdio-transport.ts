/**
 * `pictor mcp`'s stdio transport: the SDK's StdioServerTransport's rules (one JSON-RPC message a
 * line, 10 MB at most held of an unended line, a line that is no message reported and passed
 * over, a line past the limit closing the transport) with two of its parts done otherwise:
 *
 * - Reading: the lines are cut by {@link LineReader}, which searches each byte once. The SDK's
 *   ReadBuffer joined and searched its whole buffer again for each chunk, n² in a line's length.
 * - Writing: each answer is written with the write's own callback. The SDK waits for a full
 *   stdout by adding a `drain` listener per answer: with answers the client does not read (the
 *   call gate lets up to 16 MB of them wait, mcp-call-gate.ts), that was a listener per answer,
 *   tens of thousands of closures on the stream and Node's MaxListenersExceededWarning on stderr.
 *   The promise settles as the SDK's does: at once when the stream took the answer under its
 *   mark, else once it was written (or failed: a closed reader, whose EPIPE the CLI hears,
 *   cli/main.ts).
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './line-reader';

export class StdioAnswerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly lines = new LineReader();
  private started = false;

  constructor(
    private readonly calls: Readable,
    private readonly answers: Writable,
  ) {}

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('The stdio transport has already started.'));
    this.started = true;
    this.calls.on('data', this.received);
    this.calls.on('error', this.failed);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.answers.write(serializeMessage(message), () => resolve())) resolve();
    });
  }

  close(): Promise<void> {
    this.calls.off('data', this.received);
    this.calls.off('error', this.failed);
    // Paused only when nothing else reads the stream, as the SDK's transport does.
    if (this.calls.listenerCount('data') === 0) this.calls.pause();
    this.lines.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly received = (chunk: Buffer | string): void => {
    try {
      this.lines.append(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    } catch (error) {
      // Past the limit: the framing is lost, and nothing more is read.
      this.onerror?.(asError(error));
      void this.close();
      return;
    }
    for (let line = this.lines.next(); line !== null; line = this.lines.next()) {
      // A line that is no message, or a message its reader threw on, is reported and passed over.
      try {
        this.onmessage?.(deserializeMessage(line));
      } catch (error) {
        this.onerror?.(asError(error));
      }
    }
  };

  private readonly failed = (error: Error): void => {
    this.onerror?.(error);
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
