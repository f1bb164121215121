/**
 * readableBody: a web body over a Node readable that hands on the very chunks the source gave
 * (no copy), pauses the source under backpressure, errors when the source ends early (a cut
 * connection, over real loopback HTTP) and destroys it when the reader gives up.
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readableBody } from '../../../../electron/core/fs/readable-body';

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe('readableBody', () => {
  it('hands on each chunk as the source gave it, not a copy', async () => {
    const given = [Buffer.from('first chunk'), Buffer.from('second')];
    const chunks = await readAll(readableBody(Readable.from(given, { objectMode: false })));
    expect(chunks).toHaveLength(2);
    // The same memory: Readable.toWeb would give copies (other ArrayBuffers).
    expect(chunks[0]!.buffer).toBe(given[0]!.buffer);
    expect(chunks[1]!.buffer).toBe(given[1]!.buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first chunksecond');
  });

  it('pauses the source while the reader is behind, and resumes it when asked', async () => {
    const source = new PassThrough();
    const body = readableBody(source, 8);
    source.write(Buffer.alloc(16));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    const reader = body.getReader();
    expect((await reader.read()).value?.byteLength).toBe(16);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(false);
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
