/**
 * An upload's answers come from a hostile service (or its storage host): one that echoes the key,
 * in any encoding, into the link it gives (which is sent with the task and may be remembered in
 * the upload memory's file) or into an error body (quoted, cut, in the error's detail) is
 * refused, and the error carries no key. Over a loopback server; the encodings are the key-safety
 * suites' own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { keyedRequest, type UploadCall } from '../../../../electron/core/inputs/upload-http';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { startServer, type TestServer } from '../../../support/http-servers';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyScanner,
} from '../../../hardening/key-and-bodies/key-encodings';

const KEY = 'fal-upload-echo-Hk4Nw7Qs2Vz9';
let server: TestServer;
let answer = { status: 200, body: '' };

beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body);
  });
});

afterAll(async () => {
  await server.close();
});

/** Another key the process holds (a replaced one, another service's): searched for too. */
const HELD = 'r8_heldOtherKey7Tq3Wm9Zx5Lp';

function call(secrets?: readonly string[]): UploadCall {
  return {
    ...(secrets ? { secrets } : {}),
    fetch,
    signedFetch: createPinnedFetch(),
    resolve: async (host) => [{ address: host, family: 4 }],
    baseUrl: server.origin,
    key: KEY,
    authHeaders: { Authorization: `Key ${KEY}` },
    keyOrigins: [],
    service: 'fal',
    signal: new AbortController().signal,
  };
}

async function texts(secrets?: readonly string[]): Promise<string[]> {
  const asked = keyedRequest(call(secrets), { method: 'POST', url: `${server.origin}/upload` });
  const error = await asked.then(
    (value) => value,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const { message, detail } = error as ServiceError;
  return [message, detail ?? ''];
}

describe("an upload's answer that carries the key", () => {
  it('is read when it carries none (the positive control)', async () => {
    const link = `${server.origin}/files/a.png`;
    answer = { status: 200, body: JSON.stringify({ upload_url: link, file_url: link }) };
    const read = await keyedRequest(call(), { method: 'POST', url: `${server.origin}/upload` });
    expect(read).toEqual({ upload_url: link, file_url: link });
  });

  it.each(ENCODING_NAMES)(
    'is refused in the link it gives, and said without it (%s)',
    async (name) => {
      const echo = ENCODINGS[name]!(KEY, 1);
      const link = `${server.origin}/files/a.png?sig=${echo}`;
      answer = { status: 200, body: JSON.stringify({ upload_url: link, file_url: link }) };
      const said = await texts();
      expect(said[1]).toMatch(/carries the API key/);
      expect(said.flatMap((text) => keyScanner(KEY).leaks(text))).toEqual([]);
    },
  );

  it.each(ENCODING_NAMES)(
    'in an error body cut at its excerpt is not quoted (%s)',
    async (name) => {
      // The echo straddles the excerpt's 500th character, so cutting first would leave part of it.
      const echo = ENCODINGS[name]!(KEY, 1);
      answer = { status: 400, body: `${'x'.repeat(500 - Math.floor(echo.length / 2))}${echo}` };
      const said = await texts();
      expect(said.flatMap((text) => keyScanner(KEY).leaks(text))).toEqual([]);
    },
  );

  it.each(ENCODING_NAMES)('is refused for another key the process holds too (%s)', async (name) => {
    const link = `${server.origin}/files/a.png?sig=${ENCODINGS[name]!(HELD, 2)}`;
    answer = { status: 200, body: JSON.stringify({ upload_url: link, file_url: link }) };
    const said = await texts([KEY, HELD]);
    expect(said[1]).toMatch(/carries the API key/);
    expect(said.flatMap((text) => keyScanner(HELD).leaks(text))).toEqual([]);
    answer = { status: 502, body: `storage said ${ENCODINGS[name]!(HELD, 0)}` };
    const failed = await texts([KEY, HELD]);
    expect(failed.flatMap((text) => keyScanner(HELD).leaks(text))).toEqual([]);
  });
});
