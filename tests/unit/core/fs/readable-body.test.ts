/**
 * readableBody: a web body over a Node readable that hands on what the source holds (a chunk that
 * comes alone as it came, no copy; chunks that waited together in one piece), leaves the source
 * unread under backpressure, hands on a body framed a byte a chunk a socket read at a time (over
 * real loopback HTTP), errors when the source ends early (a cut connection) and destroys the
 * source when the reader gives up.
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readableBody } from '../../../../electron/core/fs/readable-body';
import { chunkedBody } from '../../../support/chunked-body';

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** node:http's message for a GET of a loopback server that answers with `wire` and closes. */
async function messageOf(wire: Buffer): Promise<{ message: IncomingMessage; close(): void }> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(wire));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const message = await new Promise<IncomingMessage>((resolve, reject) =>
    request({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject).end(),
  );
  return { message, close: () => server.close() };
}

describe('readableBody', () => {
  it('hands on a chunk that comes alone as the source gave it, not a copy', async () => {
    const given = [Buffer.from('first chunk'), Buffer.from('second')];
    const chunks = await readAll(readableBody(Readable.from(given, { objectMode: false })));
    expect(chunks).toHaveLength(2);
    // The same memory: Readable.toWeb would give copies (other ArrayBuffers).
    expect(chunks[0]!.buffer).toBe(given[0]!.buffer);
    expect(chunks[1]!.buffer).toBe(given[1]!.buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first chunksecond');
  });

  it('hands on a body framed a byte a chunk a socket read at a time, over real HTTP', async () => {
    const body = Buffer.alloc(100_000);
    for (let i = 0; i < body.length; i += 1) body[i] = (i * 7 + (i >> 9)) & 0xff;
    const head = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n';
    const wire = Buffer.concat([
      Buffer.from(head),
      chunkedBody(body, () => 1),
      Buffer.from('0\r\n\r\n'),
    ]);
    const { message, close } = await messageOf(wire);
    try {
      const pieces = await readAll(readableBody(message));
      expect(Buffer.concat(pieces).equals(body)).toBe(true);
      // A piece a chunk was 100,000 of them; a socket read's worth each, a few dozen.
      expect(pieces.length).toBeLessThan(body.length / 1000);
    } finally {
      close();
    }
  });

  it('leaves the source unread while the reader is behind, and reads on when asked', async () => {
    const source = new PassThrough();
    const body = readableBody(source, 8);
    source.write(Buffer.alloc(16, 1));
    await new Promise((resolve) => setImmediate(resolve));
    source.write(Buffer.alloc(16, 2));
    await new Promise((resolve) => setImmediate(resolve));
    // The first 16 bytes queued for the reader (past 8: no more is taken); the next 16 wait in
    // the source's own buffer.
    expect(source.readableLength).toBe(16);
    const reader = body.getReader();
    expect(Buffer.from((await reader.read()).value!).equals(Buffer.alloc(16, 1))).toBe(true);
    expect(Buffer.from((await reader.read()).value!).equals(Buffer.alloc(16, 2))).toBe(true);
    expect(source.readableLength).toBe(0);
    source.end();
    expect((await reader.read()).done).toBe(true);
  });

  it('errors the body when a connection is cut before the end, over real HTTP', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(100));
      setImmediate(() => res.socket?.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const message = await new Promise<IncomingMessage>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject).end(),
      );
      await expect(readAll(readableBody(message))).rejects.toThrow();
    } finally {
      server.close();
    }
  });

  it('destroys the source when the reader cancels', async () => {
    const source = new PassThrough();
    const body = readableBody(source);
    source.write(Buffer.from('a'));
    await body.cancel();
    expect(source.destroyed).toBe(true);
  });
});
