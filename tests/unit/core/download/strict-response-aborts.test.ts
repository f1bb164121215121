/**
 * The signal of an image download stops its socket at every phase (connecting, the TLS
 * handshake, the head, the body read by the download's pump or by a stream): the request or its
 * body rejects with the signal's reason, the host sees its connection closed, and nothing is
 * left open or thrown elsewhere.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { AttemptAbort } from '../../../../electron/core/download/attempt-abort';
import { bodyToFile } from '../../../../electron/core/download/body-to-file';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { rawHost, selfSigned, until, type Certificate, type RawHost } from './raw-http-host';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;
const PNG_START = '\x89PNG\r\n\x1a\n';

/** What the host writes for each path, and then keeps the connection open. */
const STALLS: Record<string, string> = {
  '/head': 'HTTP/1.1 200 OK\r\nContent-',
  '/body': `HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n${PNG_START}half`,
  '/chunks': `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n${PNG_START}12345678\r\n`,
};

let host: RawHost;
let certificate: Certificate;
let dir: string;

beforeAll(async () => {
  certificate = await selfSigned();
  host = await rawHost((socket, head) => {
    const path = /^GET (\S+) /.exec(head)?.[1] ?? '';
    socket.write(Buffer.from(STALLS[path] ?? '', 'latin1'));
  });
});
afterAll(async () => {
  await host.close();
});
beforeEach(async () => {
  dir = await tempFolder('gallery');
});
afterEach(async () => {
  await removeFolder(dir);
});

const tcpSockets = () =>
  process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;

/** Waits until the host has seen `closes` more of its connections close. */
const closedAfter = (closes: number) => until(() => host.closed.length >= closes);

describe('aborted', () => {
  it('while connecting', async () => {
    const baseline = tcpSockets();
    const controller = new AbortController();
    const reason = new Error('stopped while connecting');
    const signal = controller.signal;
    // Aborts the moment the request listens to its signal: its socket has just been made.
    const listen = signal.addEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof listen>) => {
      listen(...args);
      if (args[0] === 'abort') controller.abort(reason);
    }) as typeof signal.addEventListener;
    const asking = createPinnedFetch()(`http://127.0.0.1:${host.port}/head`, { signal }, LOOPBACK);
    await expect(asking).rejects.toBe(reason);
    await until(() => tcpSockets() <= baseline);
  });

  it('during the TLS handshake', async () => {
    const closes = host.closed.length;
    const controller = new AbortController();
    const reason = new Error('stopped in the handshake');
    // A plain host never answers the ClientHello: the handshake waits.
    const asking = createPinnedFetch({ ca: certificate.cert })(
      `https://${certificate.name}:${host.port}/head`,
      { signal: controller.signal },
      LOOPBACK,
    );
    const bytes = host.seen.bytes;
    await until(() => host.seen.bytes > bytes);
    controller.abort(reason);
    await expect(asking).rejects.toBe(reason);
    await closedAfter(closes + 1);
  });

  it('in the head', async () => {
    const closes = host.closed.length;
    const heads = host.heads.length;
    const controller = new AbortController();
    const reason = new Error('stopped in the head');
    const asking = createPinnedFetch()(
      `http://127.0.0.1:${host.port}/head`,
      { signal: controller.signal },
      LOOPBACK,
    );
    await until(() => host.heads.length > heads);
    controller.abort(reason);
    await expect(asking).rejects.toBe(reason);
    await closedAfter(closes + 1);
  });

  it.each(['/body', '/chunks'])('in the body %s, read by a stream', async (path) => {
    const closes = host.closed.length;
    const controller = new AbortController();
    const reason = new Error('stopped in the body');
    const response = await createPinnedFetch()(
      `http://127.0.0.1:${host.port}${path}`,
      { signal: controller.signal },
      LOOPBACK,
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    const next = reader.read();
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
    await closedAfter(closes + 1);
  });

  it.each(['/body', '/chunks'])('in the body %s, read by the download', async (path) => {
    const closes = host.closed.length;
    const user = new AbortController();
    const abort = new AttemptAbort(60_000, user.signal);
    try {
      const response = await createPinnedFetch()(
        `http://127.0.0.1:${host.port}${path}`,
        { signal: abort.signal },
        LOOPBACK,
      );
      const writing = bodyToFile(response, join(dir, 'body.part'), { maxBytes: 1 << 20, abort });
      user.abort(new Error('stopped in the body'));
      const result = await writing;
      expect(result).toMatchObject({ ok: false, outcome: { state: 'retry' } });
      expect(abort.failure(null, 'receiving')).toEqual(!result.ok && result.outcome);
      await closedAfter(closes + 1);
    } finally {
      abort.dispose();
    }
  });
});
