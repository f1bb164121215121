/**
 * A compromised page asking main to copy one large gallery image to the clipboard, or to drag it
 * out, many times at once (`gallery:copyImage`, `gallery:startDrag`: an image's task id and index,
 * a few characters). Each reads the whole file in main and makes its PNG (and for the clipboard a
 * copy of that): 24 asks at once for a 40 MiB image had main hold 46 copies' worth of it for the
 * clipboard and 40 for a drag, and a page asking a few hundred times ends main out of memory. Now at most two of these
 * run at once (adapters/shell-actions.ts) and the others wait their turn holding nothing: every
 * ask is answered, and what main holds stays a few copies.
 *
 * The real shell actions over a real gallery file, with Electron's clipboard and nativeImage
 * stood in for (they keep nothing they are given). What main holds is its own count of the
 * memory outside its heap (process.memoryUsage), sampled while the asks run: with the limit, 9
 * copies for the clipboard (each holds the file, its PNG and the clipboard's copy) and none to
 * speak of for a drag.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { WebContents } from 'electron';
import { galleryGuard } from '../../../electron/app/os/path-guard';
import { testImageEngine } from '../../support/image-engine';
import { paddedPng } from './padded-png';
import { fileFolder } from '../../support/per-test';

vi.mock('electron', () => {
  class ClipboardItem {
    constructor(readonly items: Record<string, Blob>) {}
  }
  const image = (bytes: number) => ({ isEmpty: () => bytes === 0 });
  return {
    ClipboardItem,
    // Take what they are given and keep none of it, as the system's clipboard and drag do.
    clipboard: { write: async () => undefined },
    nativeImage: {
      createFromBuffer: (bytes: Buffer) => image(bytes.length),
      createFromPath: () => image(0),
    },
    dialog: {},
    shell: {},
  };
});

const { createShellActions } = await import('../../../electron/adapters/shell-actions');

const IMAGE_BYTES = 40 * 1024 * 1024;
const AT_ONCE = 24;
/** The most main may hold while the asks run, in copies of the image. */
const MOST_COPIES = 20;

let root: string;
let image: string;

const base = fileFolder('gallery-copies', async (folder) => {
  root = join(folder, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  image = join(root, 'task', 'image-1.png');
  await writeFile(image, await paddedPng(64, 90, IMAGE_BYTES, 3));
});

const outsideHeap = (): number => {
  const { arrayBuffers, external } = process.memoryUsage();
  return arrayBuffers + external;
};

function actions() {
  return createShellActions({
    images: testImageEngine,
    galleryRoot: () => root,
    isInsideGallery: galleryGuard(() => root),
    isAllowedExternal: () => false,
    logsDir: () => join(base(), 'logs'),
    saveDir: () => join(base(), 'Downloads'),
  });
}

const sender = { startDrag: () => undefined } as unknown as WebContents;

const ASKS: Record<string, (shell: ReturnType<typeof actions>) => Promise<{ ok: boolean }>> = {
  'a copy to the clipboard (gallery:copyImage)': (shell) => shell.copyImage(image),
  'a drag out (gallery:startDrag)': (shell) => shell.startDrag(sender, image),
};

describe('a page’s asks that each read a whole gallery image, side by side', () => {
  it.each(Object.keys(ASKS))(
    `${AT_ONCE} asks at once for %s of a 40 MiB image: all answered, a few copies held`,
    async (ask) => {
      const shell = actions();
      const before = outsideHeap();
      let most = before;
      const sampler = setInterval(() => (most = Math.max(most, outsideHeap())), 1);
      try {
        const results = await Promise.all(Array.from({ length: AT_ONCE }, () => ASKS[ask]!(shell)));
        most = Math.max(most, outsideHeap());
        expect(results.filter((result) => !result.ok)).toEqual([]);
      } finally {
        clearInterval(sampler);
      }
      const copies = (most - before) / IMAGE_BYTES;
      expect(copies, 'copies of the image main held at once').toBeLessThanOrEqual(MOST_COPIES);
    },
  );
});
