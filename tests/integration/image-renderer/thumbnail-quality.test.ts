/**
 * The image page encodes its thumbnails at every engine's WebP quality (shared/domain/
 * thumbnail-webp.ts, which the sharp-native engine's test holds it to too): its thumbnail of an
 * image it need not scale is, byte for byte, what the same Chromium's encoder makes of the same
 * decoded pixels at that quality, and not what it makes at another (the bytes tell the quality).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THUMBNAIL_WEBP_QUALITY } from '../../../shared/domain/thumbnail-webp';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const WIDTH = 240;
const HEIGHT = 160;
const page = usePageStand(40_000);

/** Chromium's own WebP of `png`'s pixels, at each quality (0–1), in a tab of the page's browser. */
async function chromiumWebps(png: Buffer, qualities: readonly number[]): Promise<Buffer[]> {
  const tab = await page.setup().browser.newPage();
  try {
    const encoded = await tab.evaluate(
      async ({ base64, qualities: asked }) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        // A blank tab is no secure context (no WebCodecs): Chromium's PNG decoder through a Blob.
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
        bitmap.close();
        const out: number[][] = [];
        for (const quality of asked) {
          const blob = await canvas.convertToBlob({ type: 'image/webp', quality });
          out.push([...new Uint8Array(await blob.arrayBuffer())]);
        }
        return out;
      },
      { base64: png.toString('base64'), qualities },
    );
    return encoded.map((bytes) => Buffer.from(bytes));
  } finally {
    await tab.close();
  }
}

describe("the page's thumbnail quality", () => {
  it('is every engine’s: the same bytes as Chromium’s encoder at that quality, not at another', async () => {
    const png = await made.encode(await made.photoPixels(WIDTH, HEIGHT, 5), WIDTH, HEIGHT, 'png');
    const file = join(page.setup().dir, 'quality.png');
    await writeFile(file, png);
    const answer = await page.stand().engine.thumbnail({
      file,
      header: made.headerOf('png', WIDTH, HEIGHT),
      thumbnailSize: 384,
    });
    if (answer.kind !== 'thumbnail') throw new Error(`no thumbnail: ${JSON.stringify(answer)}`);
    const thumbnail = Buffer.from(answer.webp);
    const [atQuality, below] = await chromiumWebps(png, [
      THUMBNAIL_WEBP_QUALITY / 100,
      (THUMBNAIL_WEBP_QUALITY - 2) / 100,
    ]);
    expect(thumbnail.equals(atQuality!)).toBe(true);
    expect(thumbnail.equals(below!)).toBe(false);
  });
});
