/** Deleting an image (core/gallery/gallery-images.ts) in plain Node: real files, in-memory records. */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GalleryImageError,
  deleteImage,
  findImage,
  savedFile,
  type DeleteImageDeps,
} from '../../../../electron/core/gallery/gallery-images';
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

/** A gallery folder with one task whose first image is saved, with its thumbnail. */
async function galleryWithSavedImage() {
  const root = await tempDir('gallery');
  await mkdir(join(root, 'task', '.thumbs'), { recursive: true });
  await writeFile(join(root, 'task', 'image-1.png'), 'png bytes');
  await writeFile(join(root, 'task', '.thumbs', 'image-1.webp'), 'thumb bytes');
  const base = makeRecord(['https://cdn.example/1.png', 'https://cdn.example/2.png']);
  const saved: TaskRecord = {
    ...base,
    images: [
      {
        ...base.images[0]!,
        state: 'saved',
        file: 'task/image-1.png',
        thumbnail: 'task/.thumbs/image-1.webp',
      },
      base.images[1]!,
    ],
  };
  const records = new Map([[saved.localId, saved]]);
  const trashed: string[] = [];
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
    trash: async (file) => {
      trashed.push(file);
      await rm(file);
    },
  };
  return { root, record: saved, records, trashed, deps };
}

describe('deleteImage', () => {
  it('trashes the file, removes the thumbnail and marks the image deleted without its paths', async () => {
    const g = await galleryWithSavedImage();
    const updated = await deleteImage(g.deps, { localId: g.record.localId, index: 0 });
    expect(g.trashed).toEqual([join(g.root, 'task', 'image-1.png')]);
    expect(existsSync(join(g.root, 'task', '.thumbs', 'image-1.webp'))).toBe(false);
    expect(updated.images[0]).toMatchObject({ state: 'deleted' });
    expect(updated.images[0]).not.toHaveProperty('file');
    expect(updated.images[0]).not.toHaveProperty('thumbnail');
    expect(updated.images[1]).toEqual(g.record.images[1]);
    expect(g.records.get(g.record.localId)).toBe(updated);
  });

  it('changes nothing when the trash refuses the file', async () => {
    const g = await galleryWithSavedImage();
    const refusing = { ...g.deps, trash: () => Promise.reject(new Error('no trash here')) };
    await expect(deleteImage(refusing, { localId: g.record.localId, index: 0 })).rejects.toThrow(
      'no trash here',
    );
    expect(g.records.get(g.record.localId)).toBe(g.record);
    expect(existsSync(join(g.root, 'task', '.thumbs', 'image-1.webp'))).toBe(true);
  });

  it('never removes a thumbnail through a link, and still deletes the image', async () => {
    const g = await galleryWithSavedImage();
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'image-1.webp'), 'not Pictor’s');
    await rm(join(g.root, 'task', '.thumbs'), { recursive: true });
    await symlink(outside, join(g.root, 'task', '.thumbs'));
    const updated = await deleteImage(g.deps, { localId: g.record.localId, index: 0 });
    expect(updated.images[0]!.state).toBe('deleted');
    expect(await readFile(join(outside, 'image-1.webp'), 'utf8')).toBe('not Pictor’s');
  });

  it('refuses an image that is not in the gallery or not on disk, trashing nothing', async () => {
    const g = await galleryWithSavedImage();
    for (const ref of [
      { localId: 'no-such-task', index: 0 },
      { localId: g.record.localId, index: 7 },
      { localId: g.record.localId, index: 1 },
    ]) {
      await expect(deleteImage(g.deps, ref)).rejects.toBeInstanceOf(GalleryImageError);
    }
    expect(g.trashed).toEqual([]);
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
