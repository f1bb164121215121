/**
 * A gallery image that is a hard link to a file outside the gallery (a crafted folder, a
 * deduplicating tool): no check on a path can tell it from the image, so what keeps the outside
 * file safe is that Pictor never writes into a gallery file in place. Writing a rating into the
 * image (the edit made in the temp folder and renamed over the link) leaves the outside file's
 * bytes as they were and the gallery holding its own copy. Real files on this disk.
 */
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedTriageInFile } from '../../../electron/core/gallery/metadata/embed-triage';
import { addTask, useLibrary } from '../../unit/core/library/archive/library-fixture';

const library = useLibrary();

describe('a gallery image hard-linked to a file outside', () => {
  it('takes a rating without one byte of the outside file changing', async () => {
    const record = await addTask(library);
    const image = record.images[0]!;
    const path = join(library.root, ...(image.file ?? '').split('/'));
    const outside = join(library.dir, 'outside.png');
    const before = await readFile(path);
    await writeFile(outside, before);
    await unlink(path);
    await link(outside, path);
    expect((await stat(outside)).nlink).toBe(2);

    const result = await embedTriageInFile(
      path,
      { record, image: { ...image, rating: 4 }, kind: 'png' },
      { root: library.root, maxBytes: 64 * 1024 * 1024, appVersion: '9.9.9' },
    );
    expect(result).toHaveProperty('written');
    expect(await readFile(outside)).toEqual(before);
    expect((await stat(outside)).nlink).toBe(1);
    expect((await readFile(path)).equals(before)).toBe(false);
  });
});
