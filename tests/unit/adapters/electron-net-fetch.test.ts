import { describe, expect, it } from 'vitest';
import { createElectronFetch } from '../../../electron/adapters/electron-net-fetch';
import type { ElectronNet, ElectronSessions } from '../../../electron/adapters/electron-net-fetch';
import { fakeSessions, scriptedNet } from './electron-net-fake';

function setup() {
  const net = scriptedNet();
  const sessions = fakeSessions(net);
  return {
    net,
    sessions,
    fetch: createElectronFetch(
      net as unknown as ElectronNet,
      sessions as unknown as ElectronSessions,
    ),
  };
}

/** Lets the adapter get from `await body` to `net.request`. */
async function requested(net: ReturnType<typeof scriptedNet>) {
  for (let i = 0; i < 20 && net.requests.length === 0; i += 1) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  return net.last();
}

describe('redirect: manual goes through net.request', () => {
  it('sends the method, headers, body and manual mode', async () => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/v1/images/generations', {
      method: 'post',
      headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
      body: '{"prompt":"fox"}',
      redirect: 'manual',
    });
    const request = await requested(net);
    expect(request.options).toEqual({
      url: 'https://api.test/v1/images/generations',
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      credentials: 'include',
    });
    expect(request.body?.toString()).toBe('{"prompt":"fox"}');
    request.respond(200, { 'content-type': 'application/json' }).push(null);
    expect((await pending).status).toBe(200);
    expect(net.fetched).toEqual([]);
  });

  it('sends a form as multipart bytes with its own boundary in the Content-Type (the uploads)', async () => {
    const { net, fetch } = setup();
    const form = new FormData();
    form.append('key', 'dir/photo.png');
    form.append(
      'file',
      new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }),
      'photo.png',
    );
    const pending = fetch('https://oss.test/', {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    const request = await requested(net);
    const type = String(request.options.headers?.['content-type'] ?? '');
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    // The bytes parse back as the same form under that Content-Type: parts in order, file last.
    const parsed = await new Response(new Uint8Array(request.body ?? Buffer.alloc(0)), {
      headers: { 'content-type': type },
    }).formData();
    expect([...parsed.keys()]).toEqual(['key', 'file']);
    expect(parsed.get('key')).toBe('dir/photo.png');
    const file = parsed.get('file') as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    request.respond(200, {}).push(null);
    expect((await pending).status).toBe(200);
  });

  it('passes credentials: omit and the cache mode on', async () => {
    const { net, fetch } = setup();
    void fetch('https://cdn.test/a.png', {
      redirect: 'manual',
      credentials: 'omit',
      cache: 'no-store',
    });
    const request = await requested(net);
    expect(request.options).toMatchObject({
      credentials: 'omit',
      cache: 'no-store',
      method: 'GET',
    });
    expect(request.body).toBeNull();
  });

  it('a redirect becomes the 3xx response with its headers and an absolute Location', async () => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/v1/tasks/1', { redirect: 'manual' });
    const request = await requested(net);
    request.redirect(307, 'https://api.test/moved/v1/tasks/1', {
      location: ['/moved/v1/tasks/1'],
      'retry-after': ['3'],
      'set-cookie': ['a=1', 'b=2'],
    });
    const response = await pending;
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('https://api.test/moved/v1/tasks/1');
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.body).toBeNull();
    // Ended quietly, not "Redirect was cancelled".
    expect(request.aborted).toBe(true);
  });

  it('streams a response body with status text and repeated headers', async () => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/x', { redirect: 'manual' });
    const request = await requested(net);
    const body = request.respond(
      503,
      { 'x-many': ['a', 'b'], 'content-type': 'text/plain' },
      'Busy',
    );
    const response = await pending;
    expect(response.status).toBe(503);
    expect(response.statusText).toBe('Busy');
    expect(response.headers.get('x-many')).toBe('a, b');
    body.push('hello ');
    body.push('world');
    body.push(null);
    expect(await response.text()).toBe('hello world');
  });

  it.each([204, 304])('%i has no body', async (status) => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/x', { redirect: 'manual' });
    (await requested(net)).respond(status);
    expect((await pending).body).toBeNull();
  });

  it('HEAD has no body', async () => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/x', { redirect: 'manual', method: 'HEAD' });
    (await requested(net)).respond(200);
    expect((await pending).body).toBeNull();
  });

  it('a network error rejects with Chromium’s error as it is (the core reads its code)', async () => {
    const { net, fetch } = setup();
    const pending = fetch('https://api.test/x', { redirect: 'manual' });
    (await requested(net)).emit('error', new Error('net::ERR_CONNECTION_REFUSED'));
    await expect(pending).rejects.toThrow('net::ERR_CONNECTION_REFUSED');
  });

  it('a URL net.request refuses rejects', async () => {
    const { fetch } = setup();
    await expect(fetch('ftp://x.test/a', { redirect: 'manual' })).rejects.toThrow(/only supports/);
  });

  it('an already aborted signal rejects with its reason and sends nothing', async () => {
    const { net, fetch } = setup();
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(
      fetch('https://api.test/x', { redirect: 'manual', signal: controller.signal }),
    ).rejects.toThrow('shutting down');
    expect(net.requests).toEqual([]);
  });

  it('an abort before the answer rejects with the reason and aborts the request', async () => {
    const { net, fetch } = setup();
    const controller = new AbortController();
    const pending = fetch('https://api.test/x', { redirect: 'manual', signal: controller.signal });
    const request = await requested(net);
    controller.abort(new Error('timeout'));
    await expect(pending).rejects.toThrow('timeout');
    expect(request.aborted).toBe(true);
  });

  it('an abort while the body streams errors the body', async () => {
    const { net, fetch } = setup();
    const controller = new AbortController();
    const pending = fetch('https://api.test/x', { redirect: 'manual', signal: controller.signal });
    const request = await requested(net);
    request.respond(200).push('partial');
    const response = await pending;
    const reading = response.text();
    controller.abort(new Error('timeout'));
    await expect(reading).rejects.toThrow('timeout');
    expect(request.aborted).toBe(true);
  });
});

