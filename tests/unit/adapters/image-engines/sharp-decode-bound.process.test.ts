/**
 * The `sharp-native` engine's bound on decodes in flight, read from sharp's own counters. Those
 * count the whole process's libvips jobs, so the file runs in a process of its own (the
 * `.process.test` name): in a thread beside another file's decodes it counted theirs too (4 seen
 * where the bound allows 3).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DECODES_AT_ONCE,
  createSharpNativeEngine,
} from '../../../../electron/adapters/image-engines/sharp-native-engine';
import { checkImageFile, type ImageCheck } from '../../../../electron/core/images/image-check';
import * as make from '../../../support/hostile-images';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const engine = createSharpNativeEngine();
let dir = '';

beforeAll(async () => {
  dir = await tempFolder('gallery');
});
afterAll(() => removeFolder(dir));

function checkFile(file: string, kind: 'png'): Promise<ImageCheck> {
  return checkImageFile(file, kind, {
    root: dir,
    engine,
    maxPixels: 50_000_000,
    maxBytes: 64 << 20,
    thumbnailSize: 64,
  });
}

describe('work in flight', () => {
  it(`decodes at most ${DECODES_AT_ONCE} images at once, however many it is handed`, async () => {
    // The download manager hands over 16 at a time; each decode on the pool holds its memory.
    const files = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const file = join(dir, `in-flight-${n}.png`);
        await writeFile(file, await make.png(512, 512));
        return file;
      }),
    );
    let done = false;
    const all = Promise.all(files.map((file) => checkFile(file, 'png'))).finally(() => {
      done = true;
    });
    let most = 0;
    // sharp's own counters: jobs queued for the thread pool and jobs running on it.
    while (!done) {
      const { queue, process } = sharp.counters();
      most = Math.max(most, queue + process);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await all;
    expect(results.map((result) => result.kind)).toEqual(files.map(() => 'thumbnail'));
    expect(most).toBeGreaterThan(0);
    // sharp lowers `process` only after a job's callback has run (pipeline.cc OnOK), and that
    // callback already lets the next image start: one finished job can still be counted.
    expect(most).toBeLessThanOrEqual(DECODES_AT_ONCE + 1);
  });
});
