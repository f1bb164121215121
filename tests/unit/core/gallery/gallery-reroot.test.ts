/**
 * Gallery.reroot: the one gallery of the one core takes another folder (the library moved or was
 * opened elsewhere). Every path is then taken inside the new root, which is made ready as at
 * start; a folder that is not absolute is refused and the root stays.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEMP_DIR } from '../../../../electron/core/fs/temp-names';
import { GalleryPathError } from '../../../../electron/core/fs/gallery-path';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import { TempFolders } from '../../../support/temp-folders';

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

async function gallery() {
  const dir = await dirs.make('reroot');
  const { gallery: made } = galleryOnServer(join(dir, 'first'));
  await made.init();
  return { dir, gallery: made };
}

describe('Gallery.reroot', () => {
  it('takes every path inside the new folder and makes it ready', async () => {
    const { dir, gallery: moved } = await gallery();
    const next = join(dir, 'second');
    await moved.reroot(next);
    expect(moved.root).toBe(next);
    expect(moved.resolve('2026/01/task/image-1.png')).toBe(join(next, '2026/01/task/image-1.png'));
    expect(existsSync(join(next, TEMP_DIR))).toBe(true);
  });

  it.each(['relative/folder', '', '.', '../up'])(
    'refuses %j, which is not absolute, and keeps its root',
    async (folder) => {
      const { dir, gallery: kept } = await gallery();
      await expect(kept.reroot(folder)).rejects.toBeInstanceOf(GalleryPathError);
      expect(kept.root).toBe(join(dir, 'first'));
    },
  );
});
