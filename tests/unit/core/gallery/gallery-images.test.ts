/**
 * Deleting an image with Undo (core/gallery/gallery-images.ts, gallery-trash.ts) in plain Node:
 * real files and links, in-memory records, a manual clock for the time to undo.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, sep } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnsafePathError } from '../../../../electron/core/fs/contained-fs';
import {
  GalleryImageError,
  deleteImage,
  findImage,
  restoreImage,
  savedFile,
  type DeleteImageDeps,
} from '../../../../electron/core/gallery/gallery-images';
import { GalleryTrash, TRASH_DIR } from '../../../../electron/core/gallery/gallery-trash';
import { ManualClock } from '../../../fakes/manual-clock';
import { resolveInside } from '../../../../electron/core/gallery/gallery-path';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeRecord } from '../../../support/gallery-helpers';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `pictor-${name}-`));
  dirs.push(dir);
  return dir;
}

/**
 * A gallery folder with one task whose first image is saved, with its thumbnail (and, with `xmp`,
 * the XMP sidecar of an image that carries Content Credentials).
 */
async function galleryWithSavedImage({ xmp = false } = {}) {
  const root = await tempDir('gallery');
  await mkdir(join(root, 'task', '.thumbs'), { recursive: true });
  await writeFile(join(root, 'task', 'image-1.png'), 'png bytes');
  await writeFile(join(root, 'task', '.thumbs', 'image-1.webp'), 'thumb bytes');
  if (xmp) await writeFile(join(root, 'task', 'image-1.xmp'), 'xmp packet');
  const base = makeRecord(['https://cdn.example/1.png', 'https://cdn.example/2.png']);
  const saved: TaskRecord = {
    ...base,
    images: [
      {
        ...base.images[0]!,
        state: 'saved',
        file: 'task/image-1.png',
        thumbnail: 'task/.thumbs/image-1.webp',
        ...(xmp ? { xmpFile: 'task/image-1.xmp' } : {}),
      },
      base.images[1]!,
    ],
  };
  const records = new Map([[saved.localId, saved]]);
  const trashed: string[] = [];
  const clock = new ManualClock();
  const trash = new GalleryTrash({
    root,
    clock,
    keepMs: 60_000,
    sendToSystemTrash: async (file) => {
      trashed.push(file);
      await rm(file);
    },
  });
  const deps: DeleteImageDeps = {
    records: {
      get: (localId) => records.get(localId),
      edit: (localId, change) => {
        const next = change(records.get(localId)!);
        records.set(localId, next);
        return next;
      },
    },
    files: { root, resolve: (relative) => resolveInside(root, relative) },
    trash,
  };
  const ref = { localId: saved.localId, index: 0 };
  return { root, record: saved, records, trashed, deps, clock, trash, ref };
}

/** The files under `.pictor-trash`, relative to it. */
async function inTrash(root: string): Promise<string[]> {
  const found: string[] = [];
  const folder = join(root, TRASH_DIR);
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name).slice(folder.length + 1));
  }
  return found.sort();
}

