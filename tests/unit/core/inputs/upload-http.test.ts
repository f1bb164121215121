/**
 * The two requests of an upload against a minimal loopback server: the keyed one goes only where
 * the key may (under the base URL, or an origin listed for it) and is never redirected; the signed
 * one never carries the key, and a target at a private address, or one that asks for the key, is
 * refused before anything is sent. Answers are read with a limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_UPLOAD_ANSWER_BYTES,
  keyMayReach,
  keyedRequest,
  signedRequest,
  type UploadCall,
} from '../../../../electron/core/inputs/upload-http';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { startServer, type Handler, type TestServer } from '../../../support/http-servers';

const KEY = 'fal-key-0123456789-abcdef';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}

function callAt(baseUrl: string, keyOrigins: readonly string[] = []): UploadCall {
  return {
    fetch,
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
