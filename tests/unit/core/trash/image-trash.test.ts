/**
 * Deleting images with Undo (core/trash/trash-operations.ts over core/trash/gallery-trash.ts)
 * in plain Node: real files and links, a real journal folder, in-memory records, a manual clock
 * for the time to undo.
 */
import { existsSync } from 'node:fs';
import { lstat, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UnsafePathError } from '../../../../electron/core/fs/contained-fs';
import { GalleryImageError } from '../../../../electron/core/gallery/gallery-images';
import { TRASH_DIR } from '../../../../electron/core/trash/gallery-trash';
import { galleryWithImages, inTrash, onlyRecord } from './trash-fixture';
import { UNTIL } from '../../../support/waits';
import { testFolder } from '../../../support/per-test';

describe('deleting an image', () => {
  it('moves the file and thumbnail to the gallery trash and marks the image deleted', async () => {
    const g = await galleryWithImages();
    const updated = onlyRecord(await g.ops.deleteImages(g.refs));
    expect(existsSync(join(g.root, 'task-0', 'image-1.png'))).toBe(false);
    expect(existsSync(join(g.root, 'task-0', '.thumbs', 'image-1.webp'))).toBe(false);
    const held = await inTrash(g.root);
    expect(held).toHaveLength(2);
    expect(held.some((path) => path.endsWith(`${sep}image-1.png`))).toBe(true);
    expect(g.trashed).toEqual([]);
    expect(updated.images[0]).toMatchObject({ state: 'deleted' });
    expect(updated.images[0]).not.toHaveProperty('file');
    expect(updated.images[0]).not.toHaveProperty('thumbnail');
    expect(updated.images[1]).toEqual(g.tasks[0]!.images[1]);
    expect(g.records.get(g.tasks[0]!.localId)).toBe(updated);
  });

  it('sends the image on to the system trash after the time to undo, under its own name', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    await g.clock.advance(59_000);
    expect(g.trashed).toEqual([]);
    await g.clock.advance(1_000);
    await vi.waitFor(() => expect(g.trashed).toHaveLength(1), UNTIL);
    expect(basename(g.trashed[0]!)).toBe('image-1.png');
    await vi.waitFor(async () => expect(await inTrash(g.root)).toEqual([]), UNTIL);
    await vi.waitFor(async () => expect(await readdir(g.journalDir)).toEqual([]), UNTIL);
    await expect(g.ops.restoreImages(g.refs).then(onlyRecord)).rejects.toThrow(
      /no longer be restored/,
    );
  });

  it('empties to the system trash on demand (the app quits), journal and timers gone', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    await g.ops.empty();
    expect(g.trashed).toHaveLength(1);
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(await readdir(g.journalDir)).toEqual([]);
    expect(g.clock.pending).toBe(0);
  });

  it('writes its journal owner-only, in an owner-only folder', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const [file] = await readdir(g.journalDir);
    expect(file).toMatch(/^batch-[0-9a-f-]{36}\.json$/);
    if (process.platform !== 'win32') {
      expect((await lstat(join(g.journalDir, file!))).mode & 0o777).toBe(0o600);
      expect((await lstat(g.journalDir)).mode & 0o777).toBe(0o700);
    }
  });

  it('changes nothing when the file cannot be moved', async () => {
    const g = await galleryWithImages();
    await rm(join(g.root, 'task-0', 'image-1.png'));
    const outcome = await g.ops.deleteImages(g.refs);
    expect(outcome).toMatchObject({ records: [], failed: 1 });
    expect(g.records.get(g.tasks[0]!.localId)).toBe(g.tasks[0]);
    expect(existsSync(join(g.root, 'task-0', '.thumbs', 'image-1.webp'))).toBe(true);
    expect(await inTrash(g.root)).toEqual([]);
    expect(await readdir(g.journalDir)).toEqual([]);
  });

  it('moves nothing when the journal cannot be written', async () => {
    const g = await galleryWithImages();
    await rm(g.journalDir, { recursive: true, force: true });
    await writeFile(g.journalDir, 'a file where the journal folder goes');
    await expect(g.ops.deleteImages(g.refs)).rejects.toThrow();
    expect(existsSync(join(g.root, 'task-0', 'image-1.png'))).toBe(true);
    expect(g.records.get(g.tasks[0]!.localId)).toBe(g.tasks[0]);
  });

  it('never moves a thumbnail through a link, and still deletes the image', async () => {
    const g = await galleryWithImages();
    const outside = await testFolder('outside');
    await writeFile(join(outside, 'image-1.webp'), 'not Pictor’s');
    await rm(join(g.root, 'task-0', '.thumbs'), { recursive: true });
    await symlink(outside, join(g.root, 'task-0', '.thumbs'));
    const updated = onlyRecord(await g.ops.deleteImages(g.refs));
    expect(updated.images[0]!.state).toBe('deleted');
    expect(await readFile(join(outside, 'image-1.webp'), 'utf8')).toBe('not Pictor’s');
    await g.ops.empty();
    expect(await readFile(join(outside, 'image-1.webp'), 'utf8')).toBe('not Pictor’s');
  });

  it('makes a real trash folder where a link stood, writing nothing through it', async () => {
    const g = await galleryWithImages();
    const outside = await testFolder('outside');
    await symlink(outside, join(g.root, TRASH_DIR));
    await g.ops.deleteImages(g.refs);
    expect((await lstat(join(g.root, TRASH_DIR))).isDirectory()).toBe(true);
    expect(await readdir(outside)).toEqual([]);
    expect(await inTrash(g.root)).toHaveLength(2);
    await g.ops.restoreImages(g.refs);
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('png bytes 0');
  });

  it('refuses an image that is not in the gallery or not on disk, moving nothing', async () => {
    const g = await galleryWithImages();
    const outcome = await g.ops.deleteImages([
      { localId: 'no-such-task', index: 0 },
      { localId: g.tasks[0]!.localId, index: 7 },
      { localId: g.tasks[0]!.localId, index: 1 },
    ]);
    expect(outcome.failed).toBe(3);
    expect(outcome.problem).toBeInstanceOf(GalleryImageError);
    expect(existsSync(join(g.root, TRASH_DIR))).toBe(false);
    expect(await readdir(g.journalDir).catch(() => [])).toEqual([]);
  });
});

