/**
 * Finding a task's image and its saved file (core/gallery/gallery-images.ts). Deleting and
 * restoring images is the trash's (tests/unit/core/trash).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImage, savedFile } from '../../../../electron/core/gallery/gallery-images';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { galleryWithImages } from '../trash/trash-fixture';

describe('findImage and savedFile', () => {
  it('resolve a saved image inside the gallery, and say why when they cannot', async () => {
    const g = await galleryWithImages();
    const files = { resolve: (relative: string) => resolveInside(g.root, relative) };
    const { image } = findImage(g.records, g.refs[0]!);
    expect(savedFile(files, image)).toBe(join(g.root, 'task-0', 'image-1.png'));
    expect(savedFile(files, image, 'thumbnail')).toBe(
      join(g.root, 'task-0', '.thumbs', 'image-1.webp'),
    );
    expect(() => findImage(g.records, { localId: 'x', index: 0 })).toThrow(
      'That image is not in the gallery.',
    );
    const pending = g.tasks[0]!.images[1]!;
    expect(() => savedFile(files, pending)).toThrow(/not on disk/);
  });
});
