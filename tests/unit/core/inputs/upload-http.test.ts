/**
 * The two requests of an upload against a minimal loopback server: the keyed one goes only where
 * the key may (under the base URL, or an origin listed for it) and is never redirected; the signed
 * one never carries the key, and a target at a private address, or one that asks for the key, is
 * refused before anything is sent. Answers are read with a limit. A signed target's name is
 * resolved once and the bytes go to the address checked, byte for byte, over the pinned
 * connection: a DNS that answers another address the second time (a "LAN host" on 127.0.0.2 at
 * the same port) never gets them, and the service's own fetch never carries them.
 */
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { InputStore } from '../../../../electron/core/inputs/input-store';
import { formBody, imageBody } from '../../../../electron/core/inputs/upload-body';
import type { InputImage } from '../../../../shared/domain/image-inputs';
import {
  MAX_UPLOAD_ANSWER_BYTES,
  keyMayReach,
  keyedRequest,
  signedRequest,
  type UploadCall,
} from '../../../../electron/core/inputs/upload-http';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { readForm } from '../../../../electron/demo-service/multipart';
import type { FetchLike, PinnedFetch, ResolvedAddress } from '../../../../electron/ports/http';
import {
  startServer,
  type Handler,
  type ListenAt,
  type TestServer,
} from '../../../support/http-servers';
import { resolvingFetch, scriptedResolver } from '../../../support/pinned-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const KEY = 'fal-key-0123456789-abcdef';
const NAME = 'storage.pictor.test';
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(handler: Handler, at?: ListenAt): Promise<TestServer> {
  const server = await startServer(handler, at);
  closers.push(() => server.close());
  return server;
}

