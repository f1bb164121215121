/**
 * The one image check (core/images/image-check.ts) and the check of engine answers
 * (engine-answer.ts): an engine's answer is used only when it reports the size the header check
 * computed and its thumbnail is one whole WebP within the limits. The engines here are scripted
 * to answer wrongly (injected faults); real engines meet real files in the adapters' tests.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkThumbnailAnswer } from '../../../../electron/core/images/engine-answer';
import { checkImageFile } from '../../../../electron/core/images/image-check';
import {
  ImageEngineError,
  type ImageEngine,
  type ThumbnailAnswer,
} from '../../../../electron/ports/image-engine';
import * as make from '../../../support/hostile-images';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let dir = '';
let file = '';
let goodWebp: Buffer;

beforeAll(async () => {
  dir = await tempFolder('gallery');
  file = join(dir, 'image.jpg');
  await writeFile(file, await make.orientedJpeg(64, 40, 6));
  goodWebp = await make.picture(24, 38).webp().toBuffer();
});
afterAll(() => removeFolder(dir));

function scripted(answer: () => Promise<ThumbnailAnswer>): ImageEngine & { calls: number } {
  const engine = {
    name: 'chromium' as const,
    calls: 0,
    thumbnail: () => {
      engine.calls += 1;
      return answer();
    },
    toPng: () => Promise.reject(new Error('not used')),
    renderSvgPng: () => Promise.reject(new Error('not used')),
    dispose: () => Promise.resolve(),
  };
  return engine;
}

const LIMITS = { maxPixels: 1_000_000, maxBytes: 1 << 20, thumbnailSize: 40 };
const inDir = () => ({ ...LIMITS, root: dir });
const thumbnail = (width: number, height: number, webp: Uint8Array): ThumbnailAnswer => ({
  kind: 'thumbnail',
  width,
  height,
  webp,
});

describe('answers that pass', () => {
  it('the oriented size and a whole WebP within the thumbnail size', async () => {
    const engine = scripted(() => Promise.resolve(thumbnail(40, 64, goodWebp)));
    const checked = await checkImageFile(file, 'jpeg', { ...inDir(), engine });
    expect(checked).toMatchObject({ kind: 'thumbnail', width: 40, height: 64 });
    expect(checked.kind === 'thumbnail' && Buffer.from(checked.webp).equals(goodWebp)).toBe(true);
  });
});

describe('answers that do not', () => {
  it.each([
    ['the stored size instead of the oriented one', () => thumbnail(64, 40, goodWebp)],
    ['another size', () => thumbnail(40, 65, goodWebp)],
    ['PNG bytes', () => thumbnail(40, 64, Buffer.from('\x89PNG\r\n\x1a\n0000000000000000'))],
    [
      'a WebP with bytes after its RIFF',
      () => thumbnail(40, 64, Buffer.concat([goodWebp, Buffer.alloc(2)])),
    ],
    ['a WebP cut short', () => thumbnail(40, 64, goodWebp.subarray(0, goodWebp.length - 2))],
    [
      'a RIFF that is not WebP',
      () => {
        const avi = Buffer.from(goodWebp);
        avi.write('AVI ', 8, 'latin1');
        return thumbnail(40, 64, avi);
      },
    ],
    ['no bytes', () => thumbnail(40, 64, new Uint8Array(0))],
  ])('%s: undecodable, never used', async (_name, answer) => {
    const engine = scripted(() => Promise.resolve(answer()));
    expect(await checkImageFile(file, 'jpeg', { ...inDir(), engine })).toMatchObject({
      kind: 'undecodable',
    });
  });

  it('a thumbnail larger than the thumbnail size, or than the byte limit', async () => {
    const big = await make.picture(41, 20).webp().toBuffer();
    const engine = scripted(() => Promise.resolve(thumbnail(40, 64, big)));
    expect(await checkImageFile(file, 'jpeg', { ...inDir(), engine })).toMatchObject({
      kind: 'undecodable',
    });
    const fits = scripted(() => Promise.resolve(thumbnail(40, 64, goodWebp)));
    expect(
      await checkImageFile(file, 'jpeg', { ...inDir(), engine: fits, thumbnailSize: 40 }),
    ).toMatchObject({ kind: 'thumbnail' });
    const header = {
      format: 'jpeg' as const,
      width: 64,
      height: 40,
      orientation: 6,
      orientedWidth: 40,
      orientedHeight: 64,
    };
    expect(
      await checkThumbnailAnswer(
        { kind: 'thumbnail', width: 40, height: 64, webp: goodWebp },
        header,
        { thumbnailSize: 40, maxBytes: goodWebp.length - 1 },
      ),
    ).toMatchObject({ ok: false });
  });
});

describe('what comes before and around the engine', () => {
  it('a refused header never reaches the engine', async () => {
    const bomb = join(dir, 'bomb.png');
    await writeFile(bomb, make.pngClaiming(await make.png(10, 10), 50_000, 50_000));
    const engine = scripted(() => Promise.resolve(thumbnail(1, 1, goodWebp)));
    expect(await checkImageFile(bomb, 'png', { ...inDir(), engine })).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'too_many_pixels', width: 50_000, height: 50_000 },
    });
    expect(engine.calls).toBe(0);
  });

  it('pending, or an engine that cannot start: sized from the header', async () => {
    for (const engine of [
      scripted(() => Promise.resolve({ kind: 'pending' })),
      scripted(() => Promise.reject(new ImageEngineError('no renderer', 'unavailable'))),
    ]) {
      expect(await checkImageFile(file, 'jpeg', { ...inDir(), engine })).toMatchObject({
        kind: 'pending',
        header: { orientedWidth: 40, orientedHeight: 64 },
      });
    }
  });

  it.each(['crashed', 'timeout', 'stopped'] as const)(
    'an engine that %s: its failure, for a later try',
    async (why) => {
      const engine = scripted(() => Promise.reject(new ImageEngineError('gone', why)));
      expect(await checkImageFile(file, 'jpeg', { ...inDir(), engine })).toEqual({
        kind: 'engine_failed',
        why,
      });
    },
  );

  it('an engine that refuses the bytes: undecodable with its detail', async () => {
    const engine = scripted(() => Promise.resolve({ kind: 'undecodable', detail: 'bad huffman' }));
    expect(await checkImageFile(file, 'jpeg', { ...inDir(), engine })).toMatchObject({
      kind: 'undecodable',
      detail: 'bad huffman',
    });
  });
});
