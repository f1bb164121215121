/**
 * What a compromised page's loop of distinct inputs costs main (electron/core/inputs/input-quota.ts).
 * Counting the unnamed inputs reads the whole `inputs` folder and asks the history for every digest
 * a record names; it was paid on every new input, and on every refusal once the bound was reached.
 * Now a kept tally admits what fits and refuses a loop at the bound, and the folder is counted
 * again only when the tally says no (at most once per RECOUNT_MS of refusals), when the library
 * moved, or at the first input. Counted here as the history's `named` asks, one per count, on a
 * real store of real PNGs; the bound holds on the folder itself throughout.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boundedInputs, InputStore } from '../../../electron/core/inputs';
import { RECOUNT_MS } from '../../../electron/core/inputs/input-quota';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let base: string;
beforeEach(async () => {
  base = await tempFolder('quota-counts');
});
afterEach(() => removeFolder(base));

function png(at: number): Promise<Buffer> {
  const background = { r: at % 256, g: Math.floor(at / 256) % 256, b: 3, alpha: 1 };
  return sharp({ create: { width: 8, height: 8, channels: 4, background } })
    .png()
    .toBuffer();
}

/** A bounded store on `library`, counting the history's asks; `named` and the time are the test's. */
function quota(library: { root: string }) {
  const state = { counts: 0, now: Date.UTC(2026, 5, 1), named: new Set<string>() };
  const store = boundedInputs(new InputStore(library), {
    library,
    named: () => {
      state.counts += 1;
      return state.named;
    },
    now: () => state.now,
    limits: { bytes: 64 * 1024 * 1024, files: 4 },
  });
  return { store, state };
}

const fileCount = async (root: string) =>
  (await readdir(join(root, 'inputs')).catch(() => [])).length;

describe('the input bound’s cost under a loop of distinct inputs', () => {
  it('counts the folder once to fill it, once per refusal spell, and again when time has passed', async () => {
    const library = { root: join(base, 'gallery') };
    await mkdir(library.root);
    const { store, state } = quota(library);
    const added = [];
    for (let at = 0; at < 4; at += 1) added.push(await store.put(await png(at)));
    expect(state.counts).toBe(1);

    let refused = 0;
    for (let at = 4; at < 104; at += 1) {
      await store.put(await png(at)).catch(() => (refused += 1));
    }
    expect(refused).toBe(100);
    expect(await fileCount(library.root)).toBe(4);
    // The first refusal counted again (records may have named inputs since); the rest are the tally's.
    expect(state.counts).toBe(2);

    // The same bytes again are no new input: never counted.
    await store.put(await png(0));
    expect(state.counts).toBe(2);

    // A task names two of them; once the refusal spell is over, a count sees it and admits again.
    state.named = new Set([added[0]!.sha256, added[1]!.sha256]);
    await expect(store.put(await png(200))).rejects.toThrow(/not yet used by any task/);
    expect(state.counts).toBe(2);
    state.now += RECOUNT_MS;
    await store.put(await png(201));
    await store.put(await png(202));
    expect(state.counts).toBe(3);
    expect(await fileCount(library.root)).toBe(6);
    // Full again in unnamed inputs (two named, four not): refused, counted once more.
    await expect(store.put(await png(203))).rejects.toThrow(/not yet used by any task/);
    expect(state.counts).toBe(4);
  });

  it('counts a moved library anew, and holds the bound there', async () => {
    const library = { root: join(base, 'first') };
    await mkdir(library.root);
    await mkdir(join(base, 'second'));
    const { store, state } = quota(library);
    for (let at = 0; at < 3; at += 1) await store.put(await png(at));
    expect(state.counts).toBe(1);
    library.root = join(base, 'second');
    for (let at = 10; at < 14; at += 1) await store.put(await png(at));
    await expect(store.put(await png(14))).rejects.toThrow(/not yet used by any task/);
    expect(await fileCount(library.root)).toBe(4);
    expect(state.counts).toBe(3);
  });
});
