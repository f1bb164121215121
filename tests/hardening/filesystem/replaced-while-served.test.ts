/**
 * A gallery image removed or replaced while it is being served. Every rewrite of a gallery file
 * (a rating, the kept-key sweep, a download's thumbnail) writes a new file and renames it over the
 * old one, so the page may ask for an image at that moment. On Linux what was opened is judged by
 * the kernel's path of its descriptor (core/fs/open-inside.ts), which names a file that has lost
 * its name by its old path with " (deleted)" after it: the gallery judged that name, no image
 * kind, and refused the image (403, "This kind of file is not served") for as long as the page
 * kept it. The file opened was inside and is read whole from its handle: it is served, its old
 * bytes, never the new file's. A file really named so keeps its name.
 */
import { promises as fsPromises, realpathSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { defaultContainment, openInside } from '../../../electron/core/fs/open-inside';
import { makeImage } from '../../support/gallery-helpers';
import { testFolder } from '../../support/per-test';

/** A gallery with one image, its old bytes and the new ones a rewrite puts in its place. */
async function gallery() {
  const root = join(await testFolder('replaced-served'), 'gallery');
  const folder = join(root, '2024', '05', 'task');
  await mkdir(folder, { recursive: true });
  const file = join(folder, 'image-0.png');
  const old = await makeImage('png', 16, 16);
  await writeFile(file, old);
  const replace = async () => {
    await writeFile(`${file}.new`, await makeImage('png', 20, 20));
    await rename(`${file}.new`, file);
  };
  return { root, file, old, replace, remove: () => unlink(file) };
}

describe.runIf(defaultContainment() === 'descriptor')('an image gone once opened', () => {
  it.each(['replace', 'remove'] as const)(
    'is named by the path it had when the open is judged (%s)',
    async (what) => {
      const { root, file, ...change } = await gallery();
      const opened = await openInside(root, file, { afterOpen: change[what] });
      if (!opened.ok) throw new Error(`refused: ${opened.why}`);
      await opened.handle.close();
      expect(opened.openedPath?.toString()).toBe(
        join(realpathSync(root), '2024/05/task/image-0.png'),
      );
    },
  );

  it('keeps a name that really ends so', async () => {
    const { root } = await gallery();
    const file = join(root, 'image-0.png (deleted)');
    await writeFile(file, 'x');
    const opened = await openInside(root, file);
    if (!opened.ok) throw new Error(`refused: ${opened.why}`);
    await opened.handle.close();
    expect(opened.openedPath?.toString()).toBe(join(realpathSync(root), 'image-0.png (deleted)'));
  });

  it.each(['replace', 'remove'] as const)(
    'is served whole, its old bytes (%s between the open and its check)',
    async (what) => {
      const { root, old, ...change } = await gallery();
      const readlink = fsPromises.readlink.bind(fsPromises);
      let changed = false;
      vi.spyOn(fsPromises, 'readlink').mockImplementation((async (path: string, options: never) => {
        if (!changed && String(path).startsWith('/proc/self/fd/')) {
          changed = true;
          await change[what]();
        }
        return readlink(path, options);
      }) as typeof fsPromises.readlink);
      try {
        const response = await serveGalleryRequest(
          new Request('pictor-gallery://gallery/2024/05/task/image-0.png'),
          root,
        );
        expect(changed).toBe(true);
        expect(response.status).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(old)).toBe(true);
      } finally {
        vi.restoreAllMocks();
      }
    },
  );
});
