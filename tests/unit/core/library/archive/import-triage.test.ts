/**
 * An import keeps of each image's triage what a record may hold, and its summary says what it
 * dropped: an archive made by the project's own export, then edited to 70 tags on one image,
 * comes in with 64 and the sentence "6 tags were dropped"; importing it again says so again;
 * a repeated tag is no loss, one with a forbidden character is, and so are boards past 256. The
 * task's sidecar and XMP in the gallery hold what the history holds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImageRecord, TaskRecord } from '../../../../../shared/domain/task-record';
import { englishText } from '../../../../../shared/i18n/sentence';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { parseSidecar } from '../../../../../electron/core/gallery/sidecar';
import { editArchive } from './edit-archive';
import { addTask, importInto, useLibraries, type Library } from './library-fixture';

const library = useLibraries();

const numbered = (word: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${word} ${String(n)}`);

const SIX_DROPPED =
  'An image can have at most 64 tags: 6 tags were dropped from the imported images (past that limit or not valid).';

/** A library's one task, its image rated 4 with three tags, exported by the project's export. */
async function exported(): Promise<{ from: Library; task: TaskRecord; archive: string }> {
  const from = await library();
  const added = await addTask(from, ['png']);
  const task: TaskRecord = {
    ...added,
    images: added.images.map((image) => ({ ...image, rating: 4, tags: ['sea', 'dusk', 'boat'] })),
  };
  // Triage is the user's edit (a write of the record keeps the stored triage: image-rows.ts).
  from.history.editMany([task.localId], () => task);
  const archive = join(from.dir, 'export.zip');
  await exportLibrary({
    root: from.root,
    history: from.history,
    target: archive,
    pictorVersion: 't',
  });
  return { from, task, archive };
}

/** The archive with the task's images' triage changed by `change`. */
function edited(archive: string, name: string, change: (image: ImageRecord) => ImageRecord) {
  return editArchive(archive, join(archive, '..', name), (record) => ({
    ...record,
    images: record.images.map(change),
  }));
}

describe('an import’s summary of the triage it could not keep', () => {
  it('keeps 64 of 70 tags on one image and says 6 were dropped, again on a second import', async () => {
    const { task, archive } = await exported();
    const seventy = numbered('tag', 70);
    const crafted = await edited(archive, 'seventy.zip', (image) => ({ ...image, tags: seventy }));

    const to = await library();
    const summary = await importInto(to, crafted);
    expect(summary).toMatchObject({ addedTasks: 1, addedImages: 1, refused: [], cancelled: false });
    expect(summary.notes.map(englishText)).toEqual([SIX_DROPPED]);
    const image = to.history.get(task.localId)!.images[0]!;
    expect(image.tags).toEqual(seventy.slice(0, 64));
    expect(image).toMatchObject({ rating: 4, state: 'saved' });

    // The gallery's sidecar holds the same 64 (a rebuild reads no loss), its XMP the same subjects.
    const folder = join(to.root, ...task.folder!.split('/'));
    const sidecar = parseSidecar(await readFile(join(folder, 'pictor.json'), 'utf8'));
    expect(sidecar.ok && sidecar.record.images[0]!.tags).toEqual(seventy.slice(0, 64));
    expect(sidecar.ok && sidecar.notes).toEqual([]);
    const xmp = await readFile(join(folder, 'image-1.xmp'), 'utf8');
    expect(xmp).toContain('<rdf:li>tag 63</rdf:li>');
    expect(xmp).not.toContain('<rdf:li>tag 64</rdf:li>');

    // The same archive again: a duplicate image, whose 6 extra tags the library still lacks.
    const again = await importInto(to, crafted);
    expect(again).toMatchObject({ addedTasks: 0, duplicateImages: 1 });
    expect(again.notes.map(englishText)).toEqual([SIX_DROPPED]);
    expect(to.history.get(task.localId)!.images[0]!.tags).toHaveLength(64);
  });

  it('counts a tag not allowed and boards past 256, not a repeat; says nothing when all is kept', async () => {
    const { task, archive } = await exported();
    const crafted = await edited(archive, 'mixed.zip', (image) => ({
      ...image,
      tags: ['Cat', 'cat', 'evil\u202Egnp'],
      boards: numbered('Board', 258),
    }));
    const to = await library();
    const summary = await importInto(to, crafted);
    expect(summary.notes.map(englishText)).toEqual([
      'An image can have at most 64 tags: 1 tag was dropped from the imported images (past that limit or not valid).',
      'An image can be in at most 256 boards: 2 boards were dropped from the imported images (past that limit or not valid).',
    ]);
    const image = to.history.get(task.localId)!.images[0]!;
    expect(image.tags).toEqual(['Cat']);
    expect(image.boards).toEqual(numbered('Board', 256));

    const plain = await library();
    expect((await importInto(plain, archive)).notes).toEqual([]);
    expect(plain.history.get(task.localId)!.images[0]!.tags).toEqual(['sea', 'dusk', 'boat']);
  });
});
