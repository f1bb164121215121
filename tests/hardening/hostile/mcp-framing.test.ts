/**
 * `pictor mcp`'s stdio framing under a client that writes what it likes: lines that are no
 * JSON-RPC message (no JSON, a batch array, ids of odd types, JSON nested a million deep), and a
 * line that never ends. The real CLI as a child process over raw pipes: no SDK client tidies what
 * is sent.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { REPO_ROOT, childEnv, newDataDir } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { UNTIL } from '../../support/waits';

let dataDir = '';
let home = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  dataDir = await newDataDir('mcp-framing-data');
  home = await tempFolder('mcp-framing-home');
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await removeFolder(dataDir);
  await removeFolder(home);
});

/** `pictor mcp --provider demo` over raw pipes, with its stdout and stderr kept. */
function server() {
  const child = spawn(
    process.execPath,
    [...nodeEntryArgs('cli'), 'mcp', '--provider', 'demo', '--data-dir', dataDir],
    { cwd: REPO_ROOT, env: childEnv({ home }) },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    exited,
    send: (line: string) => child.stdin.write(`${line}\n`),
    /** The answers so far, one parsed message a line. */
    answers: () =>
      out
        .split('\n')
        .filter((line) => line !== '')
        .map(
          (line) =>
            JSON.parse(line) as {
              jsonrpc?: string;
              id?: unknown;
              result?: unknown;
              error?: unknown;
            },
        ),
    stderr: () => err,
  };
}

/** A line longer than the SDK's 10 MB read buffer, had the server read it all. */
const LONG_LINE_MB = 64;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