describe('requests to this computer never go through a proxy', () => {
  const LOOPBACK = [
    'http://127.0.0.1:8080/v1/tasks/a',
    'http://127.9.8.7:8080/v1/tasks/a',
    'http://localhost:8080/v1/tasks/a',
    'http://[::1]:8080/v1/tasks/a',
    'https://gateway.localhost/v1/tasks/a',
  ];

  it.each(LOOPBACK)('%s goes through a session whose proxy is set to direct first', async (url) => {
    const { net, sessions, fetch } = setup();
    await fetch(url);
    const pending = fetch(url, { redirect: 'manual' });
    const request = await requested(net);
    expect(sessions.events).toEqual([
      'setProxy pictor-loopback {"mode":"direct"}',
      `fetch pictor-loopback ${url}`,
    ]);
    expect(sessions.made.get('pictor-loopback')?.options).toEqual({ cache: false });
    // The manual request is made in that session too.
    expect(request.options.session).toBe(sessions.made.get('pictor-loopback'));
    request.respond(200).push(null);
    await pending;
  });

  it('other hosts go through the default session, with its proxy settings', async () => {
    const { net, sessions, fetch } = setup();
    await fetch('https://api.test/v1/tasks/a');
    void fetch('https://api.test/v1/tasks/a', { redirect: 'manual' });
    expect((await requested(net)).options.session).toBeUndefined();
    expect(net.fetched.map(([url]) => url)).toEqual(['https://api.test/v1/tasks/a']);
    expect(sessions.events).toEqual([]);
  });
});

describe('other redirect modes go to net.fetch unchanged', () => {
  it.each([undefined, 'follow', 'error'] as const)('redirect: %s', async (redirect) => {
    const { net, fetch } = setup();
    const init = redirect ? { redirect } : undefined;
    const response = await fetch('https://api.test/x', init);
    expect(await response.text()).toBe('from net.fetch');
    expect(net.fetched).toEqual([['https://api.test/x', init]]);
    expect(net.requests).toEqual([]);
  });
});
