/**
 * An image download's body through the strict reader arrives byte for byte: 8 MB over plain HTTP
 * and TLS, by length and by chunks, into the download's own file (each piece a view of the
 * socket's kept read buffer, copied into the write buffer) and through a `Response` stream; a
 * slow disk pauses the socket instead of letting a read overwrite a piece not yet taken; the
 * socket reads into a few kept buffers, not a new one per read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttemptAbort } from '../../../../electron/core/download/attempt-abort';
import { bodyToFile, type BodySink } from '../../../../electron/core/download/body-to-file';
import { PinnedExchange } from '../../../../electron/core/download/pinned-exchange';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { rawHost, rawTlsHost, selfSigned, type Certificate, type RawHost } from './raw-http-host';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BODY = Buffer.concat([PNG_SIGNATURE, randomBytes(8 * 1024 * 1024 - 8)]);
const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;

/** Writes `bytes` in pieces of uneven sizes (1 byte to 100 KB), waiting for each to drain. */
async function unevenly(socket: Socket, bytes: Buffer, chunked: boolean): Promise<void> {
  const head = chunked
    ? 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'
    : `HTTP/1.1 200 OK\r\nContent-Length: ${bytes.length}\r\n\r\n`;
  socket.write(head);
  const sizes = [1, 7, 1500, 16 * 1024, 65 * 1024, 100 * 1024, 3];
  for (let at = 0, turn = 0; at < bytes.length; turn += 1) {
    const piece = bytes.subarray(at, at + (sizes[turn % sizes.length] ?? 1));
    at += piece.length;
    const framed = chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece;
    if (!socket.write(framed)) await new Promise((resolve) => socket.once('drain', resolve));
  }
  socket.end(chunked ? '0\r\n\r\n' : '');
}

const respond = (socket: Socket, head: string) => unevenly(socket, BODY, head.includes('chunked'));

let certificate: Certificate;
let plain: RawHost;
let secure: RawHost;
let dir: string;
const aborts: AttemptAbort[] = [];

beforeAll(async () => {
  certificate = await selfSigned();
  plain = await rawHost(respond);
  secure = await rawTlsHost(certificate, respond);
});
afterAll(async () => {
  await Promise.all([plain.close(), secure.close()]);
});
beforeEach(async () => {
  dir = await tempFolder('gallery');
});
afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.dispose();
  await removeFolder(dir);
});

function urlOf(scheme: 'http' | 'https', path: string): string {
  const port = scheme === 'http' ? plain.port : secure.port;
  const host = scheme === 'http' ? '127.0.0.1' : certificate.name;
  return `${scheme}://${host}:${port}${path}`;
}

async function download(scheme: 'http' | 'https', path: string, sink?: BodySink) {
  const abort = new AttemptAbort(60_000);
  aborts.push(abort);
  const fetch = createPinnedFetch({ ca: certificate.cert });
  const response = await fetch(urlOf(scheme, path), { signal: abort.signal }, LOOPBACK);
  const file = join(dir, 'body.part');
  const limits = { maxBytes: 64 * 1024 * 1024, abort, ...(sink ? { sink } : {}) };
  return { result: await bodyToFile(response, file, limits), file, response };
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(['http', 'https'] as const)('8 MB over %s', (scheme) => {
  it.each(['/length', '/chunked'])('%s: into the file, byte for byte', async (path) => {
    const { result, file, response } = await download(scheme, path);
    expect(result).toEqual({ ok: true, kind: 'png', bytes: BODY.length });
    expect(digest(await readFile(file))).toBe(digest(BODY));
    // Taken from the socket's buffer by the pump itself: the copying stream was never read.
    expect(response.bodyUsed).toBe(false);
  });

  it('through a Response stream, byte for byte', async () => {
    const fetch = createPinnedFetch({ ca: certificate.cert });
    const response = await fetch(urlOf(scheme, '/chunked'), {}, LOOPBACK);
    expect(digest(new Uint8Array(await response.arrayBuffer()))).toBe(digest(BODY));
  });

  it('to a slow disk: the socket waits for each write, no piece is overwritten', async () => {
    const written: Buffer[] = [];
    const slow: BodySink = {
      async write(piece) {
        // Several turns of the event loop per write: reads would land meanwhile if not paused.
        for (let turn = 0; turn < 5; turn += 1) await new Promise((r) => setImmediate(r));
        written.push(Buffer.from(piece));
      },
    };
    const { result } = await download(scheme, '/length', slow);
    expect(result).toEqual({ ok: true, kind: 'png', bytes: BODY.length });
    expect(digest(Buffer.concat(written))).toBe(digest(BODY));
  });

  it('reads into a few kept buffers, the same ones download after download', async () => {
    const buffers = new Set<ArrayBufferLike>();
    let pieces = 0;
    for (let run = 0; run < 10; run += 1) {
      const exchange = new PinnedExchange({
        url: new URL(urlOf(scheme, '/length')),
        method: 'GET',
        headers: new Headers(),
        address: LOOPBACK,
        ca: certificate.cert,
      });
      await exchange.head;
      const hash = createHash('sha256');
      await exchange.pipe((piece) => {
        pieces += 1;
        buffers.add(piece.buffer);
        hash.update(piece);
        // Every fourth piece is taken later, as a write buffer being written would be; reads
        // that still land meanwhile (TLS decrypts what it has) go to another kept buffer.
        return pieces % 4 === 0 ? new Promise((r) => setImmediate(r)) : null;
      });
      expect(hash.digest('hex')).toBe(digest(BODY));
    }
    expect(pieces).toBeGreaterThan(1000);
    expect(buffers.size).toBeLessThanOrEqual(8);
  });
});
