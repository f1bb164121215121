/**
 * A file of several GB in the gallery folder (the folder may be crafted; another local user may
 * place files there), which a compromised page then names: `gallery:copyImage` and
 * `gallery:startDrag` read the image whole in main, capped at 2^40 bytes, so the whole file went
 * into main's memory; Save As, the page's own image requests and the other readers each had
 * their own cap or none. Now every read of a gallery image file has one cap, the largest image
 * Pictor saves (GALLERY_MAX_IMAGE_BYTES, shared/domain/limits.ts): over it, a sentence saying so
 * and nothing read.
 *
 * Real sparse files (a real PNG's first bytes, then `truncate` to the size: no disk used) in a
 * real gallery folder, through the real shell actions and the real gallery protocol handler;
 * Electron's clipboard, nativeImage and save dialog stood in for. What main holds is its own count
 * of the memory outside its heap (process.memoryUsage), sampled while each ask runs.
 */
import { mkdir, readdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebContents } from 'electron';
import { galleryGuard } from '../../../electron/app/os/path-guard';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { saveImageCopy } from '../../../electron/core/gallery';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { testImageEngine } from '../../support/image-engine';
import { paddedPng } from './padded-png';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const dialogs = vi.hoisted(() => ({ shown: 0, target: '' }));

vi.mock('electron', () => {
  class ClipboardItem {
    constructor(readonly items: Record<string, Blob>) {}
  }
  const image = (bytes: number) => ({ isEmpty: () => bytes === 0 });
  return {
    ClipboardItem,
    clipboard: { write: async () => undefined },
    nativeImage: {
      createFromBuffer: (bytes: Buffer) => image(bytes.length),
      createFromPath: () => image(0),
    },
    dialog: {
      showSaveDialog: async () => {
        dialogs.shown += 1;
        return { canceled: false, filePath: dialogs.target };
      },
    },
    shell: { showItemInFolder: () => undefined },
  };
});

const { createShellActions } = await import('../../../electron/adapters/shell-actions');

const GB = 1024 ** 3;
/** Just over the cap, and files of several GB. */
const SIZES = [GALLERY_MAX_IMAGE_BYTES + 1, 3 * GB, 6 * GB];
/** The most main may hold while an ask runs (it held the whole file before). */
const MOST_HELD = 16 * 1024 * 1024;

let base: string;
let root: string;
const huge = new Map<number, string>();
let atCap: string;

beforeAll(async () => {
  base = await tempFolder('gallery-cap');
  root = join(base, 'gallery');
  await mkdir(join(root, 'task'), { recursive: true });
  const head = await paddedPng(64, 90, 0, 1);
  for (const size of SIZES) {
    const file = join(root, 'task', `image-${size}.png`);
    await writeFile(file, head);
    await truncate(file, size);
    huge.set(size, file);
  }
  // The largest image Pictor saves is still read.
  atCap = join(root, 'task', 'at-cap.png');
  await writeFile(atCap, await paddedPng(64, 90, GALLERY_MAX_IMAGE_BYTES - 1024, 2));
}, 120_000);

afterAll(async () => {
  await removeFolder(base);
});

const outsideHeap = (): number => {
  const { arrayBuffers, external } = process.memoryUsage();
  return arrayBuffers + external;
};

/** What `ask` resolves to, and the most main held beyond what it held before. */
async function held<T>(ask: () => Promise<T>): Promise<{ value: T; most: number }> {
  const before = outsideHeap();
  let most = before;
  const sampler = setInterval(() => (most = Math.max(most, outsideHeap())), 1);
  try {
    const value = await ask();
    most = Math.max(most, outsideHeap());
    return { value, most: most - before };
  } finally {
    clearInterval(sampler);
  }
}

function actions() {
  return createShellActions({
    images: testImageEngine,
    galleryRoot: () => root,
    isInsideGallery: galleryGuard(() => root),
    isAllowedExternal: () => false,
    logsDir: () => join(base, 'logs'),
    saveDir: () => join(base, 'Downloads'),
  });
}

const sender = { startDrag: () => undefined } as unknown as WebContents;

type Answer = { ok: true } | { ok: false; error: { sentence?: { key: string } } };

const ASKS: Record<string, (file: string) => Promise<Answer>> = {
  'a copy to the clipboard (gallery:copyImage)': (file) => actions().copyImage(file),
  'a drag out (gallery:startDrag)': (file) => actions().startDrag(sender, file),
  'a drag out with its thumbnail': (file) => actions().startDrag(sender, file, atCap),
  // Its dialog, then the core's copy to the file chosen (as gallery:saveAs runs them).
  'Save As (gallery:saveAs)': async (file) => {
    const chosen = await actions().chooseSaveAsFile(file, { prompt: 'p', index: 0 });
    if (chosen.ok && chosen.value !== null) await saveImageCopy(root, file, chosen.value);
    return chosen;
  },
};

const cases = Object.keys(ASKS).flatMap((ask) => SIZES.map((size) => [ask, size] as const));

describe('a gallery file larger than any image Pictor saves', () => {
  it.each(cases)(
    '%s of a %d-byte file: refused with a sentence, nothing read',
    async (ask, size) => {
      dialogs.shown = 0;
      dialogs.target = join(base, `saved-${size}.png`);
      const { value, most } = await held(() => ASKS[ask]!(huge.get(size)!));
      expect(value.ok).toBe(false);
      expect(!value.ok && value.error.sentence?.key).toBe('error.gallery.imageTooLarge');
      expect(most, 'bytes main held for the ask').toBeLessThan(MOST_HELD);
      // Save As asks nothing of the user for a file it will not copy, and writes nothing.
      expect(dialogs.shown).toBe(0);
      expect((await readdir(base)).filter((name) => name.startsWith('saved-'))).toEqual([]);
    },
  );

  it.each(SIZES)('the page’s own request for a %d-byte file is refused', async (size) => {
    const url = `pictor-gallery://gallery/task/image-${size}.png`;
    const { value: response, most } = await held(() => serveGalleryRequest(new Request(url), root));
    expect(response.status).toBe(404);
    expect(most).toBeLessThan(MOST_HELD);
  });

  it.each(SIZES)('a copy saved from the core (saveImageCopy) of a %d-byte file', async (size) => {
    const target = join(base, `core-copy-${size}.png`);
    await expect(saveImageCopy(root, huge.get(size)!, target)).rejects.toThrow();
    expect((await readdir(base)).filter((name) => name.startsWith('core-copy-'))).toEqual([]);
  });

  it('the largest image Pictor saves is still copied, dragged, saved and served', async () => {
    for (const ask of Object.keys(ASKS)) {
      dialogs.target = join(base, 'at-cap-copy.png');
      expect((await ASKS[ask]!(atCap)).ok, ask).toBe(true);
    }
    const response = await serveGalleryRequest(
      new Request('pictor-gallery://gallery/task/at-cap.png'),
      root,
    );
    expect(response.status).toBe(200);
    await response.body?.cancel();
  }, 60_000);
});
