/**
 * How many gallery files a page can make the main process hold open. A compromised page asks for
 * many images and reads none of what comes back (each body taken as Electron takes it:
 * tests/support/electron-body.ts). The files open at any moment must stay within the slots,
 * whatever the number of requests (counted on every open and close, and on Linux as the process's
 * own descriptors naming a gallery file); requests past the waiting bound are answered 503 at
 * once; a response left unread gives its file back after the idle time (on a manual clock), and
 * a request made after the flood is still answered with its bytes.
 */
import { promises as fsPromises } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { ReadBudget } from '../../../../electron/app/protocol/read-budget';
import { StreamSlots } from '../../../../electron/core/fs/stream-slots';
import { ManualClock } from '../../../fakes/manual-clock';
import { electronTakes, type ElectronConsumer } from '../../../support/electron-body';
import { openDescriptorsUnder } from '../../../support/open-descriptors';
import { UNTIL } from '../../../support/waits';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const SIZE = 300_000;
const SLOTS = 4;
const WAITING = 8;
const REQUESTS = 40;
const IDLE_MS = 30_000;

let base: string;
let root: string;
const files: Buffer[] = [];

beforeAll(async () => {
  base = await tempFolder('open-files');
  root = join(base, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  for (let f = 0; f < 4; f += 1) {
    const bytes = Buffer.alloc(SIZE);
    for (let i = 0; i < SIZE; i += 1) bytes[i] = (i * 29 + f * 53 + (i >> 11)) & 0xff;
    await writeFile(join(root, 'task', `image-${f}.png`), bytes);
    files.push(bytes);
  }
});
afterAll(() => removeFolder(base));
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the files open now and at most, through every open and close from now on. */
function countOpenFiles(): { now: () => number; peak: () => number } {
  let open = 0;
  let peak = 0;
  const original = fsPromises.open.bind(fsPromises);
  vi.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof original>) => {
    const handle: FileHandle = await original(...args);
    open += 1;
    peak = Math.max(peak, open);
    const close = handle.close.bind(handle);
    let closed = false;
    handle.close = async () => {
      if (!closed) open -= 1;
      closed = true;
      return close();
    };
    return handle;
  });
  return { now: () => open, peak: () => peak };
}

const url = (i: number) => `pictor-gallery://gallery/task/image-${i % files.length}.png`;

describe('a page that asks for many images and reads none', () => {
  it('holds no more files than the slots, answers 503 past the queue, and frees idle slots', async () => {
    const clock = new ManualClock();
    const streams = new StreamSlots(SLOTS, { maxWaiting: WAITING, idleMs: IDLE_MS, clock });
    // No whole reads: every 200 is a streamed body that keeps its file open while unread.
    const reads = new ReadBudget(0, 0);
    const openFiles = countOpenFiles();
    const taken: ElectronConsumer[] = [];
    // Every body holding a slot waits on its reader, its idle time running on the clock. A body
    // Electron has stopped taking may still be reading its next piece ahead (Node's stream asks
    // one more of it): its idle time starts when that read ends, so a clock moved before then
    // passes it by and leaves it holding its slot.
    const allIdle = () =>
      vi.waitFor(() => expect(clock.pending).toBe(streams.counters().active), UNTIL);
    const statuses = Array.from({ length: REQUESTS }, async (_, i) => {
      const response = await serveGalleryRequest(new Request(url(i)), root, { reads, streams });
      if (response.status === 200) taken.push(electronTakes(response.body!));
      return response.status;
    });
    await vi.waitFor(() => {
      expect(taken.filter((consumer) => consumer.stuck())).toHaveLength(SLOTS);
      expect(streams.counters().active).toBe(SLOTS);
    }, UNTIL);
    expect(openFiles.peak()).toBeLessThanOrEqual(SLOTS);
    await vi.waitFor(() => {
      expect(streams.counters()).toMatchObject({ active: SLOTS, waiting: WAITING });
    }, UNTIL);
    expect(openFiles.peak()).toBeLessThanOrEqual(SLOTS);
    const descriptors = openDescriptorsUnder(root);
    if (descriptors !== null) expect(descriptors).toBeLessThanOrEqual(SLOTS);
    expect(streams.counters().refused).toBe(REQUESTS - SLOTS - WAITING);

    // Each idle period ends the unread bodies and hands their slots to the waiting requests.
    for (let round = 1; round <= WAITING / SLOTS; round += 1) {
      await allIdle();
      await clock.advance(IDLE_MS);
      await vi.waitFor(() => {
        expect(taken.filter((consumer) => consumer.failed())).toHaveLength(round * SLOTS);
        expect(taken.filter((consumer) => consumer.stuck())).toHaveLength((round + 1) * SLOTS);
      }, UNTIL);
      expect(openFiles.peak()).toBeLessThanOrEqual(SLOTS);
    }
    const answered = await Promise.all(statuses);
    expect(answered.filter((status) => status === 200)).toHaveLength(SLOTS + WAITING);
    expect(answered.filter((status) => status === 503)).toHaveLength(REQUESTS - SLOTS - WAITING);

    // A request after the flood: it waits for the last unread bodies' idle time, then the page
    // reads its image whole.
    const later = serveGalleryRequest(new Request(url(1)), root, { reads, streams });
    await allIdle();
    await clock.advance(IDLE_MS);
    const response = await later;
    expect(response.status).toBe(200);
    expect((await electronTakes(response.body!).drain()).equals(files[1]!)).toBe(true);
    // Read whole: closed behind its response, and its slot given back then.
    await vi.waitFor(() => {
      expect(streams.counters()).toMatchObject({ active: 0, waiting: 0 });
      expect(openFiles.now()).toBe(0);
    }, UNTIL);
    expect(openFiles.peak()).toBeLessThanOrEqual(SLOTS);
  }, 60_000);
});
