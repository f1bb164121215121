/**
 * A TLS host that sends a small answer whole and closes its connection before the download asks
 * for the body (the head is judged first, the file made): the body is still read byte for byte,
 * by the download's own pump and through a `Response` stream, framed by its length, by chunks or
 * by the close. TLS reads the socket's end (and the socket closes) while the parsed piece waits
 * for its reader (pinned-exchange.ts), and the exchange gave its read buffers back at the close:
 * the piece was dropped and the body read as empty, a success (a stream) or "not an image" (the
 * download). Plain HTTP cannot meet this: a paused socket does not read its end, so it stays
 * open until the body is read (strict-response-body.test.ts reads those).
 */
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttemptAbort } from '../../../../electron/core/download/attempt-abort';
import { bodyToFile } from '../../../../electron/core/download/body-to-file';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { chunkedBody } from '../../../support/chunked-body';
import { removeFolder, tempFolder } from '../../../support/temp-folders';
import { rawTlsHost, selfSigned, until, type Certificate, type RawHost } from './raw-http-host';

const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('\x00\x00\x00\rIHDR a small image whose answer fits one read', 'latin1'),
]);

const ANSWERS: Record<string, Buffer> = {
  '/length': Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${PNG.length}\r\n\r\n`),
    PNG,
  ]),
  '/chunked': Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
    chunkedBody(PNG, () => 7),
    Buffer.from('0\r\n\r\n'),
  ]),
  '/close': Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), PNG]),
};

const respond = (socket: Socket, head: string) => {
  const path = /^GET (\S+) /.exec(head)?.[1] ?? '';
  socket.end(ANSWERS[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
};

let certificate: Certificate;
let host: RawHost;
let dir: string;
const aborts: AttemptAbort[] = [];

beforeAll(async () => {
  certificate = await selfSigned();
  host = await rawTlsHost(certificate, respond);
});
afterAll(async () => {
  await host.close();
});
beforeEach(async () => {
  dir = await tempFolder('answer-whole');
});
afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.dispose();
  await removeFolder(dir);
});

const tcpSockets = () =>
  process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;

/** The answer's head, once both ends of its connection have closed. */
async function headThenClosed(path: string, signal?: AbortSignal) {
  const baseline = tcpSockets();
  const fetch = createPinnedFetch({ ca: certificate.cert });
  const closes = host.closed.length + 1;
  const url = `https://${certificate.name}:${host.port}${path}`;
  const response = await fetch(url, signal ? { signal } : {}, LOOPBACK);
  await until(() => host.closed.length >= closes && tcpSockets() <= baseline);
  return response;
}

describe('answered whole over TLS, closed before the body is read', () => {
  it.each(Object.keys(ANSWERS))('%s: the download reads it byte for byte', async (path) => {
    const abort = new AttemptAbort(60_000);
    aborts.push(abort);
    const response = await headThenClosed(path, abort.signal);
    const file = join(dir, `${path.slice(1)}.part`);
    const result = await bodyToFile(response, file, { maxBytes: 1024 * 1024, abort });
    expect(result).toEqual({ ok: true, kind: 'png', bytes: PNG.length });
    expect((await readFile(file)).equals(PNG)).toBe(true);
  });

  it.each(Object.keys(ANSWERS))('%s: a Response stream reads it byte for byte', async (path) => {
    const response = await headThenClosed(path);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });
});
