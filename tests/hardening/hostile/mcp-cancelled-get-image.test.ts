/**
 * `pictor mcp`'s get_image, cancelled while it waits. A cancel frees the call's place in the
 * server's gate at once (mcp-call-gate.ts) and the SDK sends no answer for it, but the handler
 * runs on: get_image waited for its turn among the reads at once and for room on stdout, then read
 * its file, made its base64 and its answer for no one — so a client that sends calls and cancels
 * them had the server read files for as long as it liked, past every bound on calls at work. A
 * call cancelled while it waits must read nothing: the gallery file's opens are counted. And it
 * must let its place go at the cancel: one that waited for room held its turn among the reads at
 * once until stdout drained (empty), so a later call that had room waited behind it. The real
 * tools and core in-process (an offline library with real image files), the SDK's own client over
 * its in-memory transport; the room on stdout is held by the test, as a client that does not read
 * holds it.
 */
import { promises as fsPromises } from 'node:fs';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerLibraryTools } from '../../../electron/cli/mcp/mcp-library-tools';
import {
  MAX_UNREAD_BYTES,
  outputRoom,
  type OutputRoom,
} from '../../../electron/cli/mcp/mcp-output-room';
import { offlineCoreWithImage } from '../../support/offline-core';
import { UNTIL } from '../../support/waits';
import { makeImage } from '../../unit/core/history/history-fixtures';

/** The image offlineCoreWithImage saves. */
const IMAGE = makeImage(0);
const REF = 'task-cancelled#1';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts every open of a file whose path ends with `name`, from now on. */
function countOpens(name: string): () => number {
  let opens = 0;
  const original = fsPromises.open.bind(fsPromises);
  vi.spyOn(fsPromises, 'open').mockImplementation((...args: Parameters<typeof original>) => {
    if (args[0].toString().endsWith(name)) opens += 1;
    return original(...args);
  });
  return () => opens;
}

/** A held gate: `wait()` resolves once `open()` was called. */
function heldGate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

/** The library tools on an offline library holding one saved image, with `room` as stdout's. */
async function served(room: OutputRoom) {
  const { core } = await offlineCoreWithImage('task-cancelled');
  const server = new McpServer({ name: 'pictor', version: 'test' });
  registerLibraryTools(server, { core, keys: [], room });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cancelled-get-image', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('a get_image call cancelled while it waits', () => {
  it('reads nothing, whether it waited for room or for its turn', async () => {
    // The first two calls (get_image reads two at a time) wait for room on stdout; the next ones
    // wait for their turn, and then, once they have it, for room again.
    const [first, next] = [heldGate(), heldGate()];
    let roomAsked = 0;
    const client = await served(() => {
      roomAsked += 1;
      return roomAsked <= 2 ? first.wait() : next.wait();
    });
    const opens = countOpens(IMAGE.file ?? '');
    const call = (signal?: AbortSignal) =>
      client.callTool({ name: 'get_image', arguments: { ref: REF, as: 'file' } }, undefined, {
        ...(signal ? { signal } : {}),
      }) as Promise<CallToolResult>;
    // Two calls at work waiting for room, two waiting their turn: all four cancelled.
    const cancels = Array.from({ length: 4 }, () => new AbortController());
    const cancelled = cancels.map((cancel) => call(cancel.signal).catch(() => 'cancelled'));
    await vi.waitFor(() => expect(roomAsked).toBe(2), UNTIL);
    for (const cancel of cancels) cancel.abort('enough');
    expect(await Promise.all(cancelled)).toEqual(Array(4).fill('cancelled'));
    // Two calls still asked for, sent after the cancels (the server reads its messages in order).
    const asked = [call(), call()];
    first.open();
    // Both asked calls at work at once: every cancelled call has let its turn go.
    await vi.waitFor(() => expect(roomAsked).toBe(4), UNTIL);
    expect(opens(), 'opens of the image file by cancelled calls').toBe(0);
    next.open();
    for (const answered of await Promise.all(asked)) {
      expect(answered.isError, JSON.stringify(answered.content).slice(0, 200)).not.toBe(true);
      expect(answered.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    }
    expect(opens(), 'one open for each call still asked for').toBe(2);
    // A call cancelled while it waited its turn did not wait for room either.
    expect(roomAsked, 'room waited for by the calls still asked for alone').toBe(4);
    await client.close();
  }, 120_000);

  it('lets its turn go at the cancel: a later call with room is answered before stdout drains', async () => {
    // A stdout holding a megabyte over the bound the client has not read, piece by piece.
    const piece = Buffer.alloc(1024 * 1024);
    const unread: Array<() => void> = [];
    const stdout = new Writable({ write: (_chunk, _encoding, read) => unread.push(read) });
    for (let written = 0; written <= MAX_UNREAD_BYTES; written += piece.length) stdout.write(piece);
    const client = await served(outputRoom(stdout));
    const opens = countOpens(IMAGE.file ?? '');
    const call = (signal?: AbortSignal) =>
      client.callTool({ name: 'get_image', arguments: { ref: REF, as: 'file' } }, undefined, {
        ...(signal ? { signal } : {}),
      }) as Promise<CallToolResult>;
    // Both reads at once taken by calls waiting for room (each listens for stdout's drain).
    const cancels = [new AbortController(), new AbortController()];
    const cancelled = cancels.map((cancel) => call(cancel.signal).catch(() => 'cancelled'));
    await vi.waitFor(() => expect(stdout.listenerCount('drain')).toBe(2), UNTIL);
    for (const cancel of cancels) cancel.abort('enough');
    expect(await Promise.all(cancelled)).toEqual(['cancelled', 'cancelled']);
    // The client reads two pieces: under the bound, not drained (Node says 'drain' when empty).
    for (const read of unread.splice(0, 2)) read();
    await vi.waitFor(
      () => expect(stdout.writableLength).toBeLessThanOrEqual(MAX_UNREAD_BYTES),
      UNTIL,
    );
    expect(stdout.writableLength, 'bytes still unread').toBeGreaterThan(0);
    const later = await call();
    expect(later.isError, JSON.stringify(later.content).slice(0, 200)).not.toBe(true);
    expect(later.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(opens(), 'opens: the later call alone').toBe(1);
    expect(stdout.listenerCount('drain'), "listeners left on stdout's drain").toBe(0);
    await client.close();
  }, 120_000);
});
