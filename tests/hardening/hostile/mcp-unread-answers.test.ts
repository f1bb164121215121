/**
 * `pictor mcp` under a client that sends calls and never reads the answers. Every answer the
 * server writes and the client has not read sits in stdout's buffer, in the server's memory: the
 * server must hand on no call once that buffer is over its bound (the calls it has read wait, and
 * past their own limit the client's writes wait in the pipe), and go on once the client reads.
 * The server's own serveOverStdio and the SDK's server, on streams standing in for stdin and a
 * stdout nobody reads.
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
      // The writer first: the held write's callback hands the stream's next chunk to it at once.
      out._write = (chunk: Buffer, _encoding, done) => {
        answers += chunk.toString('utf8').split('\n').length - 1;
        done();
      };
      for (const done of held.splice(0)) done();
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
  it('hands on no call while its unread answers are over the bound, and answers every one once it reads', async () => {
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
    // The server answers until what the client has not read passes the bound (its reading of
    // calls has stopped long before, at the waiting calls' own limit: that proves nothing here)…
    await vi.waitFor(
      () => expect(output.out.writableLength).toBeGreaterThan(MAX_UNREAD_BYTES),
      UNTIL,
    );
    // …then hands the SDK no more calls: the answers stop once the calls already running end.
    // (A gate that ignored the bound would go on to all of them, four times the bound.)
    let before = -1;
    await vi.waitFor(
      () => {
        const now = output.out.writableLength;
        const still = now === before;
        before = now;
        expect(still || now >= 2 * MAX_UNREAD_BYTES).toBe(true);
      },
      { timeout: UNTIL.timeout, interval: 200 },
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
