/**
 * `pictor mcp` under a client that sends more than the server should hold: large calls while every
 * place to run is taken, and one id again and again while it never reads the answers (whose
 * refusals, many small writes, must not each leave a listener on stdout either). What the
 * server has read and not yet run or written is its memory; past MAX_WAITING_BYTES (or the unread
 * answers' bound, for refusals) it must stop reading, so the rest waits in the pipe, and answer
 * everything once the client lets it. The server's own serveOverStdio and the SDK's server, on
 * streams standing in for stdin and stdout.
 */
import { PassThrough, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it, vi } from 'vitest';
import { serveOverStdio } from '../../../electron/cli/mcp/mcp-server';
import { MAX_UNREAD_BYTES } from '../../../electron/cli/mcp/mcp-output-room';
import { CALLS_AT_ONCE, MAX_WAITING_BYTES } from '../../../electron/cli/mcp/mcp-call-gate';
import { UNTIL } from '../../support/waits';

/** A stdout whose reader stops at `stop()` and reads on at `readAll()`; its answers, by line. */
function heldOutput(reading: boolean) {
  const held: Array<() => void> = [];
  let answers = 0;
  let read = reading;
  const out = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      answers += chunk.toString('utf8').split('\n').length - 1;
      if (read) done();
      else held.push(done);
    },
  });
  return {
    out,
    answers: () => answers,
    stop() {
      read = false;
    },
    readAll() {
      read = true;
      for (const done of held.splice(0)) done();
    },
  };
}

function line(message: object): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
}

function initialize(): string {
  const params = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'read-ahead', version: '1' },
  };
  return `${line({ id: 0, method: 'initialize', params })}${line({ method: 'notifications/initialized' })}`;
}

/** A server with a `quick` tool (and what `more` registers) served on streams of the test's. */
function serving(more: (server: McpServer) => void = () => undefined) {
  const server = new McpServer({ name: 'ahead', version: '1' });
  more(server);
  server.registerTool('quick', { description: 'Answers at once.' }, () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  const stdin = new PassThrough();
  const output = heldOutput(true);
  const served = serveOverStdio(server, [], new AbortController().signal, {
    stdin,
    stdout: output.out,
  });
  stdin.write(initialize());
  return { stdin, output, served };
}

/** Bytes the client wrote that the server has not taken from the pipe yet. */
function unreadInput(stdin: PassThrough): number {
  return stdin.readableLength + stdin.writableLength;
}

describe('what the server reads ahead', () => {
  it('stops reading large calls once MAX_WAITING_BYTES of them wait, and runs every one later', async () => {
    const release: Array<() => void> = [];
    const { stdin, output, served } = serving((server) =>
      server.registerTool(
        'hold',
        { description: 'Ends when the test releases it.' },
        () => new Promise((resolve) => release.push(() => resolve({ content: [] }))),
      ),
    );
    for (let id = 1; id <= CALLS_AT_ONCE; id++) {
      stdin.write(line({ id, method: 'tools/call', params: { name: 'hold', arguments: {} } }));
    }
    await vi.waitFor(() => expect(release).toHaveLength(CALLS_AT_ONCE), UNTIL);
    // Twice the bound in calls of 1 MiB each: few calls, so the count of waiting ones never stops it.
    const pad = 'p'.repeat(1024 * 1024);
    const large = (2 * MAX_WAITING_BYTES) / pad.length;
    let written = 0;
    for (let n = 0; n < large; n++) {
      const id = CALLS_AT_ONCE + 1 + n;
      const call = line({
        id,
        method: 'tools/call',
        params: { name: 'quick', arguments: { pad } },
      });
      written += call.length;
      stdin.write(call);
    }
    await vi.waitFor(() => expect(stdin.isPaused()).toBe(true), { timeout: 30_000 });
    // What the server took from the pipe: the bound and at most a call or two past it.
    const taken = written - unreadInput(stdin);
    expect(taken, 'bytes of waiting calls read in').toBeLessThan(
      MAX_WAITING_BYTES + 4 * pad.length,
    );
    for (const done of release.splice(0)) done();
    await vi.waitFor(() => expect(output.answers()).toBe(1 + CALLS_AT_ONCE + large), {
      timeout: 60_000,
    });
    stdin.end();
    await served;
  }, 120_000);

  it('a repeated id while answers go unread: the refusals wait their turn, and the reading stops', async () => {
    const { stdin, output, served } = serving();
    // A long id, answered once, then sent again and again: each refusal carries it back.
    const id = 'i'.repeat(64 * 1024);
    const call = line({ id, method: 'tools/call', params: { name: 'quick', arguments: {} } });
    stdin.write(call);
    await vi.waitFor(() => expect(output.answers()).toBe(2), UNTIL);
    output.stop();
    const repeats = Math.ceil((4 * MAX_UNREAD_BYTES) / id.length);
    for (let n = 0; n < repeats; n++) stdin.write(call);
    // Either the server stopped reading, or it holds twice the bound of unread refusals.
    await vi.waitFor(
      () =>
        expect(stdin.isPaused() || output.out.writableLength >= 2 * MAX_UNREAD_BYTES).toBe(true),
      { timeout: 30_000 },
    );
    expect(
      output.out.writableLength,
      'bytes of refusals held for a client that reads none',
    ).toBeLessThan(2 * MAX_UNREAD_BYTES);
    // They wait in the stream's buffer, not as a listener each on it (mcp-stdio-transport.ts).
    expect(output.out.listenerCount('drain'), 'drain listeners on stdout').toBeLessThanOrEqual(2);
    output.readAll();
    await vi.waitFor(() => expect(output.answers()).toBe(2 + repeats), { timeout: 60_000 });
    stdin.end();
    await served;
  }, 120_000);
});
