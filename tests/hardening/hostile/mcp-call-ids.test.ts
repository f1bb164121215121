/**
 * `pictor mcp`'s call gate under a client that plays with its calls' ids (mcp-call-gate.ts): ids
 * that are one to JSON but spelt apart (-0 and 0, 1.0 and 1), ids of two types that print alike
 * (1 and "1"), and an id sent again after more calls than the gate remembers. A repeat is refused
 * (-32600) however it is spelt, two ids are two calls however alike they print, and what the gate
 * remembers is bounded: an id older than the last 10,000 calls is run again, as README says. The
 * server's own serveOverStdio and the SDK's server, on streams standing in for stdin and stdout.
 */
import { PassThrough, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect, it, vi } from 'vitest';
import { serveOverStdio } from '../../../electron/cli/mcp/mcp-server';
import { UNTIL } from '../../support/waits';

/** How many of the latest calls' ids the gate refuses again (README, mcp-call-gate.ts). */
const IDS_REMEMBERED = 10_000;

interface Answer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number };
}

/** A server over streams, its answers kept in order; `write` sends raw lines. */
async function connected() {
  const server = new McpServer({ name: 'ids', version: '1' });
  const stdin = new PassThrough();
  const answers: Answer[] = [];
  let rest = '';
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const text of lines) answers.push(JSON.parse(text) as Answer);
      done();
    },
  });
  const served = serveOverStdio(server, [], new AbortController().signal, { stdin, stdout });
  const init = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'ids', version: '1' },
  };
  stdin.write(
    `${ping('init', 'initialize', init)}{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
  );
  await vi.waitFor(() => expect(answers).toHaveLength(1), UNTIL);
  answers.length = 0;
  return {
    answers,
    write: (text: string) => stdin.write(text),
    async end() {
      stdin.end();
      await served;
    },
  };
}

/** A call line with `id` spelt as given (raw JSON text), a ping unless named. */
function ping(id: string, method = 'ping', params: object = {}): string {
  const spelt = id.startsWith('"') || /^[-0-9]/.test(id) ? id : JSON.stringify(id);
  return `{"jsonrpc":"2.0","id":${spelt},"method":"${method}","params":${JSON.stringify(params)}}\n`;
}

/** What each answer was, in order: its id and `ok` or its error's code. */
const verdicts = (answers: readonly Answer[]) =>
  answers.map((answer) => [answer.id, answer.error?.code ?? 'ok']);

it('ids one to JSON are one call; ids that print alike but differ in type are two', async () => {
  const mcp = await connected();
  const spellings = ['-0', '0', '1.0', '1', '"1"', '1e0', '"-0"'];
  for (const [index, spelt] of spellings.entries()) {
    // One at a time: each repeat meets an answered call, refused with its id.
    mcp.write(ping(spelt));
    await vi.waitFor(() => expect(mcp.answers).toHaveLength(index + 1), UNTIL);
  }
  expect(verdicts(mcp.answers)).toEqual([
    [0, 'ok'],
    [0, -32600],
    [1, 'ok'],
    [1, -32600],
    ['1', 'ok'],
    [1, -32600],
    ['-0', 'ok'],
  ]);
  await mcp.end();
});

it('an id is refused again among the last 10,000 calls, and forgotten past them', async () => {
  const mcp = await connected();
  mcp.write(ping('first') + ping('second'));
  const others = Array.from({ length: IDS_REMEMBERED - 1 }, (_, i) => ping(`other-${i}`));
  mcp.write(others.join(''));
  await vi.waitFor(() => expect(mcp.answers).toHaveLength(IDS_REMEMBERED + 1), UNTIL);
  // 10,001 calls since 'first': it is forgotten; 'second' is the oldest the gate remembers.
  mcp.answers.length = 0;
  mcp.write(ping('second'));
  await vi.waitFor(() => expect(mcp.answers).toHaveLength(1), UNTIL);
  mcp.write(ping('first'));
  await vi.waitFor(() => expect(mcp.answers).toHaveLength(2), UNTIL);
  expect(verdicts(mcp.answers)).toEqual([
    ['second', -32600],
    ['first', 'ok'],
  ]);
  await mcp.end();
});
