/**
 * A gallery library on disk for the move suites: task folders in the `YYYY/MM/<task>` layout
 * with real sidecars, real PNGs and WebP thumbnails, plus things a move must not carry.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { taskFolderName } from '../../electron/core/gallery/gallery-layout';
import { sidecarText } from '../../electron/core/gallery/sidecar';
import { makeImage, makeRecord } from './gallery-helpers';

/** Writes `count` task folders under `root`; returns their root-relative paths, sorted. */
export async function makeLibrary(
  root: string,
  count: number,
  image: { width: number; height: number } = { width: 32, height: 24 },
): Promise<string[]> {
  const folders: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const record = makeRecord([`http://127.0.0.1:1/${i}.png`], {
      request: { prompt: `library task ${i}`, size: '64x64', quality: 'low' },
    });
    const relative = taskFolderName(record);
    const folder = join(root, ...relative.split('/'));
    await mkdir(join(folder, '.thumbs'), { recursive: true });
    await writeFile(join(folder, 'image-1.png'), await makeImage('png', image.width, image.height));
    await writeFile(join(folder, '.thumbs', 'image-1.webp'), await makeImage('webp', 8, 6));
    await writeFile(join(folder, 'pictor.json'), sidecarText({ ...record, folder: relative }));
    folders.push(relative);
  }
  return folders.sort();
}
