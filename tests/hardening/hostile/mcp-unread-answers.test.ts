/**
 * `pictor mcp` under a client that sends calls and never reads the answers. Every answer the
 * server writes and the client has not read sits in stdout's buffer, in the server's memory: the
 * server must stop reading calls once that buffer is over its bound, so the client's writes wait
 * in the pipe, and read on once the client reads. The server's own serveOverStdio and the SDK's
 * server, on streams standing in for stdin and a stdout nobody reads.
 */
import { PassThrough, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it, vi } from 'vitest';
import { serveOverStdio } from '../../../electron/cli/mcp/mcp-server';
import { MAX_UNREAD_BYTES } from '../../../electron/cli/mcp/mcp-output-room';
import { CALLS_AT_ONCE } from '../../../electron/cli/mcp/mcp-call-gate';
import { UNTIL } from '../../support/waits';

/** Each answer's size, and calls whose answers come to four times the bound. */
const ANSWER_BYTES = 64 * 1024;
const CALLS = (4 * MAX_UNREAD_BYTES) / ANSWER_BYTES;

/** A stdout whose reader reads nothing until `read()`; what was written, counted. */
function unreadOutput() {
  const held: Array<() => void> = [];
  let answers = 0;
  const out = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      answers += chunk.toString('utf8').split('\n').length - 1;
      held.push(done);
    },
  });
  return {
    out,
    answers: () => answers,
    /** The client reads everything written so far, and from now on. */
    readAll() {
      for (const done of held.splice(0)) done();
      out._write = (chunk: Buffer, _encoding, done) => {
        answers += chunk.toString('utf8').split('\n').length - 1;
        done();
      };
    },
  };
}

function message(id: number, method: string, params: object): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
}

/** The client's first messages: initialize, and that it is initialized. */
function initialize(): string {
  const params = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'flood', version: '1' },
  };
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  return `${message(0, 'initialize', params)}${JSON.stringify(initialized)}\n`;
}

describe('a client that never reads the answers', () => {
  it('stops reading its calls while over the bound, and answers every one once it reads', async () => {
    const server = new McpServer({ name: 'load', version: '1' });
    server.registerTool('big', { description: 'A large answer.' }, () => ({
      content: [{ type: 'text', text: 'x'.repeat(ANSWER_BYTES) }],
    }));
    const stdin = new PassThrough();
    const output = unreadOutput();
    const interrupt = new AbortController();
    const served = serveOverStdio(server, [], interrupt.signal, { stdin, stdout: output.out });
    stdin.write(initialize());
    for (let id = 1; id <= CALLS; id++) {
      stdin.write(message(id, 'tools/call', { name: 'big', arguments: {} }));
    }
    // Either the server stopped reading, or it holds twice the bound of unread answers.
    await vi.waitFor(
      () =>
        expect(stdin.isPaused() || output.out.writableLength >= 2 * MAX_UNREAD_BYTES).toBe(true),
      { timeout: 30_000 },
    );
    const unread = output.out.writableLength;
    expect(unread, 'bytes of answers held for a client that reads none').toBeLessThan(
      2 * MAX_UNREAD_BYTES,
    );
    output.readAll();
    await vi.waitFor(() => expect(output.answers()).toBe(CALLS + 1), { timeout: 60_000 });
    stdin.end();
    await served;
  }, 120_000);

  it('a call waits while as many as the gate allows run, and runs once they are cancelled', async () => {
    const server = new McpServer({ name: 'load', version: '1' });
    server.registerTool(
      'hold',
      { description: 'Ends when cancelled.' },
      (extra) =>
        new Promise((resolve) => {
          extra.signal.addEventListener('abort', () => resolve({ content: [] }), { once: true });
        }),
    );
    server.registerTool('quick', { description: 'Answers at once.' }, () => ({
      content: [{ type: 'text', text: 'done' }],
    }));
    const stdin = new PassThrough();
    const output = unreadOutput();
    output.readAll();
    const served = serveOverStdio(server, [], new AbortController().signal, {
      stdin,
      stdout: output.out,
    });
    stdin.write(initialize());
    await vi.waitFor(() => expect(output.answers()).toBe(1), UNTIL);
    for (let id = 1; id <= CALLS_AT_ONCE; id++) {
      stdin.write(message(id, 'tools/call', { name: 'hold', arguments: {} }));
    }
    stdin.write(message(CALLS_AT_ONCE + 1, 'tools/call', { name: 'quick', arguments: {} }));
    // The cancels pass the waiting call; each frees its place (the SDK answers none of them).
    for (let id = 1; id <= CALLS_AT_ONCE; id++) {
      const params = { requestId: id, reason: 'enough' };
      stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params })}\n`,
      );
    }
    await vi.waitFor(() => expect(output.answers()).toBe(2), { timeout: 30_000 });
    stdin.end();
    await served;
  });
});
