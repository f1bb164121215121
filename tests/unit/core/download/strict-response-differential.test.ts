/**
 * The strict response reader of image downloads reads every well-formed answer as node:http
 * does (the reader it replaced): the same status, status text, headers and body bytes, for the
 * same bytes from a raw loopback host, written whole and one byte per write.
 *
 * And its chunk reading against llhttp (node:http's own parser, through the binding node:http
 * drives) on a seeded fuzz of chunked bodies, well formed and not: sizes in either case, with
 * leading zeros up to the 16 digits the reader takes, a CR or LF alone, whitespace, NUL, a bad
 * digit, data longer or shorter than its size, trailers good and bad, a missing last chunk. Each
 * answer is read whole, cut in two reads at every byte, and a byte a read, with the caller
 * taking each piece at once or asking to stop at it (as a download whose write buffer is being
 * written does): the same verdict and body as llhttp each time, and no piece handed on is changed
 * while the rest of its read is parsed (the reader moves chunk data together in place). Where
 * the reader is stricter than llhttp on purpose (more than 16 size digits) or reads what llhttp
 * refuses as RFC 9112 allows it (extensions, bytes after the last chunk of a closed
 * connection), hand-written cases say so.
 */
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseParser } from '../../../../electron/core/download/http-response-parser';
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

/** Node's binding of llhttp, as node:http's client drives it (strict: no lenient flags). */
interface Llhttp {
  initialize(type: number, resource: object): void;
  execute(bytes: Buffer): number | Error;
  finish(): number | Error | undefined;
  [callback: number]: unknown;
}
interface LlhttpBinding {
  new (): Llhttp;
  readonly RESPONSE: number;
  readonly kOnHeadersComplete: number;
  readonly kOnBody: number;
  readonly kOnMessageComplete: number;
}
const { HTTPParser } = createRequire(import.meta.url)('_http_common') as {
  HTTPParser: LlhttpBinding;
};

const CHUNKED_HEAD = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
const REFUSED = 'refused';

/** llhttp's verdict on a whole answer: `read <body>` or refused. */
function llhttpReads(answer: Buffer): string {
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.RESPONSE, {});
  let body = '';
  let complete = false;
  parser[HTTPParser.kOnHeadersComplete] = () => 0;
  parser[HTTPParser.kOnBody] = (piece: Buffer) => (body += piece.toString('latin1'));
  parser[HTTPParser.kOnMessageComplete] = () => (complete = true);
  if (parser.execute(answer) instanceof Error) return REFUSED;
  if (!complete && parser.finish() instanceof Error) return REFUSED;
  return complete ? `read ${body}` : REFUSED;
}

/**
 * The strict reader's verdict on `answer` fed in reads cut at `cuts` (each read its own buffer,
 * parsed to its end as pinned-exchange.ts does); `stop`: the caller asks to stop at each piece
 * and takes it only once the read is parsed, checking it was not changed meanwhile.
 */
function strictReads(answer: Buffer, cuts: readonly number[], stop: boolean): string {
  let body = '';
  let kept: { view: Uint8Array; copy: Buffer }[] = [];
  const parser = new ResponseParser('GET', {
    head: () => undefined,
    body: (piece) => {
      kept.push({ view: piece, copy: Buffer.from(piece) });
      return !stop;
    },
  });
  try {
    let from = 0;
    for (const cut of [...cuts, answer.length]) {
      const read = Buffer.from(answer.subarray(from, cut));
      from = cut;
      for (let at = 0; at < read.length && !parser.done;) at = parser.feed(read, at);
      for (const { view, copy } of kept) {
        if (!copy.equals(view)) return `a piece changed after it was handed on`;
        body += copy.toString('latin1');
      }
      kept = [];
      if (parser.done) break;
    }
    parser.finish();
    return `read ${body}`;
  } catch (error) {
    if (!(error instanceof Error && 'code' in error)) throw error;
    return REFUSED;
  }
}

