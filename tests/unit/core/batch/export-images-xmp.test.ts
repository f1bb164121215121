/**
 * Exporting images: an image that carries Content Credentials is copied with the XMP sidecar that
 * holds its prompt, both under one stem (`…-image-1.png`, `…-image-1.xmp`), the pair moving to the
 * next free stem together when either name is taken; the image itself is copied byte for byte.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportImages } from '../../../../electron/core/batch/export-images';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { c2paFixture } from '../../../support/c2pa-hostile';
import { makeTaskRecord } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const FOLDER = '2026/01/2026-01-15_120000_harbour_abcd1234';
const STEM = '2026-01-15_120000_harbour_abcd1234-image-1';
const PACKET = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- the prompt --></x:xmpmeta>';

let dir: string;
let root: string;
let out: string;

beforeEach(async () => {
  dir = await tempFolder('export-xmp');
  root = join(dir, 'gallery');
  out = join(dir, 'out');
  await mkdir(join(root, FOLDER), { recursive: true });
  await mkdir(out);
  await writeFile(join(root, FOLDER, 'image-1.png'), c2paFixture('signed.png'));
  await writeFile(join(root, FOLDER, 'image-1.xmp'), PACKET);
});
afterEach(() => removeFolder(dir));

function exportOf(image: Partial<ImageRecord>) {
  const record: TaskRecord = makeTaskRecord({
    localId: 'signed',
    folder: FOLDER,
    images: [
      {
        index: 0,
        url: null,
        state: 'saved',
        attempts: 1,
        favourite: false,
        file: `${FOLDER}/image-1.png`,
        ...image,
      },
    ],
  });
  return () =>
    exportImages(
      {
        get: (id) => (id === record.localId ? record : undefined),
        gallery: { root, resolve: (path) => resolveInside(root, path) },
      },
      [record.localId],
      out,
    );
}

describe('exporting an image with Content Credentials', () => {
  it('copies its XMP sidecar beside it under the same stem, again under the next free one', async () => {
    const run = exportOf({ xmpFile: `${FOLDER}/image-1.xmp` });
    await expect(run()).resolves.toEqual({ copied: 1, failed: 0, skipped: 0 });
    // Only the sidecar's name is taken the second time: the pair moves to the next stem together.
    await rm(join(out, `${STEM}.png`));
    await expect(run()).resolves.toMatchObject({ copied: 1 });
    expect((await readdir(out)).sort()).toEqual([
      `${STEM} (2).png`,
      `${STEM} (2).xmp`,
      `${STEM}.xmp`,
    ]);
    const copy = await readFile(join(out, `${STEM} (2).png`));
    expect(copy.equals(c2paFixture('signed.png'))).toBe(true);
    expect(await readFile(join(out, `${STEM} (2).xmp`), 'utf8')).toBe(PACKET);
  });

  it('copies the image alone when its sidecar is gone, and an image without one alone', async () => {
    await rm(join(root, FOLDER, 'image-1.xmp'));
    await expect(exportOf({ xmpFile: `${FOLDER}/image-1.xmp` })()).resolves.toMatchObject({
      copied: 1,
      failed: 0,
    });
    await expect(exportOf({})()).resolves.toMatchObject({ copied: 1 });
    expect((await readdir(out)).sort()).toEqual([`${STEM} (2).png`, `${STEM}.png`]);
  });
});
