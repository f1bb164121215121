/**
 * The gallery protocol under a page that asks for many images at once and reads none of them,
 * with each response consumed as Electron consumes it (shell/browser/net/node_stream_loader.cc):
 * the body is read through Node's `Readable.fromWeb` as soon as the response is given, whatever
 * the page does, into the request's data pipe (64 KiB, which a page that reads nothing never
 * drains), each buffer held until the pipe has taken all of it. What the main process reads from
 * disk for such a flood must stay within the read budget and the stream slots, not grow with the
 * number of requests; once the page reads, every body is its file's bytes and all is given back.
 */
import { mkdir, mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PIECE_BYTES } from '../../../../electron/core/fs/file-body';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { ReadBudget } from '../../../../electron/app/protocol/read-budget';
import { StreamSlots } from '../../../../electron/core/fs/stream-slots';

const REQUESTS = 120;
const SIZE = 700_000;
/** Mojo's default data pipe, which Electron makes for each response. */
const PIPE_BYTES = 64 * 1024;

let base: string;
let root: string;
const files: Buffer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'pictor-unread-'));
  root = join(base, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  for (let f = 0; f < 4; f += 1) {
    const bytes = Buffer.alloc(SIZE);
    for (let i = 0; i < SIZE; i += 1) bytes[i] = (i * 13 + f * 71 + (i >> 10)) & 0xff;
    await writeFile(join(root, 'task', `image-${f}.png`), bytes);
    files.push(bytes);
  }
});
afterAll(() => rm(base, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the bytes every FileHandle reads from disk from now on. */
async function countDiskReads(): Promise<() => number> {
  const probe: FileHandle = await open(join(root, 'task', 'image-0.png'));
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = prototype.read;
  let total = 0;
  vi.spyOn(prototype, 'read').mockImplementation(async function (this: FileHandle, ...args) {
    const result = await (original as (...a: unknown[]) => Promise<{ bytesRead: number }>).apply(
      this,
      args,
    );
    total += result.bytesRead;
    return result as never;
  });
  return () => total;
}

/** One response's body as Electron takes it; `drain` lets the page read it to its end. */
function electronTakes(body: ReadableStream<Uint8Array>) {
  const readable = Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
  const pieces: Buffer[] = [];
  let inPipe = 0;
  let writing = false;
  let draining = false;
  let ended = false;
  const readMore = (): void => {
    if (writing) return;
    const buffer = readable.read() as Buffer | null;
    if (buffer === null) return;
    pieces.push(buffer);
    if (draining || inPipe + buffer.length <= PIPE_BYTES) {
      inPipe += buffer.length;
      readMore();
    } else {
      // The pipe is full and the page reads nothing: this write never completes.
      writing = true;
    }
  };
  readable.on('readable', readMore);
  const done = new Promise<Buffer>((resolve, reject) => {
    readable.on('end', () => {
      ended = true;
      resolve(Buffer.concat(pieces));
    });
    readable.on('error', reject);
  });
  return {
    /** The pipe is full (or the body ended): Electron asks for nothing more. */
    stuck: () => writing || ended,
    drain(): Promise<Buffer> {
      draining = true;
      writing = false;
      readMore();
      return done;
    },
  };
}

describe('a page that asks for many images and reads none', () => {
  it('makes the main process read no more than its budget and its slots allow', async () => {
    const reads = new ReadBudget(4 * 1024 * 1024, 8);
    const streams = new StreamSlots(4);
    const readFromDisk = await countDiskReads();
    const taken = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const url = `pictor-gallery://gallery/task/image-${i % files.length}.png`;
        const response = await serveGalleryRequest(new Request(url), root, { reads, streams });
        expect(response.status).toBe(200);
        return electronTakes(response.body as ReadableStream<Uint8Array>);
      }),
    );
    // Every body either holds its bytes in the budget or a slot, stuck on its full pipe, or
    // waits for a slot having read nothing.
    await vi.waitFor(
      () => {
        const holding = reads.counters().reads + streams.counters().active;
        expect(taken.filter((consumer) => consumer.stuck())).toHaveLength(holding);
        expect(holding + streams.counters().waiting).toBe(REQUESTS);
      },
      { timeout: 20_000, interval: 20 },
    );
    // Whole reads within the budget; each streamed body a few pieces ahead of its pipe.
    expect(readFromDisk()).toBeLessThanOrEqual(reads.maxBytes + streams.max * 4 * PIECE_BYTES);
    expect(reads.counters().peakBytes).toBeLessThanOrEqual(reads.maxBytes);
    expect(streams.counters().peak).toBeLessThanOrEqual(streams.max);

    // The page reads everything: each body is its own file's bytes, and all is given back.
    const bodies = await Promise.all(taken.map((consumer) => consumer.drain()));
    const wrong = bodies.flatMap((body, i) => (body.equals(files[i % files.length]!) ? [] : [i]));
    expect(wrong).toEqual([]);
    expect(reads.counters()).toMatchObject({ reads: 0, bytes: 0 });
    expect(streams.counters()).toMatchObject({ active: 0, waiting: 0 });
  }, 60_000);
});