/** A seeded generator (mulberry32): the same answers every run. */
function seeded(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** Bytes that break a chunk's framing where they are put (never a digit: no early last chunk). */
const FLAWS = ['\r', '\n', ' ', '\t', '\x00', 'g', 'x', '\r\n', '\x80', 'X: y'];
const TRAILERS = ['', 'T: 1\r\n', 'T: 1\r\nU: two words\r\n', 'T : 1\r\n', 'T: a\x01\r\n'];
const DATA = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\r\n\x00\xff';

/** A chunked body, mostly well formed, with a flaw put in now and then. */
function chunkedAnswer(random: (below: number) => number): string {
  const flaw = (odds: number) => (random(odds) === 0 ? (FLAWS[random(FLAWS.length)] ?? '') : '');
  let body = '';
  for (let count = 1 + random(6); count > 0; count -= 1) {
    const size = 1 + (random(4) === 0 ? random(DATA.length) : random(5));
    let digits = size.toString(16);
    if (random(2) === 0) digits = digits.toUpperCase();
    if (random(4) === 0) digits = '0'.repeat(random(17 - digits.length)) + digits;
    const data = Array.from({ length: size }, () => DATA[random(DATA.length)]).join('');
    const shorter = random(25) === 0 ? -1 : random(25) === 0 ? 1 : 0;
    body += `${flaw(30)}${digits}${flaw(12)}\r\n${data.slice(0, size + shorter)}${flaw(20)}\r\n`;
  }
  if (random(12) === 0) return body + flaw(1);
  return `${body}0${flaw(20)}\r\n${TRAILERS[random(TRAILERS.length)] ?? ''}${flaw(25)}\r\n`;
}

const FUZZED = 500;
/**
 * Small answers whose every byte is changed to, or preceded by, each of these bytes (no `;`:
 * extensions, and bytes after the last chunk, are where the reader and llhttp differ as meant).
 */
const NEIGHBOURHOOD_BASES = ['1\r\na\r\n0\r\n\r\n', '0A\r\n0123456789\r\n00\r\nT: 1\r\n\r\n'];
const NEIGHBOURHOOD_BYTES = ['\r', '\n', ' ', '\t', '\x00', 'g', '0', '1', 'F', '\x80'];

describe('chunked bodies against llhttp, every cut', () => {
  it(`${FUZZED} seeded answers: the same verdict and body as llhttp, however read`, () => {
    const random = seeded(47);
    const verdicts = { read: 0, refused: 0 };
    const differences: string[] = [];
    for (let index = 0; index < FUZZED; index += 1) {
      const answer = Buffer.from(CHUNKED_HEAD + chunkedAnswer(random), 'latin1');
      const expected = llhttpReads(answer);
      verdicts[expected === REFUSED ? 'refused' : 'read'] += 1;
      const bytewise = Array.from({ length: answer.length - 1 }, (_, at) => at + 1);
      const readings = [
        ['whole', strictReads(answer, [], false)],
        ['a byte a read, stopped at each piece', strictReads(answer, bytewise, true)],
      ];
      for (let cut = 1; cut < answer.length; cut += 1) {
        readings.push([`cut at ${cut}`, strictReads(answer, [cut], false)]);
        readings.push([`cut at ${cut}, stopped`, strictReads(answer, [cut], true)]);
      }
      for (const [how, got] of readings) {
        if (got !== expected && differences.length < 5) {
          const shown = JSON.stringify(answer.subarray(CHUNKED_HEAD.length).toString('latin1'));
          differences.push(`${shown} ${how}: ${got}, llhttp: ${expected}`);
        }
      }
    }
    expect(differences).toEqual([]);
    // Both kinds are well represented: the fuzz is not all refusals (or all reads).
    expect(verdicts.read).toBeGreaterThan(FUZZED / 5);
    expect(verdicts.refused).toBeGreaterThan(FUZZED / 5);
  });

  it('every byte of small answers changed or added: the same verdict and body as llhttp', () => {
    const differences: string[] = [];
    let variants = 0;
    for (const base of NEIGHBOURHOOD_BASES) {
      for (let at = 0; at < base.length; at += 1) {
        for (const byte of NEIGHBOURHOOD_BYTES) {
          for (const body of [
            base.slice(0, at) + byte + base.slice(at + 1),
            base.slice(0, at) + byte + base.slice(at),
          ]) {
            variants += 1;
            const answer = Buffer.from(CHUNKED_HEAD + body, 'latin1');
            const expected = llhttpReads(answer);
            for (let cut = CHUNKED_HEAD.length; cut <= answer.length; cut += 1) {
              const cuts = cut < answer.length ? [cut] : [];
              const got = strictReads(answer, cuts, cut % 2 === 0);
              if (got !== expected && differences.length < 5) {
                differences.push(
                  `${JSON.stringify(body)} cut at ${cut}: ${got}, llhttp: ${expected}`,
                );
              }
            }
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(variants).toBeGreaterThan(500);
  });

  it.each([
    [
      '17 size digits (leading zeros): the reader takes 16',
      '00000000000000005\r\nhello\r\n0\r\n\r\n',
      'read hello',
      REFUSED,
    ],
    ['whitespace after the `;` (BWS)', '5; a\r\nhello\r\n0\r\n\r\n', REFUSED, 'read hello'],
    ['whitespace before an extension (BWS)', '5 ;a=b\r\nhello\r\n0\r\n\r\n', REFUSED, 'read hello'],
    ['bytes after the last chunk', '5\r\nhello\r\n0\r\n\r\nmore', REFUSED, 'read hello'],
  ])('%s: llhttp and the reader differ as meant', (_name, body, byLlhttp, byReader) => {
    const answer = Buffer.from(CHUNKED_HEAD + body, 'latin1');
    expect(llhttpReads(answer)).toBe(byLlhttp);
    for (let cut = 1; cut < answer.length; cut += 1) {
      expect(strictReads(answer, [cut], cut % 2 === 0)).toBe(byReader);
    }
  });
});