describe('restoring an image', () => {
  it('puts the file and thumbnail back under their names and says saved again', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const restored = onlyRecord(await g.ops.restoreImages(g.refs));
    expect(restored.images[0]).toEqual(g.tasks[0]!.images[0]);
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('png bytes 0');
    expect(await readFile(join(g.root, 'task-0', '.thumbs', 'image-1.webp'), 'utf8')).toBe(
      'thumb bytes 0',
    );
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(await readdir(g.journalDir)).toEqual([]);
    expect(g.clock.pending).toBe(0);
    const again = await g.ops.restoreImages(g.refs);
    expect(again.problem).toBeInstanceOf(GalleryImageError);
  });

  describe('an image with an XMP sidecar (it carries Content Credentials)', () => {
    /** The fixture's image given a sidecar `image-1.xmp`, named in its record. */
    async function withSidecar() {
      const g = await galleryWithImages();
      await writeFile(join(g.root, 'task-0', 'image-1.xmp'), 'xmp of image 1');
      const task = g.tasks[0]!;
      g.records.map.set(task.localId, {
        ...task,
        images: [{ ...task.images[0]!, xmpFile: 'task-0/image-1.xmp' }, task.images[1]!],
      });
      return g;
    }

    it('brings the sidecar back under its name when the image keeps its own', async () => {
      const g = await withSidecar();
      await g.ops.deleteImages(g.refs);
      const restored = onlyRecord(await g.ops.restoreImages(g.refs)).images[0]!;
      expect(restored).toMatchObject({ file: 'task-0/image-1.png', xmpFile: 'task-0/image-1.xmp' });
      expect(await readFile(join(g.root, 'task-0', 'image-1.xmp'), 'utf8')).toBe('xmp of image 1');
    });

    it('sends the sidecar on to the system trash with its image after the time to undo', async () => {
      const g = await withSidecar();
      await g.ops.deleteImages(g.refs);
      expect(existsSync(join(g.root, 'task-0', 'image-1.xmp'))).toBe(false);
      await g.clock.advance(59_000);
      expect(g.trashed).toEqual([]);
      await g.clock.advance(1_000);
      await vi.waitFor(() => expect(g.trashed).toHaveLength(2), UNTIL);
      expect(g.trashed.map((path) => basename(path)).sort()).toEqual([
        'image-1.png',
        'image-1.xmp',
      ]);
      await vi.waitFor(async () => expect(await inTrash(g.root)).toEqual([]), UNTIL);
      await vi.waitFor(async () => expect(await readdir(g.journalDir)).toEqual([]), UNTIL);
    });

    it('empties the sidecar to the system trash on demand, with its image', async () => {
      const g = await withSidecar();
      await g.ops.deleteImages(g.refs);
      await g.ops.empty();
      expect(g.trashed.map((path) => basename(path)).sort()).toEqual([
        'image-1.png',
        'image-1.xmp',
      ]);
      expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    });

    it.each([
      ['the image’s name and nothing else', ['image-1.png']],
      ['the image’s and the sidecar’s names', ['image-1.png', 'image-1.xmp']],
      ['two restored names', ['image-1.png', 'image-1-restored-1.png']],
    ])('the sidecar follows the image’s new name when %s are taken', async (_case, taken) => {
      const g = await withSidecar();
      await g.ops.deleteImages(g.refs);
      for (const name of taken) await writeFile(join(g.root, 'task-0', name), 'someone else’s');
      const restored = onlyRecord(await g.ops.restoreImages(g.refs)).images[0]!;
      const stem = restored.file!.replace(/\.png$/, '');
      expect(stem).toMatch(/^task-0\/image-1-restored-\d$/);
      expect(restored.xmpFile).toBe(`${stem}.xmp`);
      expect(await readFile(join(g.root, `${stem}.xmp`), 'utf8')).toBe('xmp of image 1');
      expect(await readFile(join(g.root, `${stem}.png`), 'utf8')).toBe('png bytes 0');
      // Nothing of this image is left under the old stem, and what took it is untouched.
      for (const name of taken)
        expect(await readFile(join(g.root, 'task-0', name), 'utf8')).toBe('someone else’s');
      if (!taken.includes('image-1.xmp'))
        expect(existsSync(join(g.root, 'task-0', 'image-1.xmp'))).toBe(false);
    });
  });

  it('reports its progress, the last report at the end', async () => {
    const g = await galleryWithImages(3);
    await g.ops.deleteImages(g.refs);
    const seen: unknown[] = [];
    g.ops.onDidProgress((progress) => seen.push(progress));
    await g.ops.restoreImages(g.refs);
    expect(seen.at(-1)).toEqual({ operation: 'restore', items: 'images', done: 3, total: 3 });
  });

  it('never overwrites: a file that took the name meanwhile stays, the image comes back beside it', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    await writeFile(join(g.root, 'task-0', 'image-1.png'), 'someone else’s');
    const outside = await testFolder('outside');
    await symlink(join(outside, 'target.png'), join(g.root, 'task-0', 'image-1-restored-1.png'));
    const restored = onlyRecord(await g.ops.restoreImages(g.refs));
    expect(restored.images[0]!.file).toBe('task-0/image-1-restored-2.png');
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('someone else’s');
    expect(await readFile(join(g.root, 'task-0', 'image-1-restored-2.png'), 'utf8')).toBe(
      'png bytes 0',
    );
    // The dangling link was not written through.
    expect(await readdir(outside)).toEqual([]);
  });

  it('makes the task folder again when it was removed meanwhile', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    await rm(join(g.root, 'task-0'), { recursive: true });
    await g.ops.restoreImages(g.refs);
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('png bytes 0');
  });

  it('refuses to restore through a task folder replaced by a link, and keeps the image held', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const outside = await testFolder('outside');
    await rm(join(g.root, 'task-0'), { recursive: true });
    await symlink(outside, join(g.root, 'task-0'));
    const outcome = await g.ops.restoreImages(g.refs);
    expect(outcome.problem).toBeInstanceOf(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
    expect(g.records.get(g.tasks[0]!.localId)?.images[0]?.state).toBe('deleted');
    // Still held: it goes on to the system trash in time, not lost.
    await g.ops.empty();
    expect(g.trashed).toHaveLength(1);
  });

  it('refuses an image whose record changed since the delete', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    g.records.edit(g.tasks[0]!.localId, (record) => ({
      ...record,
      images: record.images.map((image) => ({ ...image, state: 'pending' as const })),
    }));
    const outcome = await g.ops.restoreImages(g.refs);
    expect(String(outcome.problem)).toMatch(/changed since/);
  });
});
