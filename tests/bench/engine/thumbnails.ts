/**
 * The "Thumbnails" row: 2048×2048 PNGs through the gallery's own check-and-thumbnail step
 * (checkImage in electron/core/gallery/image-finish.ts: header, pixel limit, full decode,
 * 384 px WebP), handed over as the engine would, up to 16 at a time.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { checkImage } from '../../../electron/core/gallery/image-finish';
import { renderPng } from '../../../electron/demo-service/image-renderer';

export interface ThumbnailFigures {
  readonly count: number;
  readonly wallMs: number;
  readonly perSecond: number;
  readonly meanFileBytes: number;
  readonly failed: number;
}

const SIDE = 2048;

/**
 * A photo-like 2048² PNG: the demo service's art with ±6 of noise per channel, so it compresses
 * like a generated picture (several MB) rather than like flat shapes.
 */
async function photoLikePng(n: number): Promise<Buffer> {
  const art = await renderPng({
    prompt: `thumbnail ${n}`,
    width: SIDE,
    height: SIDE,
    index: 0,
    seed: n,
  });
  const raw = await sharp(art).removeAlpha().raw().toBuffer();
  const noise = randomBytes(raw.length);
  for (let i = 0; i < raw.length; i += 1) {
    raw[i] = Math.max(0, Math.min(255, (raw[i] ?? 0) + ((noise[i] ?? 0) % 13) - 6));
  }
  return sharp(raw, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toBuffer();
}

/** Makes `distinct` images, then thumbnails `count` files (copies of them) and times it. */
export async function measureThumbnails(
  count: number,
  distinct: number,
): Promise<ThumbnailFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-thumbs-'));
  try {
    const images = await Promise.all(Array.from({ length: distinct }, (_, n) => photoLikePng(n)));
    const files = await Promise.all(
      Array.from({ length: count }, async (_, n) => {
        const file = join(dir, `image-${n}.png`);
        await writeFile(file, images[n % distinct] ?? Buffer.alloc(0));
        return file;
      }),
    );
    const queue = [...files];
    let failed = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          const result = await checkImage(file, 'png', {
            maxPixels: 100_000_000,
            thumbnailSize: 384,
          });
          if ('state' in result) failed += 1;
        }
      }),
    );
    const wallMs = performance.now() - started;
    return {
      count,
      wallMs,
      perSecond: (count / wallMs) * 1000,
      meanFileBytes: images.reduce((sum, image) => sum + image.length, 0) / images.length,
      failed,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
