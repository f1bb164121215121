/**
 * `pictor mcp` under a client that sends a call's cancel before the call itself, both in one write.
 * The SDK reads a write's lines in one go and runs a cancel's handler a moment later, once the call
 * after it has been handed on: the call is aborted and answered by no one. The call gate, which had
 * let the cancel through as naming no call of its own, held the call's place for an answer that
 * never came, so CALLS_AT_ONCE such pairs left no place: every later call waited for ever. The
 * server's own serveOverStdio and the SDK's server, on streams standing in for stdin and stdout.
 */
import { PassThrough, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect, it, vi } from 'vitest';
import { CALLS_AT_ONCE } from '../../../electron/cli/mcp/mcp-call-gate';
import { serveOverStdio } from '../../../electron/cli/mcp/mcp-server';
import { UNTIL } from '../../support/waits';

function line(message: object): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
}

const INITIALIZE = line({
  id: 'init',
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'early-cancels', version: '1' },
  },
});

it('a cancel sent before its call holds no place: later calls are answered', async () => {
  const server = new McpServer({ name: 'early-cancels', version: '1' });
  server.registerTool('quick', { description: 'Answers at once.' }, () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  const stdin = new PassThrough();
  const ids: unknown[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
        ids.push((JSON.parse(text) as { id?: unknown }).id);
      }
      done();
    },
  });
  const served = serveOverStdio(server, [], new AbortController().signal, { stdin, stdout });
  stdin.write(INITIALIZE + line({ method: 'notifications/initialized' }));
  await vi.waitFor(() => expect(ids).toEqual(['init']), UNTIL);
  const call = (id: number | string) =>
    line({ id, method: 'tools/call', params: { name: 'quick', arguments: {} } });
  for (let id = 1; id <= CALLS_AT_ONCE; id++) {
    const cancel = line({ method: 'notifications/cancelled', params: { requestId: id } });
    stdin.write(cancel + call(id));
  }
  stdin.write(call('after'));
  await vi.waitFor(() => expect(ids).toContain('after'), UNTIL);
  // A cancel naming no call the server has is ignored (the protocol allows it): each call runs.
  expect(ids).toHaveLength(CALLS_AT_ONCE + 2);
  stdin.end();
  await served;
});
