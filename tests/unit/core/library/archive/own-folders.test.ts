/**
 * Importing a Pictor gallery folder: Pictor's own folders in it (the trash of deleted images
 * waiting for Undo, files being written, thumbnails, any `.pictor-` folder a later version adds)
 * are Pictor's working files, not the library: they are left out without a word, never listed
 * as refused, and their images never imported.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRASH_DIR } from '../../../../../electron/core/trash/gallery-trash';
import { THUMBS_DIR } from '../../../../../electron/core/gallery/gallery-layout';
import { TEMP_DIR } from '../../../../../electron/core/fs/temp-names';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { makeImage } from '../../../../support/gallery-helpers';
import { addTask, makeLibrary, type Library } from './library-fixture';
import { removeFolder } from '../../../../support/temp-folders';

const made: Library[] = [];
afterEach(async () => {
  for (const library of made.splice(0)) {
    library.history.close();
    await removeFolder(library.dir);
  }
});

async function library(): Promise<Library> {
  const created = await makeLibrary();
  made.push(created);
  return created;
}

describe('importing a gallery folder with Pictor’s own folders in it', () => {
  it('leaves them out silently and imports the library', async () => {
    const from = await library();
    await addTask(from, ['png']);
    const png = await makeImage('png', 8, 8);
    for (const own of [TRASH_DIR, TEMP_DIR, '.pictor-journal', `2025/01/${THUMBS_DIR}`]) {
      await mkdir(join(from.root, own, 'held'), { recursive: true });
      await writeFile(join(from.root, own, 'held', 'image-1.png'), png);
      await writeFile(join(from.root, own, 'note.json'), '{}');
    }
    const to = await library();
    const summary = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: from.root,
    });
    expect(summary).toMatchObject({ addedTasks: 1, addedImages: 1 });
    expect(summary.refused).toEqual([]);
  });
});