describe('deleteImage', () => {
  it('moves the file and thumbnail to the gallery trash and marks the image deleted', async () => {
    const g = await galleryWithSavedImage();
    const updated = await deleteImage(g.deps, g.ref);
    expect(existsSync(join(g.root, 'task', 'image-1.png'))).toBe(false);
    expect(existsSync(join(g.root, 'task', '.thumbs', 'image-1.webp'))).toBe(false);
    const held = await inTrash(g.root);
    expect(held).toHaveLength(2);
    expect(held.some((path) => path.endsWith(`${sep}image-1.png`))).toBe(true);
    expect(g.trashed).toEqual([]);
    expect(updated.images[0]).toMatchObject({ state: 'deleted' });
    expect(updated.images[0]).not.toHaveProperty('file');
    expect(updated.images[0]).not.toHaveProperty('thumbnail');
    expect(updated.images[1]).toEqual(g.record.images[1]);
    expect(g.records.get(g.record.localId)).toBe(updated);
  });

  it('sends the image on to the system trash after the time to undo, under its own name', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    await g.clock.advance(59_000);
    expect(g.trashed).toEqual([]);
    await g.clock.advance(1_000);
    await vi.waitFor(() => expect(g.trashed).toHaveLength(1));
    expect(basename(g.trashed[0]!)).toBe('image-1.png');
    await vi.waitFor(async () => expect(await inTrash(g.root)).toEqual([]));
    await expect(restoreImage(g.deps, g.ref)).rejects.toThrow(/no longer be restored/);
  });

  it('empties to the system trash on demand (the app quits)', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    await g.trash.empty();
    expect(g.trashed).toHaveLength(1);
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(g.clock.pending).toBe(0);
  });

  it('changes nothing when the file cannot be moved', async () => {
    const g = await galleryWithSavedImage();
    await rm(join(g.root, 'task', 'image-1.png'));
    await expect(deleteImage(g.deps, g.ref)).rejects.toThrow();
    expect(g.records.get(g.record.localId)).toBe(g.record);
    expect(existsSync(join(g.root, 'task', '.thumbs', 'image-1.webp'))).toBe(true);
    expect(await inTrash(g.root)).toEqual([]);
  });

  it('never moves a thumbnail through a link, and still deletes the image', async () => {
    const g = await galleryWithSavedImage();
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'image-1.webp'), 'not Pictor’s');
    await rm(join(g.root, 'task', '.thumbs'), { recursive: true });
    await symlink(outside, join(g.root, 'task', '.thumbs'));
    const updated = await deleteImage(g.deps, g.ref);
    expect(updated.images[0]!.state).toBe('deleted');
    expect(await readFile(join(outside, 'image-1.webp'), 'utf8')).toBe('not Pictor’s');
    await g.trash.empty();
    expect(await readFile(join(outside, 'image-1.webp'), 'utf8')).toBe('not Pictor’s');
  });

  it('makes a real trash folder where a link stood, writing nothing through it', async () => {
    const g = await galleryWithSavedImage();
    const outside = await tempDir('outside');
    await symlink(outside, join(g.root, TRASH_DIR));
    await deleteImage(g.deps, g.ref);
    expect((await lstat(join(g.root, TRASH_DIR))).isDirectory()).toBe(true);
    expect(await readdir(outside)).toEqual([]);
    expect(await inTrash(g.root)).toHaveLength(2);
    await restoreImage(g.deps, g.ref);
    expect(await readFile(join(g.root, 'task', 'image-1.png'), 'utf8')).toBe('png bytes');
  });

  it('refuses an image that is not in the gallery or not on disk, moving nothing', async () => {
    const g = await galleryWithSavedImage();
    for (const ref of [
      { localId: 'no-such-task', index: 0 },
      { localId: g.record.localId, index: 7 },
      { localId: g.record.localId, index: 1 },
    ]) {
      await expect(deleteImage(g.deps, ref)).rejects.toBeInstanceOf(GalleryImageError);
    }
    expect(existsSync(join(g.root, TRASH_DIR))).toBe(false);
  });
});

describe('restoreImage', () => {
  it('puts the file and thumbnail back under their names and says saved again', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    const restored = await restoreImage(g.deps, g.ref);
    expect(restored.images[0]).toEqual(g.record.images[0]);
    expect(await readFile(join(g.root, 'task', 'image-1.png'), 'utf8')).toBe('png bytes');
    expect(await readFile(join(g.root, 'task', '.thumbs', 'image-1.webp'), 'utf8')).toBe(
      'thumb bytes',
    );
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(g.clock.pending).toBe(0);
    await expect(restoreImage(g.deps, g.ref)).rejects.toBeInstanceOf(GalleryImageError);
  });

  it('never overwrites: a file that took the name meanwhile stays, the image comes back beside it', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    await writeFile(join(g.root, 'task', 'image-1.png'), 'someone else’s');
    const outside = await tempDir('outside');
    await symlink(join(outside, 'target.png'), join(g.root, 'task', 'image-1-restored-1.png'));
    const restored = await restoreImage(g.deps, g.ref);
    expect(restored.images[0]!.file).toBe('task/image-1-restored-2.png');
    expect(await readFile(join(g.root, 'task', 'image-1.png'), 'utf8')).toBe('someone else’s');
    expect(await readFile(join(g.root, 'task', 'image-1-restored-2.png'), 'utf8')).toBe(
      'png bytes',
    );
    // The dangling link was not written through.
    expect(await readdir(outside)).toEqual([]);
  });

  it('makes the task folder again when it was removed meanwhile', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    await rm(join(g.root, 'task'), { recursive: true });
    await restoreImage(g.deps, g.ref);
    expect(await readFile(join(g.root, 'task', 'image-1.png'), 'utf8')).toBe('png bytes');
  });

  it('refuses to restore through a task folder replaced by a link, and keeps the image held', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    const outside = await tempDir('outside');
    await rm(join(g.root, 'task'), { recursive: true });
    await symlink(outside, join(g.root, 'task'));
    await expect(restoreImage(g.deps, g.ref)).rejects.toBeInstanceOf(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
    expect(g.records.get(g.record.localId)?.images[0]?.state).toBe('deleted');
    // Still held: it goes on to the system trash in time, not lost.
    await g.trash.empty();
    expect(g.trashed).toHaveLength(1);
  });

  it('refuses an image whose record changed since the delete', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    g.deps.records.edit(g.record.localId, (record) => ({
      ...record,
      images: record.images.map((image) => ({ ...image, state: 'pending' as const })),
    }));
    await expect(restoreImage(g.deps, g.ref)).rejects.toThrow(/changed since/);
  });
});

