/**
 * The input store's bound (electron/core/inputs/input-quota.ts) never takes an input the page
 * still uses. An unnamed input untouched for a day may be removed to make room; the page touches
 * an input not only when it adds it again but whenever it names one it holds: its address
 * (`inputs:address`), a plan of an edit made of it (`edit:plan`), a smaller copy of it
 * (`inputs:downscale`), a mask painted on it (`inputs:putMask`). So an edit open for days keeps its
 * source while an input nothing uses, younger than it, makes room. Through the real handlers of a
 * real AppRuntime, real files and PNGs; an input's age is its file's time, set on the file.
 */
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DAY_MS = 24 * 60 * 60 * 1000;

function solid(side: number, at: number) {
  const background = { r: at % 256, g: Math.floor(at / 256) % 256, b: 11, alpha: 1 };
  return sharp({ create: { width: side, height: side, channels: 4, background } })
    .png()
    .toBuffer();
}

async function app() {
  const env: Record<string, string | undefined> = {};
  const { dir, runtime, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-input-in-use-',
    env,
    // Room for three unnamed inputs: a fourth makes room or is refused.
    runtime: () => ({ inputQuota: { bytes: 64 * 1024 * 1024, files: 3 } }),
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  const inputsDir = join(runtime.galleryDir(), 'inputs');
  let picked = 0;
  /** A picture picked through main's dialog: a new unnamed input. */
  const pick = async (png: Buffer): Promise<InputImage> => {
    picked += 1;
    const path = join(dir, `photo-${picked}.png`);
    await writeFile(path, png);
    env['PICTOR_E2E_CHOOSE_IMAGE'] = path;
    return okValue(await request('inputs:pickFile'))!.image;
  };
  const age = async (image: InputImage, ms: number) => {
    const when = new Date(Date.now() - ms);
    await utimes(join(inputsDir, `${image.sha256}.png`), when, when);
  };
  const stored = async () => new Set(await readdir(inputsDir));
  return { request, pick, age, stored };
}

type Request = Awaited<ReturnType<typeof app>>['request'];

/**
 * Each way the page names an input it holds, and whether that way adds an input itself (the
 * bound is then met by it; otherwise a new picture is picked).
 */
const USES: Record<string, (request: Request, source: InputImage) => Promise<boolean>> = {
  'inputs:address': async (request, source) => {
    expect(okValue(await request('inputs:address', { sha256: source.sha256 })).url).toContain(
      source.sha256,
    );
    return false;
  },
  'edit:plan': async (request, source) => {
    const plan = okValue(
      await request('edit:plan', {
        prompt: 'make it blue',
        inputs: { operation: 'edit', source },
        targets: [{ provider: 'pictor', model: 'demo-edit' }],
      }),
    );
    expect(plan.targets).toHaveLength(1);
    return false;
  },
  'inputs:downscale': async (request, source) => {
    okValue(await request('inputs:downscale', { sha256: source.sha256, maxSide: 32 }));
    return true;
  },
  'inputs:putMask': async (request, source) => {
    const png = (await solid(64, 77)).toString('base64');
    okValue(await request('inputs:putMask', { source: source.sha256, png }));
    return true;
  },
};

describe('an input the page still uses, under the input store’s bound', () => {
  it.each(Object.keys(USES))(
    'is touched by %s: a younger input nothing uses makes room, never it',
    async (use) => {
      const { request, pick, age, stored } = await app();
      const source = await pick(await solid(64, 1));
      const unused = await pick(await solid(64, 2));
      const other = await pick(await solid(64, 3));
      // The source was picked three days ago and the edit is open still; the others are two days old.
      await age(source, 3 * DAY_MS);
      await age(unused, 2 * DAY_MS);
      await age(other, 2 * DAY_MS - 60_000);
      const added = await USES[use]!(request, source);
      if (!added) await pick(await solid(64, 4));
      const after = await stored();
      expect(after.has(`${source.sha256}.png`), 'the source in use is kept').toBe(true);
      expect(after.has(`${unused.sha256}.png`), 'the oldest input nothing uses made room').toBe(
        false,
      );
      expect(after.has(`${other.sha256}.png`)).toBe(true);
      expect(after.size).toBe(3);
    },
  );
});