describe('stdio framing', () => {
  it('skips lines that are no message, and answers the next call', async () => {
    const mcp = server();
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    for (const line of [
      'not json',
      '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":[1],"method":"tools/list"}',
      deep,
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deep}}`,
      '{"jsonrpc":"2.0","id":2,"method":"no/such/method"}',
      '{"jsonrpc":"1.0","id":3,"method":"tools/list"}',
    ]) {
      mcp.send(line);
    }
    mcp.send(INITIALIZE);
    mcp.send('{"jsonrpc":"2.0","id":"after","method":"tools/list"}');
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('after'), {
      timeout: 30_000,
    });
    // Only the calls that were messages are answered; nothing said on stderr but the start.
    expect(mcp.answers().map((answered) => answered.id)).toEqual([2, 'init', 'after']);
    expect(mcp.stderr()).not.toMatch(/\n\s+at |Error/);
    // Text a hostile service or library put in an answer is data: the agent is told so.
    const init = mcp.answers().find((answered) => answered.id === 'init');
    expect(JSON.stringify(init?.result)).toContain('data from the library and its services');
  }, 60_000);

  it('a call sent again under its id: run once, the repeat refused, generate submitting once', async () => {
    const mcp = server();
    mcp.send(INITIALIZE);
    mcp.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const call = (id: string, name: string, args: object) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args },
      });
    const kite = call('g', 'generate', { prompt: 'a kite' });
    // A client that retries before the answer came, and once more after it came.
    mcp.child.stdin.write(`${kite}\n${kite}\n`);
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('g'), {
      timeout: 60_000,
    });
    mcp.send(kite);
    mcp.send(call('list', 'list_tasks', {}));
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('list'), {
      timeout: 60_000,
    });
    const answers = mcp.answers();
    const listed = answers.find((a) => a.id === 'list')?.result as {
      content: { text: string }[];
    };
    const { tasks } = JSON.parse(listed.content[0]!.text) as { tasks: unknown[] };
    expect(tasks, 'tasks submitted by one id sent three times').toHaveLength(1);
    const [first, again] = answers.filter((a) => a.id === 'g');
    expect(first?.result).toBeDefined();
    // The repeat while the first was at work: an error without an id, not a second answer to 'g'.
    expect(answers.filter((a) => a.id === undefined)).toEqual([
      { jsonrpc: '2.0', error: expect.objectContaining({ code: -32600 }) },
    ]);
    expect(again).toMatchObject({ error: { code: -32600 } });
    // An id too long to keep as it is (remembered by its digest), sent again after its answer.
    const long = 'i'.repeat(300_000);
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: long, method: 'tools/list' }));
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain(long), UNTIL);
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: long, method: 'tools/list' }));
    await vi.waitFor(
      () => expect(mcp.answers().filter((a) => a.id === long)).toHaveLength(2),
      UNTIL,
    );
    expect(mcp.answers().filter((a) => a.id === long)[1]).toMatchObject({
      error: { code: -32600 },
    });
  }, 120_000);

  it('a generate cancelled before its submit sends nothing', async () => {
    const mcp = server();
    mcp.send(INITIALIZE);
    mcp.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const kite = { name: 'generate', arguments: { prompt: 'a kite' } };
    const cancel = { requestId: 'g', reason: 'timed out' };
    // One write: the cancel is read before the call's work begins (the SDK answers neither).
    mcp.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'g', method: 'tools/call', params: kite })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancel })}\n`,
    );
    // A call after it, on the same path: once it is answered, the cancelled one went its way.
    const boat = { name: 'generate', arguments: { prompt: 'a boat' } };
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: 'h', method: 'tools/call', params: boat }));
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('h'), UNTIL);
    const list = { name: 'list_tasks', arguments: {} };
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/call', params: list }));
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('list'), UNTIL);
    const listed = mcp.answers().find((a) => a.id === 'list')?.result as {
      content: { text: string }[];
    };
    const { tasks } = JSON.parse(listed.content[0]!.text) as { tasks: { prompt: string }[] };
    expect(
      tasks.map((task) => task.prompt),
      'the tasks sent',
    ).toEqual(['a boat']);
    expect(mcp.answers().map((a) => a.id)).not.toContain('g');
  }, 120_000);

  it('a call written in pieces of any size, a byte at a time among them, is read whole', async () => {
    const mcp = server();
    mcp.send(INITIALIZE);
    await vi.waitFor(() => expect(mcp.answers()).toHaveLength(1), UNTIL);
    // An id of characters of 2, 3 and 4 bytes, which the pieces cut inside; 4 MiB of padding.
    const id = 'é€😀'.repeat(100);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/list',
      params: { _meta: { pad: 'p'.repeat(4 * 1024 * 1024) } },
    });
    const bytes = Buffer.from(`${call}\n{"jsonrpc":"2.0","id":"next","method":"tools/list"}\n`);
    const write = (piece: Buffer) =>
      new Promise<void>((written, failed) =>
        mcp.child.stdin.write(piece, (error) => (error ? failed(error) : written())),
      );
    // The first kilobyte a byte at a time (each written before the next), the rest in pieces
    // of 1 byte to 64 KiB.
    let at = 0;
    for (; at < 1024; at += 1) await write(bytes.subarray(at, at + 1));
    for (let size = 1; at < bytes.length; size = (size * 7) % 65_536 || 1) {
      await write(bytes.subarray(at, at + size));
      at += size;
    }
    await vi.waitFor(() => expect(mcp.answers().map((a) => a.id)).toContain('next'), UNTIL);
    expect(mcp.answers().map((a) => a.id)).toEqual(['init', id, 'next']);
    expect(mcp.stderr()).not.toMatch(/\n\s+at |Error/);
  }, 60_000);

  it("a line that never ends: the server reads at most the SDK's 10 MB of it, then ends", async () => {
    const mcp = server();
    mcp.send(INITIALIZE);
    await vi.waitFor(() => expect(mcp.answers()).toHaveLength(1), { timeout: 30_000 });
    const megabyte = 'x'.repeat(1024 * 1024);
    let written = 0;
    // Written as a client does: each megabyte once the pipe took the last, until the server ends.
    while (mcp.child.exitCode === null && written < LONG_LINE_MB) {
      if (!mcp.child.stdin.write(megabyte)) {
        await new Promise((resolve) => {
          mcp.child.stdin.once('drain', resolve);
          mcp.child.once('exit', resolve);
        });
      }
      written += 1;
    }
    expect(written, 'MB of one line written before the server ended').toBeLessThan(LONG_LINE_MB);
    await mcp.exited;
    expect(mcp.stderr()).not.toMatch(/\n\s+at /);
  }, 60_000);
});
