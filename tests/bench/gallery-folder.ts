/**
 * A gallery folder for the benches that open the real app on a bench history
 * (tests/bench/history-fixture.ts): each bench image's thumbnail as a real WebP file.
 */
import { linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { benchRecord } from './history-fixture';

/** Distinct pictures the thumbnails are hard links to. */
export const THUMBNAILS = 32;

/** Small WebP thumbnails like the app's, a few dozen distinct pictures. */
async function writeThumbnails(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let n = 0; n < THUMBNAILS; n += 1) {
    const hue = (n * 37) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="384" height="384"><rect width="384" height="384" fill="hsl(${hue},65%,55%)"/><circle cx="${120 + ((n * 23) % 140)}" cy="${130 + ((n * 17) % 120)}" r="${50 + (n % 4) * 15}" fill="hsl(${(hue + 180) % 360},80%,85%)"/></svg>`;
    const file = join(dir, `${n}.webp`);
    await sharp(Buffer.from(svg)).webp({ quality: 80 }).toFile(file);
    files.push(file);
  }
  return files;
}

/** Bench tasks `[from, to)`: the newest are the highest. */
export type TaskRange = readonly [from: number, to: number];

/**
 * The gallery folder: each bench image's thumbnail path (as its record names it) is a hard link
 * to one of the shared pictures: real files, as the protocol serves them, in a second or two. The
 * bench tasks of each range get theirs.
 */
export async function writeGallery(root: string, ranges: readonly TaskRange[]): Promise<number> {
  const shared = await writeThumbnails(join(root, 'thumbnail-sources'));
  const gallery = join(root, 'gallery');
  let count = 0;
  for (const [from, to] of ranges) {
    for (let n = from; n < to; n += 1) {
      const record = benchRecord(n);
      mkdirSync(join(gallery, record.folder ?? `2024/${n}`), { recursive: true });
      for (const image of record.images) {
        if (image.thumbnail === undefined) continue;
        linkSync(shared[count % THUMBNAILS]!, join(gallery, image.thumbnail));
        count += 1;
      }
    }
  }
  return count;
}