describe('recovering after a crash', () => {
  it('sends what an earlier run left in the trash to the system trash, thumbnails removed', async () => {
    const g = await galleryWithSavedImage();
    await deleteImage(g.deps, g.ref);
    // A new run: nothing held in memory, the files still in the folder.
    const trashed: string[] = [];
    const next = new GalleryTrash({
      root: g.root,
      clock: g.clock,
      sendToSystemTrash: async (file) => {
        trashed.push(file);
        await rm(file);
      },
    });
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'keep.png'), 'not Pictor’s');
    await symlink(join(outside, 'keep.png'), join(g.root, TRASH_DIR, 'planted.png'));
    expect(await next.recover()).toBe(1);
    expect(trashed.map((file) => basename(file))).toEqual(['image-1.png']);
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(await readFile(join(outside, 'keep.png'), 'utf8')).toBe('not Pictor’s');
  });
});

describe('findImage and savedFile', () => {
  it('resolve a saved image inside the gallery, and say why when they cannot', async () => {
    const g = await galleryWithSavedImage();
    const { image } = findImage(g.deps.records, { localId: g.record.localId, index: 0 });
    expect(savedFile(g.deps.files, image)).toBe(join(g.root, 'task', 'image-1.png'));
    expect(savedFile(g.deps.files, image, 'thumbnail')).toBe(
      join(g.root, 'task', '.thumbs', 'image-1.webp'),
    );
    expect(() => findImage(g.deps.records, { localId: 'x', index: 0 })).toThrow(
      'That image is not in the gallery.',
    );
    const pending = g.record.images[1]!;
    expect(() => savedFile(g.deps.files, pending)).toThrow(/not on disk/);
  });
});

describe('an image whose XMP is beside it (Content Credentials)', () => {
  it('takes its sidecar to the trash and back with it', async () => {
    const g = await galleryWithSavedImage({ xmp: true });
    const deleted = await deleteImage(g.deps, g.ref);
    expect(existsSync(join(g.root, 'task', 'image-1.xmp'))).toBe(false);
    expect(deleted.images[0]).not.toHaveProperty('xmpFile');
    expect(
      (await inTrash(g.root)).filter((path) => path.endsWith(`${sep}image-1.xmp`)),
    ).toHaveLength(1);
    const restored = await restoreImage(g.deps, g.ref);
    expect(restored.images[0]).toEqual(g.record.images[0]);
    expect(await readFile(join(g.root, 'task', 'image-1.xmp'), 'utf8')).toBe('xmp packet');
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
  });

  it('comes back under the restored image’s name when the old one was taken', async () => {
    const g = await galleryWithSavedImage({ xmp: true });
    await deleteImage(g.deps, g.ref);
    await writeFile(join(g.root, 'task', 'image-1.png'), 'someone else’s');
    const restored = await restoreImage(g.deps, g.ref);
    expect(restored.images[0]).toMatchObject({
      file: 'task/image-1-restored-1.png',
      xmpFile: 'task/image-1-restored-1.xmp',
    });
    expect(await readFile(join(g.root, 'task', 'image-1-restored-1.xmp'), 'utf8')).toBe(
      'xmp packet',
    );
  });

  it('goes on to the system trash with its image', async () => {
    const g = await galleryWithSavedImage({ xmp: true });
    await deleteImage(g.deps, g.ref);
    await g.trash.empty();
    expect(g.trashed.map((file) => basename(file)).sort()).toEqual(['image-1.png', 'image-1.xmp']);
  });

  it('stays beside the image when the image cannot move', async () => {
    const g = await galleryWithSavedImage({ xmp: true });
    await rm(join(g.root, 'task', 'image-1.png'));
    await expect(deleteImage(g.deps, g.ref)).rejects.toThrow();
    expect(await readFile(join(g.root, 'task', 'image-1.xmp'), 'utf8')).toBe('xmp packet');
    expect(await inTrash(g.root)).toEqual([]);
  });
});
