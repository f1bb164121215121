/**
 * The gallery protocol under a flood: 2,000 requests at once against real files, through the
 * real handler. Files read whole hold their bytes until the page takes them; the budget's own
 * counters (read-budget.ts) must never pass its bound, every request must still get its own
 * bytes, and the bytes the page gets must be the buffer the file was read into, not a copy.
 *
 * @own-modules: it checks the process-wide budgets (GALLERY_READS, GALLERY_STREAMS) come back to
 * zero, so no earlier file in its thread may share them.
 */
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GALLERY_READS,
  GALLERY_STREAMS,
  READ_WHOLE_BYTES,
  serveGalleryRequest,
} from '../../../../electron/app/protocol/gallery-request';
import { ReadBudget } from '../../../../electron/app/protocol/read-budget';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const REQUESTS = 2_000;
/** Sizes from a thumbnail to past the whole-read limit (those are streamed). */
const SIZES = [
  300,
  4_095,
  4_097,
  40_000,
  200_000,
  700_000,
  READ_WHOLE_BYTES - 1,
  READ_WHOLE_BYTES,
  READ_WHOLE_BYTES + 1,
  2_500_000,
];

let base: string;
let root: string;
const files: { name: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  base = await tempFolder('flood');
  root = join(base, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  for (const [index, size] of SIZES.entries()) {
    // Every byte depends on the file and its place: a mix-up between files cannot pass.
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 1) bytes[i] = (i * 7 + index * 131 + (i >> 9)) & 0xff;
    const name = `image-${index}.png`;
    await writeFile(join(root, 'task', name), bytes);
    files.push({ name, bytes });
  }
});
afterAll(() => removeFolder(base));

const url = (name: string) => `pictor-gallery://gallery/task/${name}`;

/**
 * The file request `i` asks for: mostly thumbnail-sized ones, and one request in 25 for a file
 * at or past the whole-read limit (so the flood moves a few hundred megabytes, not gigabytes).
 */
function fileFor(i: number): { name: string; bytes: Buffer } {
  const large = files.filter((file) => file.bytes.length >= 700_000);
  const small = files.filter((file) => file.bytes.length < 700_000);
  const pick = i % 25 === 0 ? large[(i / 25) % large.length] : small[i % small.length];
  return pick as { name: string; bytes: Buffer };
}

/** A flood takes seconds on two busy cores. */
const FLOOD_MS = 90_000;

async function bodyOf(response: Response): Promise<Buffer> {
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('2,000 requests at once', () => {
  it(
    'a page that takes each body as it comes: within the budget, every byte right',
    async () => {
      const reads = new ReadBudget(3 * 1024 * 1024, 8);
      const wrong: string[] = [];
      await Promise.all(
        Array.from({ length: REQUESTS }, async (_, i) => {
          const file = fileFor(i);
          const body = await bodyOf(
            await serveGalleryRequest(new Request(url(file.name)), root, { reads }),
          );
          if (!body.equals(file.bytes)) wrong.push(`${i}: ${file.name}`);
        }),
      );
      expect(wrong).toEqual([]);
      const counters = reads.counters();
      expect(counters.peakBytes).toBeLessThanOrEqual(reads.maxBytes);
      expect(counters.peakReads).toBeLessThanOrEqual(reads.maxReads);
      // Some fitted, and the bound was reached: the rest were streamed.
      expect(counters.taken).toBeGreaterThan(0);
      expect(counters.refused).toBeGreaterThan(0);
      // Everything taken was given back.
      expect([counters.reads, counters.bytes]).toEqual([0, 0]);
    },
    FLOOD_MS,
  );

  it(
    "through the process's own bounds: every answer its own bytes, every bound held",
    async () => {
      // Electron takes each body as its answer comes (a request past the file slots waits for
      // one: a page that held every body unread is gallery-unread-flood.test.ts's).
      const wrong: number[] = [];
      await Promise.all(
        Array.from({ length: REQUESTS }, async (_, i) => {
          const response = await serveGalleryRequest(new Request(url(fileFor(i).name)), root);
          if (!(await bodyOf(response)).equals(fileFor(i).bytes)) wrong.push(i);
        }),
      );
      expect(wrong).toEqual([]);
      const held = GALLERY_READS.counters();
      expect(held.taken).toBeGreaterThan(0);
      expect(held.peakBytes).toBeLessThanOrEqual(GALLERY_READS.maxBytes);
      expect(held.peakReads).toBeLessThanOrEqual(GALLERY_READS.maxReads);
      expect([held.reads, held.bytes]).toEqual([0, 0]);
      // Every file was opened within the process's slots, each given back at its end.
      expect(GALLERY_STREAMS.counters()).toMatchObject({ active: 0, waiting: 0, refused: 0 });
      expect(GALLERY_STREAMS.counters().peak).toBeLessThanOrEqual(GALLERY_STREAMS.max);
    },
    FLOOD_MS,
  );
});

describe('a body read whole', () => {
  it('is the buffer the file was read into, not a copy', async () => {
    const file = files.find((candidate) => candidate.bytes.length === 40_000)!;
    const response = await serveGalleryRequest(new Request(url(file.name)), root, {
      reads: new ReadBudget(1024 * 1024, 4),
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(Buffer.from(value!).equals(file.bytes)).toBe(true);
    // readExactly reads into size + 1 bytes (to see a file that grew); a copy would hold size.
    expect(value!.byteLength).toBe(40_000);
    expect(value!.buffer.byteLength).toBe(40_001);
    expect((await reader.read()).done).toBe(true);
  });

  it('gives its bytes back when the page gives up on it', async () => {
    const reads = new ReadBudget(1024 * 1024, 4);
    const response = await serveGalleryRequest(new Request(url(files[3]!.name)), root, { reads });
    expect(reads.counters().bytes).toBe(files[3]!.bytes.length + 1);
    await response.body!.cancel();
    expect(reads.counters()).toMatchObject({ reads: 0, bytes: 0 });
  });
});

describe('a streamed body', () => {
  it('sends exactly the size it was opened at, and fails rather than cut a file that shrank', async () => {
    const name = 'changing.png';
    const path = join(root, 'task', name);
    const bytes = Buffer.alloc(3 * 1024 * 1024, 9);
    await writeFile(path, bytes);
    const grown = await serveGalleryRequest(new Request(url(name)), root);
    await writeFile(path, Buffer.concat([bytes, Buffer.alloc(1000, 1)]));
    expect((await bodyOf(grown)).equals(bytes)).toBe(true);
    const shrunk = await serveGalleryRequest(new Request(url(name)), root);
    await truncate(path, 1024 * 1024);
    await expect(shrunk.arrayBuffer()).rejects.toThrow();
  });
});
