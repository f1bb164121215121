/**
 * Undo of a delete puts an image back from the gallery's trash folder. Another local process
 * that can write in the gallery swaps the image's folder in the trash for a link to an outside
 * twin around each file call (scripted-swaps.ts): whatever it does, the file put back must be the
 * held image or nothing, never the private file outside (a hard link to it, or a copy of it).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GalleryTrash, TRASH_DIR, heldNames } from '../../../../electron/core/trash/gallery-trash';
import { filesUnder } from '../../../support/files';
import { makeImage } from '../../../support/gallery-helpers';
import { scriptSwaps } from '../../../support/scripted-swaps';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const IMAGE = '2025/01/task/image-1.png';

let dir: string;
let root: string;
let own: Buffer;
let secret: Buffer;
let trash: GalleryTrash;
const files = heldNames([{ role: 'image', path: IMAGE }]);

beforeEach(async () => {
  dir = await tempFolder('gallery');
  root = join(dir, 'gallery');
  await mkdir(join(root, '2025', '01', 'task'), { recursive: true });
  own = await makeImage('png', 21, 13);
  await writeFile(join(root, ...IMAGE.split('/')), own);
  secret = await makeImage('png', 21, 13);
  await mkdir(join(dir, 'outside'));
  await writeFile(join(dir, 'outside', files[0]!.held), secret);
  trash = new GalleryTrash({ root, sendToSystemTrash: () => Promise.resolve() });
  await trash.hold(ID, files);
});

afterEach(async () => {
  await removeFolder(dir);
});

const pixels = (png: Buffer) => png.subarray(33, png.length - 12);

async function galleryHolds(bytes: Buffer): Promise<boolean> {
  for (const file of await filesUnder(root)) {
    if ((await readFile(file)).includes(pixels(bytes))) return true;
  }
  return false;
}

describe('putting an image back from the trash', () => {
  it('brings nothing from outside when its trash folder is swapped for a link', async () => {
    const swaps = scriptSwaps(join(root, TRASH_DIR, ID), join(dir, 'outside'));
    let outcome: unknown;
    try {
      outcome = await trash.placeBack(ID, files).catch((error: unknown) => error);
    } finally {
      await swaps.restore();
    }
    expect(swaps.linked()).toBeGreaterThan(0);
    expect(outcome).toBeInstanceOf(Error);
    expect(await galleryHolds(secret)).toBe(false);
    // The held image is still in the trash, for the next try.
    expect(await galleryHolds(own)).toBe(true);
  });

  it('puts the held image back when nothing is swapped', async () => {
    expect(await trash.placeBack(ID, files)).toEqual([{ role: 'image', path: IMAGE }]);
    expect((await readFile(join(root, ...IMAGE.split('/')))).equals(own)).toBe(true);
  });
});
