/**
 * The strict response reader of image downloads reads every well-formed answer as node:http
 * does (the reader it replaced): the same status, status text, headers and body bytes, for the
 * same bytes from a raw loopback host, written whole and one byte per write.
 */
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { deliver, rawHost, type RawHost } from './raw-http-host';

const PNG_HEAD = '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR';
const WELL_FORMED: readonly (readonly [string, string])[] = [
  ['a length', 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 5\r\n\r\nhello'],
  ['a binary body', `HTTP/1.1 200 OK\r\nContent-Length: ${PNG_HEAD.length}\r\n\r\n${PNG_HEAD}`],
  [
    'chunks',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n',
  ],
  [
    'chunks in upper case',
    'HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n',
  ],
  ['a body to the close', 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nuntil the end'],
  ['HTTP/1.0', 'HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc'],
  ['HTTP/1.0 to the close', 'HTTP/1.0 200 OK\r\n\r\nabc'],
  ['a 100 first', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx'],
  [
    'a 103 first',
    'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx',
  ],
  ['a 204', 'HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n'],
  ['a 304', 'HTTP/1.1 304 Not Modified\r\nETag: "1"\r\nContent-Length: 10\r\n\r\n'],
  ['a 404 with a body', 'HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found'],
  ['a redirect', 'HTTP/1.1 302 Found\r\nLocation: /b.png\r\nContent-Length: 0\r\n\r\n'],
  ['a 503', 'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 4\r\n\r\nbusy'],
  [
    'repeated headers',
    'HTTP/1.1 200 OK\r\nx-a: 1\r\nX-A: 2\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 1\r\n\r\nx',
  ],
  [
    'spaces around values',
    'HTTP/1.1 200 OK\r\nX-A:   padded \t\r\nX-B:\r\nContent-Length: 1\r\n\r\nx',
  ],
  ['obs-text in a value', 'HTTP/1.1 200 OK\r\nX-A: caf\xe9\r\nContent-Length: 1\r\n\r\nx'],
  ['an empty reason', 'HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\nx'],
  ['a long reason', 'HTTP/1.1 500 Internal Server Error, truly\r\nContent-Length: 0\r\n\r\n'],
  ['a zero length', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'],
];

interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** node:http's reading of the answer at `path`, in a Response's terms. */
function nodeAnswer(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (message) => {
      const headers = new Headers();
      for (let i = 0; i + 1 < message.rawHeaders.length; i += 2) {
        headers.append(message.rawHeaders[i] ?? '', message.rawHeaders[i + 1] ?? '');
      }
      const chunks: Buffer[] = [];
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      message.on('end', () =>
        resolve({
          status: message.statusCode ?? 0,
          statusText: message.statusMessage ?? '',
          headers: [...headers],
          body: Buffer.concat(chunks).toString('latin1'),
        }),
      );
      message.on('error', reject);
    }).on('error', reject);
  });
}

async function pinnedAnswer(port: number, path: string): Promise<Answer> {
  const response = await createPinnedFetch()(
    `http://127.0.0.1:${port}${path}`,
    { method: 'GET' },
    {
      address: '127.0.0.1',
      family: 4,
    },
  );
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: Buffer.from(await response.arrayBuffer()).toString('latin1'),
  };
}

let host: RawHost;

beforeAll(async () => {
  host = await rawHost(async (socket, head) => {
    const [, index, mode] = /^GET \/(\d+)\/(whole|bytes) /.exec(head) ?? [];
    const bytes = Buffer.from(WELL_FORMED[Number(index)]?.[1] ?? '', 'latin1');
    await deliver(socket, bytes, mode === 'bytes');
  });
});

afterAll(async () => {
  await host.close();
});

describe.each(['whole', 'bytes'])('well formed, written %s', (mode) => {
  it.each(WELL_FORMED.map(([name], index) => [name, index] as const))(
    '%s: as node:http reads it',
    async (_name, index) => {
      const path = `/${index}/${mode}`;
      const expected = await nodeAnswer(host.port, path);
      expect(await pinnedAnswer(host.port, path)).toEqual(expected);
    },
  );
});
