/**
 * A compromised page filling the disk through the input store (electron/core/inputs/input-quota.ts):
 * through the real `inputs:*` handlers of a real AppRuntime, loops of distinct masks
 * (`inputs:putMask`) and of smaller copies (`inputs:downscale`) never grow the inputs no task names
 * past the bound, in files or in bytes; each input past it is refused with the store's sentence and
 * nothing is removed that a task record names or that was named within the day. Unnamed inputs
 * older than a day make room, oldest first. Real files, real PNGs; an input's age is its file's
 * time, set on the file.
 */
import { createHash } from 'node:crypto';
import { readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { InputQuotaLimits } from '../../../electron/core/inputs';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { OWNERS_UNREAD } from '../../support/owners-unread';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DAY_MS = 24 * 60 * 60 * 1000;

async function app(inputQuota: InputQuotaLimits) {
  const env: Record<string, string | undefined> = {};
  // The runtime's time, which a test moves on a day (`dayOn`): the quota counts again after a
  // refusal only once time has passed (RECOUNT_MS), and its files are aged to match.
  let ahead = 0;
  const clock = { ...systemClock, now: () => Date.now() + ahead };
  const { dir, runtime, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-input-quota-',
    env,
    runtime: () => ({ inputQuota, clock, localServers: OWNERS_UNREAD }),
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  const inputsDir = join(runtime.galleryDir(), 'inputs');
  /** The store's files: name → size. */
  const stored = async () => {
    const names = await readdir(inputsDir).catch(() => [] as string[]);
    const sizes = await Promise.all(
      names.map(async (name) => (await stat(join(inputsDir, name))).size),
    );
    return new Map(names.map((name, at) => [name, sizes[at]!]));
  };
  /** A source picked through main's dialog and named by a task (an edit run on the demo). */
  const namedSource = async (png: Buffer) => {
    env['PICTOR_E2E_CHOOSE_IMAGE'] = join(dir, 'photo.png');
    await writeFile(join(dir, 'photo.png'), png);
    const source = okValue(await request('inputs:pickFile'))!.image;
    const run = okValue(
      await request('edit:run', {
        prompt: 'make it blue',
        inputs: { operation: 'edit', source },
        targets: [{ provider: 'pictor', model: 'demo-edit' }],
      }),
    );
    await runtime.core.engine.whenSettled(run.items.map((item) => item.record.localId));
    return source;
  };
  const age = async (name: string, ms: number) => {
    const when = new Date(Date.now() - ms);
    await utimes(join(inputsDir, name), when, when);
  };
  const dayOn = () => (ahead += DAY_MS);
  return { request, stored, namedSource, age, dayOn };
}

function solid(side: number, at: number) {
  const background = { r: at % 256, g: Math.floor(at / 256) % 256, b: 7, alpha: 1 };
  return sharp({ create: { width: side, height: side, channels: 4, background } })
    .png()
    .toBuffer();
}

/** Noise compresses badly: a PNG of some kilobytes at a small side. */
function noisy(side: number) {
  const pixels = Buffer.alloc(side * side * 3);
  for (let at = 0; at < pixels.length; at += 1) pixels[at] = (at * 7919 + (at >> 5) * 104729) % 251;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const storeFull = {
  ok: false,
  error: {
    code: 'bad_input',
    sentence: { key: 'error.inputs.storeFull' },
    message: expect.stringMatching(/not yet used by any task/),
  },
};

describe('the input store under a page that adds and adds', () => {
  it('holds a loop of distinct masks to the bound in files, refusing the rest, and keeps named inputs', async () => {
    const { request, stored, namedSource, age, dayOn } = await app({
      bytes: 64 * 1024 * 1024,
      files: 4,
    });
    const source = await namedSource(await solid(64, 999));
    const sourceFile = `${source.sha256}.png`;
    const answers = [];
    for (let at = 0; at < 12; at += 1) {
      answers.push(
        await request('inputs:putMask', {
          source: source.sha256,
          png: (await solid(64, at)).toString('base64'),
        }),
      );
      const files = await stored();
      expect(files.has(sourceFile)).toBe(true);
      expect(files.size - 1).toBeLessThanOrEqual(4);
    }
    expect(answers.slice(0, 4).every((answer) => answer.ok)).toBe(true);
    for (const answer of answers.slice(4)) expect(answer).toMatchObject(storeFull);
    // The same mask again is no new file: it is given back, not refused.
    expect(
      await request('inputs:putMask', {
        source: source.sha256,
        png: (await solid(64, 0)).toString('base64'),
      }),
    ).toMatchObject({ ok: true });

    // A day on, the unnamed masks make room, oldest first; the named source, as old, stays.
    dayOn();
    const masks = [...(await stored()).keys()].filter((name) => name !== sourceFile);
    const firstMask = `${sha(await solid(64, 0))}.png`;
    for (const name of masks) await age(name, name === firstMask ? 3 * DAY_MS : 2 * DAY_MS);
    await age(sourceFile, 5 * DAY_MS);
    const later = okValue(
      await request('inputs:putMask', {
        source: source.sha256,
        png: (await solid(64, 500)).toString('base64'),
      }),
    );
    const after = await stored();
    expect(after.has(sourceFile)).toBe(true);
    expect(after.has(`${later.mask.sha256}.png`)).toBe(true);
    expect(after.has(firstMask)).toBe(false);
    expect(after.size).toBe(5);
  });

  it('holds a loop of distinct smaller copies to the bound in bytes', async () => {
    const limit = 60_000;
    const { request, stored, namedSource } = await app({ bytes: limit, files: 1_000 });
    const source = await namedSource(await noisy(256));
    const sourceFile = `${source.sha256}.png`;
    let refused = 0;
    for (let side = 250; side >= 100; side -= 10) {
      const answer = await request('inputs:downscale', { sha256: source.sha256, maxSide: side });
      if (!answer.ok) {
        expect(answer).toMatchObject(storeFull);
        refused += 1;
      }
      const files = await stored();
      expect(files.has(sourceFile)).toBe(true);
      const unnamed = [...files].filter(([name]) => name !== sourceFile);
      expect(unnamed.reduce((sum, [, size]) => sum + size, 0)).toBeLessThanOrEqual(limit);
    }
    expect(refused).toBeGreaterThan(0);
  });
});
