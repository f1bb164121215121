/**
 * `pictor mcp`'s room on the way out (mcp-output-room.ts) is the room on the stream its answers
 * are written to: the stdout serveOverStdio is given, not the process's. It was tied to
 * process.stdout whatever serveOverStdio wrote to, so a server given another stream (a test's, a
 * socket's) waited on a stream it never wrote to, and never on its own. Here the process's
 * stdout looks over the bound (a reader that stopped) while the given stream is read at once:
 * get_image answers. The real server and core in-process (an offline library with a real image),
 * on streams standing in for stdin and stdout.
 */
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpServer, serveOverStdio } from '../../../electron/cli/mcp/mcp-server';
import { MAX_UNREAD_BYTES } from '../../../electron/cli/mcp/mcp-output-room';
import { DEMO_ENDPOINT } from '../../../shared/domain/submit-target';
import { StaticCredentials } from '../../fakes/static-credentials';
import { offlineCoreWithImage } from '../../support/offline-core';
import { UNTIL } from '../../support/waits';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The server on an offline library holding one saved image (its file and thumbnail). */
async function serverWithImage() {
  const { core } = await offlineCoreWithImage('task-given');
  const target = { provider: 'pictor' as const, endpoint: DEMO_ENDPOINT };
  return createMcpServer({
    core,
    credentials: new StaticCredentials(target.endpoint, null),
    target,
    limits: { maxSpendMicros: null, maxTasks: 10 },
    keys: [],
    version: 'test',
  });
}

function message(id: number, method: string, params: object): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
}

describe('serveOverStdio given streams of its own', () => {
  it("waits for room on the stdout it writes to, not the process's", async () => {
    const server = await serverWithImage();
    // The process's stdout as a client that stopped reading leaves it: over the bound.
    vi.spyOn(process.stdout, 'writableLength', 'get').mockReturnValue(2 * MAX_UNREAD_BYTES);
    const lines: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const stdin = new PassThrough();
    const served = serveOverStdio(server, [], new AbortController().signal, { stdin, stdout });
    const clientInfo = { name: 'given-stdout', version: '1' };
    stdin.write(
      message(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo }),
    );
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(
      message(1, 'tools/call', { name: 'get_image', arguments: { ref: 'task-given#1' } }),
    );
    await vi.waitFor(() => expect(lines).toHaveLength(2), UNTIL);
    const answer = JSON.parse(lines[1]!) as { id: number; result: { content: { type: string }[] } };
    expect(answer.id).toBe(1);
    expect(answer.result.content[0]).toMatchObject({ type: 'image' });
    stdin.end();
    await served;
  });
});
