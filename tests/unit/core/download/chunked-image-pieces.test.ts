/**
 * An image host that frames its image in one-byte chunks (or seven-byte, or irregular ones): the
 * strict reader read each chunk-size line as text through a pattern and handed each chunk's byte
 * on as a piece of its own, through the pump's count, sniff and copy: an 8 MB image was 8.4
 * million pieces and 2.9–4.2 s of the process's CPU (1.2 million and 0.47–1.1 s in seven-byte
 * chunks; the image sent whole, 10–21 ms). Now the size lines are read from their bytes and the
 * data of the chunks one socket read holds goes on as one piece (http-response-parser.ts): about
 * a thousand pieces, 0.37–0.60 s (seven-byte: 301 pieces, 0.07–0.22 s).
 *
 * Over real loopback HTTP, through the real pinned transport, the strict reader and the image
 * intake: the image is saved byte for byte however it is cut, the work is counted (pieces handed
 * on, never a time), and the download's bounds stay exact (the size cap to the byte, a cap met
 * before a framing error in the same read still refused as too big, a stall mid-body timed out).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptAbort } from '../../../../electron/core/download/attempt-abort';
import { directBody } from '../../../../electron/core/download/pinned-body';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { expectState, useDownloadFixture } from './download-fixture';
import { rawHost, type RawHost } from './raw-http-host';
import { chunkedBody, type ChunkSizes } from '../../../support/chunked-body';
import { makeImage } from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';

const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;
const IRREGULAR = [1, 2, 13, 1, 5, 300, 3, 1, 64, 2, 4096, 1];
const CUTS = {
  '1-byte': () => 1,
  '7-byte': () => 7,
  irregular: (index) => IRREGULAR[index % IRREGULAR.length] as number,
} satisfies Record<string, ChunkSizes>;
type Cut = keyof typeof CUTS;
const ALL_CUTS = Object.keys(CUTS) as Cut[];

/** Pieces handed on per KiB of body, at most (one per socket read is about one per 10 KiB). */
const MAX_PIECES_PER_KIB = 1;

const f = useDownloadFixture();

/** What the host serves at each path: the body's bytes, how they are cut, what follows. */
interface Answer {
  readonly body: Buffer;
  readonly cut: Cut;
  readonly tail?: string;
  readonly stall?: boolean;
  /** The body framed, made at its first request. */
  framed?: Buffer;
}
const served = new Map<string, Answer>();
let host: RawHost;
/** An 8 MB PNG of random pixels. */
let large: Buffer;
let small: Buffer;

function respond(socket: Socket, head: string): void {
  const path = /^GET (\S+)/.exec(head)?.[1] ?? '';
  const answer = served.get(path);
  if (!answer) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const framed = answer.framed ?? chunkedBody(answer.body, CUTS[answer.cut]);
  answer.framed = framed;
  const wire = Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n'),
    answer.stall ? framed.subarray(0, framed.length >> 1) : framed,
    Buffer.from(answer.stall ? '' : (answer.tail ?? '0\r\n\r\n'), 'latin1'),
  ]);
  // Written at once, so each socket read holds many chunks, as a hostile host's would.
  if (answer.stall) socket.write(wire);
  else socket.end(wire);
}

/** The address of `answer`: a name stands for one answer (framed once, for every test using it). */
function serve(name: string, answer: Answer) {
  const path = `/${name}`;
  if (!served.has(path)) served.set(path, answer);
  return `http://127.0.0.1:${host.port}${path}`;
}

beforeAll(async () => {
  host = await rawHost(respond);
  large = await makeImage('png', 1672, 1672);
  small = await makeImage('png', 40, 30);
});

afterAll(async () => {
  await host.close();
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('an 8 MB image in small chunks', () => {
  it.each(ALL_CUTS)('%s chunks: saved byte for byte', async (cut) => {
    expect(large.length).toBeGreaterThan(8 * 1024 * 1024);
    // A time limit a loaded machine cannot reach: the work is judged by the count below.
    const { intake } = galleryOnServer(f.root, { downloadTimeoutMs: 600_000 });
    const url = serve(`large-${cut}.png`, { body: large, cut });
    const { outcome } = await f.download(url, { intake });
    const saved = expectState(outcome, 'saved');
    expect(saved.bytes).toBe(large.length);
    expect(sha(await readFile(f.gallery.resolve(saved.file)))).toBe(sha(large));
  });

  it.each(['1-byte', '7-byte'] as const)(
    '%s chunks: fewer pieces handed on than KiB of body',
    async (cut) => {
      const abort = new AttemptAbort(600_000);
      try {
        const url = serve(`large-${cut}.png`, { body: large, cut });
        const response = await createPinnedFetch()(url, { signal: abort.signal }, LOOPBACK);
        const source = response.body && directBody(response.body);
        if (!source) throw new Error('The pinned download has no body of its own.');
        const hash = createHash('sha256');
        let pieces = 0;
        await source.pipe((piece) => {
          pieces += 1;
          hash.update(piece);
          return null;
        });
        expect(hash.digest('hex')).toBe(sha(large));
        expect(pieces).toBeLessThan((large.length / 1024) * MAX_PIECES_PER_KIB);
      } finally {
        abort.dispose();
      }
    },
  );
});

describe('the bounds, in one-byte chunks', () => {
  it('a body of exactly the cap is saved; one byte under the cap, it is refused as too big', async () => {
    const at = galleryOnServer(f.root, { maxImageBytes: small.length }).intake;
    const under = galleryOnServer(f.root, { maxImageBytes: small.length - 1 }).intake;
    const url = serve('capped.png', { body: small, cut: '1-byte' });
    expect(expectState((await f.download(url, { intake: at })).outcome, 'saved').bytes).toBe(
      small.length,
    );
    const refused = expectState((await f.download(url, { intake: under })).outcome, 'invalid');
    expect(refused.error).toMatch(/larger than/);
  });

  it('a body past the cap followed by a framing error in the same read: refused as too big', async () => {
    const under = galleryOnServer(f.root, { maxImageBytes: small.length - 1 }).intake;
    const url = serve('capped-then-bad.png', { body: small, cut: '1-byte', tail: 'zz\r\n' });
    const refused = expectState((await f.download(url, { intake: under })).outcome, 'invalid');
    expect(refused.error).toMatch(/larger than/);
  });

  it('a framing error after a whole image is not taken as the image', async () => {
    const url = serve('bad-tail.png', { body: small, cut: '1-byte', tail: 'zz\r\n' });
    expectState((await f.download(url)).outcome, 'retry');
  });

  it('a host that stalls mid-body hits the per-attempt timeout', async () => {
    const { intake: quick } = galleryOnServer(f.root, { downloadTimeoutMs: 300 });
    const url = serve('stall.png', { body: small, cut: '1-byte', stall: true });
    const outcome = expectState((await f.download(url, { intake: quick })).outcome, 'retry');
    expect(outcome.error).toMatch(/did not finish within/);
  });
});
