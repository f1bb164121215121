/**
 * The protocol handlers' bridge over loopback HTTP (tests/support/response-bridge.ts): a handler's
 * Response arrives whole over HTTP/1.1 and HTTP/2, and a body the product errors mid-way ends that
 * request alone: the server answers the next one, and the process sees no unhandled 'error' (the
 * bench's own copy, without the handler, died of one when the image page was starved).
 */
import { createServer, type Server } from 'node:http';
import { connect, createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendResponse, type Outgoing } from '../../support/response-bridge';

/** The product's sentence when a job's file is left unread (electron/core/images). */
const UNREAD = 'The page left the file unread.';

function answerFor(path: string): Response {
  if (path === '/fails') {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new Error(UNREAD));
        else controller.enqueue(new TextEncoder().encode('first piece'));
        sent = true;
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'image/png' } });
  }
  if (path === '/empty') return new Response(null, { status: 204 });
  return new Response('whole body', { status: 201, headers: { 'X-Pictor-Test': 'kept' } });
}

const servers: (Server | Http2Server)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: Server | Http2Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const handler = (incoming: { url?: string }, outgoing: Outgoing) =>
  sendResponse(answerFor(incoming.url ?? '/'), outgoing);

describe('sendResponse over HTTP/1.1', () => {
  it('sends the status, the headers and the body', async () => {
    const origin = await listen(createServer(handler));
    const whole = await fetch(`${origin}/whole`);
    expect(whole.status).toBe(201);
    expect(whole.headers.get('x-pictor-test')).toBe('kept');
    expect(await whole.text()).toBe('whole body');
    const empty = await fetch(`${origin}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('ends a request whose body errors, and answers the next', async () => {
    const origin = await listen(createServer(handler));
    const failing = await fetch(`${origin}/fails`);
    expect(failing.status).toBe(200);
    await expect(failing.arrayBuffer()).rejects.toThrow();
    const next = await fetch(`${origin}/whole`);
    expect(await next.text()).toBe('whole body');
  });
});

describe('sendResponse over HTTP/2', () => {
  it('sends the status, the headers and the body, and ends a body that errors alone', async () => {
    const origin = await listen(createHttp2Server(handler));
    const session = connect(origin);
    try {
      const get = (path: string) =>
        new Promise<{ status: unknown; header: unknown; body: string; ended: boolean }>(
          (resolve) => {
            const stream = session.request({ ':path': path });
            const pieces: Buffer[] = [];
            let status: unknown;
            let header: unknown;
            let ended = false;
            stream.on('response', (headers) => {
              status = headers[':status'];
              header = headers['x-pictor-test'];
            });
            stream.on('data', (piece: Buffer) => pieces.push(piece));
            stream.on('end', () => (ended = true));
            // A reset stream's error is this test's answer, read from `ended`.
            stream.on('error', () => undefined);
            stream.on('close', () =>
              resolve({ status, header, body: Buffer.concat(pieces).toString(), ended }),
            );
          },
        );
      expect(await get('/whole')).toEqual({
        status: 201,
        header: 'kept',
        body: 'whole body',
        ended: true,
      });
      expect((await get('/fails')).ended).toBe(false);
      expect((await get('/whole')).body).toBe('whole body');
    } finally {
      session.close();
    }
  });
});
