/**
 * Every field of a service's answer that can reach an error's text or a key check's words, with
 * a key in it: the reason phrase (an error status's detail quotes the status line), a Location
 * (a redirect refused: one that is no URL is quoted, one elsewhere is named by its origin, and
 * "Test connection" names where it pointed), and every other header at once (Content-Type,
 * Retry-After, WWW-Authenticate, a request id: read as numbers or tests, never quoted). The key is
 * the one the call sent or another the process holds (the client's heldKeys), in every encoding a
 * header can carry, through the real client over loopback; what comes out (message, detail,
 * sentence, the check) is searched for both keys by the test's own scanner.
 */
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { startServer, type TestServer } from '../../../support/http-servers';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyArb,
  keyScanner,
} from '../../../hardening/key-and-bodies/key-encodings';

/** The encodings a reason phrase or a header value can carry (visible ASCII). */
const HEADER_ENCODINGS = ENCODING_NAMES.filter((name) =>
  /^[\x21-\x7e]+$/.test(ENCODINGS[name]!('k-y_Z', 1)),
);
/** Those a host name can be spelled in (a key's run as a label of the Location's host). */
const HOST_ENCODINGS = HEADER_ENCODINGS.filter((name) =>
  /^[A-Za-z0-9_-]+$/.test(ENCODINGS[name]!('k-y_Z', 1)),
);

/** How the service answers, the echo in each field the case names. */
interface Answer {
  readonly status: number;
  readonly reason?: string;
  readonly location?: string;
}

let server: TestServer;
let answer: Answer = { status: 500 };
let echo = '';

function respond(res: ServerResponse): void {
  const headers: Record<string, string> = {
    'Content-Type': `application/json; charset=${echo}`,
    'Retry-After': echo,
    'WWW-Authenticate': `Bearer realm="${echo}"`,
    'X-Request-Id': echo,
    ...(answer.location === undefined ? {} : { Location: answer.location }),
  };
  res.writeHead(answer.status, answer.reason ?? 'Refused', headers);
  res.end('{"error":{"message":"Refused."}}');
}

beforeAll(async () => {
  server = await startServer((_req, res) => respond(res));
});

afterAll(async () => {
  await server.close();
});

/** Every text a thrown error or a returned check holds. */
async function textsOf(call: () => Promise<unknown>): Promise<string[]> {
  try {
    return [JSON.stringify(await call())];
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    const { message, detail, sentence } = error as ServiceError;
    return [message, detail ?? '', JSON.stringify(sentence ?? null)];
  }
}

const scanners = new Map<string, ReturnType<typeof keyScanner>>();
function scannerOf(key: string): ReturnType<typeof keyScanner> {
  const known = scanners.get(key) ?? keyScanner(key);
  scanners.set(key, known);
  return known;
}

/** A key's forms in `texts`, in any case (a host name is lower-cased by the URL parser). */
function leaks(texts: readonly string[], keys: readonly string[]): string[] {
  return keys.flatMap((key) =>
    texts.flatMap((text) => [
      ...scannerOf(key).leaks(text),
      ...scannerOf(key.toLowerCase()).leaks(text.toLowerCase()),
    ]),
  );
}

/** One pair of keys per run (the one sent, another held), echoing each by turns. */
function* cases(encodings: readonly string[]) {
  const pairs = fc.sample(fc.tuple(keyArb, keyArb), { numRuns: encodings.length * 2 });
  for (const [at, [sent, held]] of pairs.entries()) {
    const encoding = encodings[Math.floor(at / 2)]!;
    const echoed = at % 2 === 0 ? sent : held;
    const which = echoed === sent ? 'the key sent' : 'another key held';
    yield { sent, held, echo: ENCODINGS[encoding]!(echoed, at), where: `${encoding}, ${which}` };
  }
}

function clientHolding(sent: string, held: string) {
  const client = new ServiceClient({
    fetch: (url, init) => fetch(url, init),
    heldKeys: () => Promise.resolve([sent, held]),
  });
  const credentials = { baseUrl: server.origin, key: sent, keyFingerprint: 'fp' };
  return { client, credentials };
}

describe("a key in an answer's other fields", () => {
  it("never reaches an error status's error (reason phrase, every header)", async () => {
    for (const { sent, held, echo: text, where } of cases(HEADER_ENCODINGS)) {
      echo = text;
      const { client, credentials } = clientHolding(sent, held);
      // Its own sentence (401), the server's words (400), a wait asked for (503), and a 2xx that
      // is not the one expected (the status line alone); a task query's error as a submit's.
      for (const status of [400, 401, 503, 202]) {
        answer = { status, reason: `Refused for ${text}` };
        const said = await textsOf(() => client.submit(credentials, { prompt: 'p' }));
        expect(leaks(said, [sent, held]), `${status}, ${where}`).toEqual([]);
      }
      const polled = await textsOf(() => client.getTask(credentials, 'task-1'));
      expect(leaks(polled, [sent, held]), `202 poll, ${where}`).toEqual([]);
    }
  });

  it("never reaches a refused redirect's error (a Location that is no URL, or elsewhere)", async () => {
    for (const { sent, held, echo: text, where } of cases(HEADER_ENCODINGS)) {
      echo = text;
      const { client, credentials } = clientHolding(sent, held);
      const locations = [`http://[${text}/`, `https://evil.example/${text}?k=${text}`];
      for (const location of locations) {
        answer = { status: 302, location };
        const said = await textsOf(() => client.getTask(credentials, 'task-1'));
        expect(leaks(said, [sent, held]), `${location}, ${where}`).toEqual([]);
      }
    }
  });

  it('never reaches the words of a redirect named by "Test connection", nor a refused one\'s', async () => {
    for (const { sent, held, echo: text, where } of cases(HOST_ENCODINGS)) {
      echo = text;
      const { client, credentials } = clientHolding(sent, held);
      answer = { status: 302, location: `https://${text}.evil.example/` };
      const checked = await textsOf(() => client.probeKey(credentials));
      expect(checked.join('\n'), where).toMatch(/"verdict":"redirected"/);
      expect(leaks(checked, [sent, held]), `probe, ${where}`).toEqual([]);
      const said = await textsOf(() => client.submit(credentials, { prompt: 'p' }));
      expect(leaks(said, [sent, held]), `submit, ${where}`).toEqual([]);
    }
  });

  it('tries the encodings it means to (a positive control of the cases)', () => {
    expect(HEADER_ENCODINGS.length).toBeGreaterThanOrEqual(10);
    expect(HOST_ENCODINGS).toEqual(expect.arrayContaining(['raw', 'hexLower', 'base64url']));
    const [one] = [...cases(['raw'])];
    expect(leaks([`x ${one!.echo} x`], [one!.sent])).not.toEqual([]);
  });
});
