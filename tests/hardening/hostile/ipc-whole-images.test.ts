/**
 * A compromised page's small requests that each have main hold a whole image, sent side by side.
 * `inputs:address` and `inputs:downscale` name a stored input by its digest (a few characters),
 * and main reads the input (up to 64 MiB), hashes it, and for a smaller copy holds it until the
 * image engine is free: 24 asks at once for one 40 MiB input had main hold 48 copies' worth of it
 * for its address and 84 for a smaller copy (3.4 GB), and a page asking a few hundred times ends
 * main out of memory.
 * Now main runs at most two such operations at once (core/edit/edit-inputs.ts) and the others wait
 * their turn holding nothing: every ask is answered, and what main holds stays a few copies.
 *
 * Through the real bridge and handlers of a real AppRuntime on real files and PNGs. What main
 * holds is its own count of the memory outside its heap (process.memoryUsage: the Buffers an
 * image is read into), sampled while the asks run; the bound asserted is twelve copies, against
 * three to six with the limit.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestChannel } from '../../../shared/ipc/contract';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { bridgedPage } from './bridged-page';
import { paddedPng } from './padded-png';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const INPUT_BYTES = 40 * 1024 * 1024;
const AT_ONCE = 24;
/** The most main may hold while the asks run, in copies of the input. */
const MOST_COPIES = 12;

const outsideHeap = (): number => {
  const { arrayBuffers, external } = process.memoryUsage();
  return arrayBuffers + external;
};

async function app() {
  const env: Record<string, string | undefined> = {};
  const { dir, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-whole-images-',
    env,
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  const request = bridgedPage(wiring.handlers, cleanups);
  let picked = 0;
  /** A new input of INPUT_BYTES picked through main's dialog: read by nothing since. */
  const pickLarge = async (): Promise<string> => {
    picked += 1;
    const path = join(dir, `photo-${picked}.png`);
    await writeFile(path, await paddedPng(64, 40, INPUT_BYTES, picked));
    env['PICTOR_E2E_CHOOSE_IMAGE'] = path;
    const { image } = okValue(await request('inputs:pickFile')) as { image: { sha256: string } };
    return image.sha256;
  };
  return { request, pickLarge };
}

/** The asks, all at once, and the most main held outside its heap while they ran. */
async function allAtOnce(asks: () => Promise<unknown>[]) {
  const before = outsideHeap();
  let most = before;
  const sampler = setInterval(() => (most = Math.max(most, outsideHeap())), 1);
  try {
    const results = await Promise.all(asks());
    most = Math.max(most, outsideHeap());
    return { results, copies: (most - before) / INPUT_BYTES };
  } finally {
    clearInterval(sampler);
  }
}

const ASKS: Record<string, (sha256: string) => [RequestChannel, unknown]> = {
  'its address (inputs:address)': (sha256) => ['inputs:address', { sha256 }],
  'a smaller copy (inputs:downscale)': (sha256) => ['inputs:downscale', { sha256, maxSide: 32 }],
};

describe('a page’s small requests that each hold a whole input, side by side', () => {
  it.each(Object.keys(ASKS))(
    `${AT_ONCE} asks at once for %s of a 40 MiB input: all answered, a few copies held`,
    async (ask) => {
      const { request, pickLarge } = await app();
      const sha256 = await pickLarge();
      const [channel, input] = ASKS[ask]!(sha256);
      const { results, copies } = await allAtOnce(() =>
        Array.from({ length: AT_ONCE }, () => request(channel, input)),
      );
      expect(results.filter((result) => !(result as { ok: boolean }).ok)).toEqual([]);
      expect(copies, 'copies of the input main held at once').toBeLessThanOrEqual(MOST_COPIES);
    },
  );
});
