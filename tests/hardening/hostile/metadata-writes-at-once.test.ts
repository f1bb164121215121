/**
 * A compromised page asking main to write an image's rating into its file many times at once
 * (`triage:writeMetadata`, an image's task id and index: a few characters). Each write opens the
 * gallery file, walks its structure for Content Credentials and its packet (windows of a quarter
 * MiB, a packet of up to 1 MiB) and writes the edited copy to a temporary file beside it: each
 * call went its own way, so 200 calls at once had main hold 200 files open (and a new temporary
 * file for each rewrite) with their windows, and a few thousand would take every descriptor the
 * process may open, the downloads' and the history's included. Now the images of every call are
 * written two at a time (core/batch/write-metadata.ts), the others waiting their turn holding
 * nothing: every call is answered, and the file is whole.
 *
 * Through the real bridge and handlers of a real AppRuntime on a real gallery file (a PNG the demo
 * service serves, 8 MiB). What main holds open is read from /proc/self/fd (Linux), sampled while
 * the calls run: the image and its edited copies open at once (the task's sidecar, written after
 * each rewrite, is not counted).
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TARGET } from '../../support/submit-target';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { bridgedPage } from './bridged-page';
import { paddedPng } from './padded-png';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const IMAGE_BYTES = 8 * 1024 * 1024;
const AT_ONCE = 200;
/** Two images written at once, each its file and its edited copy. */
const MOST_OPEN = 4;

/** How many of the process's open descriptors name `image` or an edited copy of an image. */
function openCopies(image: string): number {
  let open = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      // A file renamed over while open reads `<path> (deleted)`.
      const path = readlinkSync(`/proc/self/fd/${fd}`);
      if (path.startsWith(image) || path.includes('.xmp.part')) open += 1;
    } catch {
      // Closed while the folder was read.
    }
  }
  return open;
}

async function ratedImage() {
  const served = await paddedPng(64, 90, IMAGE_BYTES, 5);
  const { runtime, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-metadata-writes-',
    runtime: () => ({ demo: { durationMs: 100, imageFiles: [served] } }),
  });
  runtime.core.engine.start();
  const request = bridgedPage(wiring.handlers, cleanups);
  const [item] = okValue(
    await request('tasks:submit', {
      request: { prompt: 'a rated picture', size: '64x64' },
      target: DEMO_TARGET,
      count: 1,
    }),
  ) as { record: { localId: string } }[];
  const { localId } = item!.record;
  const [done] = await runtime.core.engine.whenSettled([localId]);
  expect(done?.status).toBe('completed');
  const ref = { localId, index: 0 };
  okValue(await request('triage:apply', { images: [ref], change: { kind: 'rating', rating: 4 } }));
  const file = runtime.core.gallery.resolve(done!.images[0]!.file!);
  return { request, ref, file };
}

describe.skipIf(process.platform !== 'linux')('a page’s metadata writes side by side', () => {
  it(`${AT_ONCE} asks at once to write one image’s rating into its file: all answered, ${MOST_OPEN} files open at most`, async () => {
    const { request, ref, file } = await ratedImage();
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, openCopies(file))), 1);
    let answers: unknown[];
    try {
      answers = await Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          request('triage:writeMetadata', { images: [ref] }).then(okValue),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    const sum = (key: string) =>
      answers.reduce<number>(
        (total, answer) => total + (answer as Record<string, number>)[key]!,
        0,
      );
    expect(sum('failed')).toBe(0);
    expect(sum('written')).toBeGreaterThanOrEqual(1);
    expect(sum('written') + sum('unchanged')).toBe(AT_ONCE);
    expect(most, 'image files main held open at once').toBeLessThanOrEqual(MOST_OPEN);
    // Whole, and rated.
    const metadata = await sharp(await readFile(file)).metadata();
    expect(metadata.width).toBe(64);
    expect(metadata.xmp?.toString('utf8')).toMatch(/xmp:Rating="4"|<xmp:Rating>4</);
  });
});