function callAt(baseUrl: string, keyOrigins: readonly string[] = []): UploadCall {
  return {
    fetch,
    signedFetch: createPinnedFetch(),
    resolve: async (host) => [{ address: host === 'localhost' ? '127.0.0.1' : host, family: 4 }],
    baseUrl,
    key: KEY,
    authHeaders: { Authorization: `Key ${KEY}` },
    keyOrigins,
    service: 'fal',
    signal: new AbortController().signal,
  };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('where the key may go', () => {
  it('under the base URL, or https at a listed origin; nowhere else', () => {
    const base = 'https://proxy.example/fal';
    expect(keyMayReach('https://proxy.example/fal/storage/upload', base, [])).toBe(true);
    expect(keyMayReach('https://proxy.example/other', base, [])).toBe(false);
    expect(keyMayReach('https://proxy.example/fal/%2e%2e/x', base, [])).toBe(false);
    const listed = ['https://rest.alpha.fal.ai'];
    expect(keyMayReach('https://rest.alpha.fal.ai/storage/upload/initiate', base, listed)).toBe(
      true,
    );
    expect(keyMayReach('http://rest.alpha.fal.ai/storage/upload/initiate', base, listed)).toBe(
      false,
    );
    expect(keyMayReach('https://u:p@rest.alpha.fal.ai/x', base, listed)).toBe(false);
    expect(keyMayReach('https://rest.alpha.fal.ai.evil.example/x', base, listed)).toBe(false);
  });
});

describe('keyedRequest', () => {
  it('sends the key under the base URL and reads the JSON answer', async () => {
    const at = await serve((_, res) => res.end('{"ok":true}'));
    const answer = await keyedRequest(callAt(at.origin), { method: 'GET', url: `${at.origin}/up` });
    expect(answer).toEqual({ ok: true });
    expect(at.requests[0]?.headers.authorization).toBe(`Key ${KEY}`);
  });

  it('refuses an address outside the base URL before sending, and never follows a redirect', async () => {
    const at = await serve((_, res) => {
      res.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    const outside = await refusal(
      keyedRequest(callAt(`${at.origin}/base`), { method: 'GET', url: `${at.origin}/up` }),
    );
    expect(outside.sentence?.key).toBe('error.inputs.uploadTarget');
    expect(at.requests).toEqual([]);
    const moved = await refusal(
      keyedRequest(callAt(at.origin), { method: 'GET', url: `${at.origin}/up` }),
    );
    expect([moved.sentence?.key, moved.httpStatus]).toEqual(['error.inputs.uploadRejected', 302]);
    expect(at.requests).toHaveLength(1);
  });

  it('refuses an answer over the limit, and says 4xx without the key', async () => {
    const at = await serve((req, res) => {
      if (req.url === '/big') res.end(`"${'x'.repeat(MAX_UPLOAD_ANSWER_BYTES)}"`);
      else {
        res.writeHead(413);
        res.end(`too large for ${KEY}`);
      }
    });
    const big = await refusal(
      keyedRequest(callAt(at.origin), { method: 'GET', url: `${at.origin}/big` }),
    );
    expect(big.sentence?.key).toBe('error.inputs.uploadAnswer');
    const rejected = await refusal(
      keyedRequest(callAt(at.origin), { method: 'GET', url: `${at.origin}/small` }),
    );
    expect([rejected.kind, rejected.httpStatus]).toEqual(['bad_request', 413]);
  });
});

describe('signedRequest', () => {
  it('sends the bytes with no key and no Authorization header', async () => {
    const at = await serve((_, res) => res.end());
    await signedRequest(callAt(at.origin), {
      method: 'PUT',
      url: `${at.origin}/signed?token=abc`,
      headers: { 'Content-Type': 'image/png' },
      body: 'png-bytes',
    });
    const seen = at.requests[0];
    expect(seen?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(KEY);
  });

  it.each([
    ['a private address', 'http://10.1.2.3/upload', {}],
    ['loopback beside a public service', 'LOOPBACK', {}],
    ['an address that names the key', `LOOPBACK?sig=${KEY}`, {}],
    ['a header that asks for the key', 'LOOPBACK', { Authorization: 'Bearer x' }],
  ])('refuses %s before sending', async (what, target, headers) => {
    const at = await serve((_, res) => res.end());
    const url = target.replace('LOOPBACK', `${at.origin}/signed`);
    const publicBase = what === 'loopback beside a public service';
    const call = callAt(publicBase ? 'https://api.example.com' : at.origin);
    const refused = await refusal(signedRequest(call, { method: 'PUT', url, headers, body: 'x' }));
    expect(refused.sentence?.key).toBe('error.inputs.uploadTarget');
    expect(JSON.stringify(refused.sentence)).not.toContain(KEY);
    expect(at.requests).toEqual([]);
  });
});

/** A server on 127.0.0.2 at `port`: a host on the user's network, which must never be reached. */
async function lanHostAt(port: number): Promise<TestServer['requests']> {
  return (await serve((_, res) => res.end(), { host: '127.0.0.2', port })).requests;
}

/**
 * A call whose signed target is named `NAME`: a DNS that answers the storage's loopback address
 * first and the LAN host after, the service's fetch resolving through that DNS too (as a fetch
 * that resolves on its own would), and the pins the signed request made.
 */
function rebindingCall(storage: TestServer) {
  const dns = scriptedResolver({ [NAME]: [['127.0.0.1'], ['127.0.0.2']] });
  const serviceFetches: string[] = [];
  const serviceFetch: FetchLike = (url, init) => {
    serviceFetches.push(url);
    return resolvingFetch(dns)(url, init);
  };
  const pins: ResolvedAddress[] = [];
  const real = createPinnedFetch();
  const signedFetch: PinnedFetch = (url, init, address) => {
    pins.push(address);
    return real(url, init, address);
  };
  const call = { ...callAt(storage.origin), fetch: serviceFetch, resolve: dns, signedFetch };
  return { call, dns, serviceFetches, pins, target: `http://${NAME}:${storage.port}` };
}

/** A real PNG of noise (5 KB and more), kept in a real input store the bodies read it from. */
let PNG_LIKE: Buffer;
let store: InputStore;
let image: InputImage;
beforeAll(async () => {
  const noise = Buffer.from(Array.from({ length: 40 * 40 * 3 }, (_, index) => (index * 13) % 256));
  PNG_LIKE = await sharp(noise, { raw: { width: 40, height: 40, channels: 3 } })
    .png()
    .toBuffer();
  const folder = await tempFolder('upload-http');
  store = new InputStore({ root: folder });
  image = await store.put(PNG_LIKE);
  return () => removeFolder(folder);
});

describe('signedRequest over a DNS that answers differently the second time', () => {
  it('PUTs the bytes only to the address checked, asking the DNS once', async () => {
    const storage = await serve((_, res) => res.end());
    const lan = await lanHostAt(storage.port);
    const { call, dns, serviceFetches, pins, target } = rebindingCall(storage);
    await signedRequest(call, {
      method: 'PUT',
      url: `${target}/fal/1?token=abc`,
      body: imageBody(store, image),
    });
    expect(lan).toEqual([]);
    expect(dns.asked).toEqual([NAME]);
    expect(pins).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(serviceFetches).toEqual([]);
    const seen = storage.requests[0];
    expect([seen?.method, seen?.url, seen?.headers.host]).toEqual([
      'PUT',
      '/fal/1?token=abc',
      `${NAME}:${storage.port}`,
    ]);
    expect(seen?.headers['content-type']).toBe('image/png');
    expect(seen?.bytes.equals(PNG_LIKE)).toBe(true);
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.bytes.includes(KEY)).toBe(false);
  });

  it('POSTs the form only to the address checked, every part byte for byte', async () => {
    const storage = await serve((_, res) => res.end());
    const lan = await lanHostAt(storage.port);
    const { call, dns, target } = rebindingCall(storage);
    const form = formBody(
      store,
      image,
      [
        ['policy', 'cG9saWN5'],
        ['key', 'dashscope-instant/a/b.png'],
      ],
      { field: 'file', fileName: 'b.png' },
    );
    await signedRequest(call, { method: 'POST', url: target, body: form });
    expect([lan, dns.asked]).toEqual([[], [NAME]]);
    const seen = storage.requests[0];
    const parts = readForm(seen?.headers['content-type'], seen?.bytes ?? Buffer.alloc(0));
    expect(parts?.map((part) => [part.name, part.fileName, part.contentType])).toEqual([
      ['policy', undefined, undefined],
      ['key', undefined, undefined],
      ['file', 'b.png', 'image/png'],
    ]);
    expect(parts?.[2]?.value.equals(PNG_LIKE)).toBe(true);
    expect(seen?.headers.authorization).toBeUndefined();
  });

  it('refuses a name with any answer outside the policy, asking once and sending nothing', async () => {
    const storage = await serve((_, res) => res.end());
    const dns = scriptedResolver({ [NAME]: [['127.0.0.1', '192.168.1.20']] });
    const call = { ...callAt(storage.origin), resolve: dns };
    const url = `http://${NAME}:${storage.port}/fal/1`;
    const refused = await refusal(signedRequest(call, { method: 'PUT', url, body: 'x' }));
    expect(refused.sentence?.key).toBe('error.inputs.uploadTarget');
    expect([dns.asked, storage.requests]).toEqual([[NAME], []]);
  });
});

describe('signedRequest answers', () => {
  it('never follows a redirect from the signed target', async () => {
    const elsewhere = await serve((_, res) => res.end());
    const storage = await serve((_, res) => {
      res.writeHead(307, { Location: `${elsewhere.origin}/stolen` });
      res.end();
    });
    const moved = await refusal(
      signedRequest(callAt(storage.origin), {
        method: 'PUT',
        url: `${storage.origin}/fal/1`,
        body: imageBody(store, image),
      }),
    );
    expect([moved.sentence?.key, moved.httpStatus]).toEqual(['error.inputs.uploadRejected', 307]);
    expect(storage.requests).toHaveLength(1);
    expect(elsewhere.requests).toEqual([]);
  });

  it('cuts an answer over the limit', async () => {
    const storage = await serve((_, res) => res.end('x'.repeat(MAX_UPLOAD_ANSWER_BYTES + 1)));
    const big = await refusal(
      signedRequest(callAt(storage.origin), {
        method: 'PUT',
        url: `${storage.origin}/fal/1`,
        body: imageBody(store, image),
      }),
    );
    expect([big.kind, big.sentence?.key]).toEqual(['protocol', 'error.inputs.uploadAnswer']);
    expect(big.detail).toMatch(/too_large/);
  });
});
