/**
 * The gallery protocol under a page that asks for many images at once and reads none of them,
 * with each response consumed as Electron consumes it (tests/support/electron-body.ts). What the
 * main process reads from disk for such a flood must stay within the read budget and the stream
 * slots, not grow with the number of requests (a request past the slots waits for one, holding
 * no file); once the page reads, every body is its file's bytes and all is given back.
 */
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PIECE_BYTES } from '../../../../electron/core/fs/file-body';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { ReadBudget } from '../../../../electron/app/protocol/read-budget';
import { StreamSlots } from '../../../../electron/core/fs/stream-slots';
import { electronTakes, type ElectronConsumer } from '../../../support/electron-body';
import { ManualClock } from '../../../fakes/manual-clock';
import { UNTIL } from '../../../support/waits';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const REQUESTS = 120;
const SIZE = 700_000;

let base: string;
let root: string;
const files: Buffer[] = [];

beforeAll(async () => {
  base = await tempFolder('unread');
  root = join(base, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  for (let f = 0; f < 4; f += 1) {
    const bytes = Buffer.alloc(SIZE);
    for (let i = 0; i < SIZE; i += 1) bytes[i] = (i * 13 + f * 71 + (i >> 10)) & 0xff;
    await writeFile(join(root, 'task', `image-${f}.png`), bytes);
    files.push(bytes);
  }
});
afterAll(() => removeFolder(base));
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

describe('a page that asks for many images and reads none', () => {
  it('makes the main process read no more than its budget and its slots allow', async () => {
    const reads = new ReadBudget(4 * 1024 * 1024, 8);
    // The idle bound never falls due here: this clock does not move.
    const streams = new StreamSlots(4, {
      maxWaiting: REQUESTS,
      idleMs: 1,
      clock: new ManualClock(),
    });
    const readFromDisk = await countDiskReads();
    const taken: ElectronConsumer[] = [];
    let pageReads = false;
    const bodies = Array.from({ length: REQUESTS }, async (_, i) => {
      const url = `pictor-gallery://gallery/task/image-${i % files.length}.png`;
      const response = await serveGalleryRequest(new Request(url), root, { reads, streams });
      expect(response.status).toBe(200);
      const consumer = electronTakes(response.body as ReadableStream<Uint8Array>);
      taken.push(consumer);
      return pageReads ? consumer.drain() : consumer;
    });
    // Every body either holds its bytes in the budget or a slot, stuck on its full pipe, or its
    // request waits for a slot having opened nothing.
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
    pageReads = true;
    await Promise.all(taken.map((consumer) => consumer.drain()));
    const read = await Promise.all(
      bodies.map(async (body) => {
        const got = await body;
        return Buffer.isBuffer(got) ? got : got.drain();
      }),
    );
    const wrong = read.flatMap((body, i) => (body.equals(files[i % files.length]!) ? [] : [i]));
    expect(wrong).toEqual([]);
    expect(reads.counters()).toMatchObject({ reads: 0, bytes: 0 });
    // A file read whole is closed behind its response, and its slot given back then.
    await vi.waitFor(
      () => expect(streams.counters()).toMatchObject({ active: 0, waiting: 0 }),
      UNTIL,
    );
  }, 60_000);
});
