import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { galleryGuard } from '../../../electron/app/os/path-guard';
import { testImageEngine } from '../../support/image-engine';
import { scriptSwaps } from '../../support/scripted-swaps';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** A NativeImage stand-in: remembers where it came from. */
interface FakeImage {
  readonly from: string;
  readonly bytes?: Buffer;
  isEmpty(): boolean;
}

const electron = vi.hoisted(() => {
  class FakeClipboardItem {
    constructor(readonly items: Record<string, Blob>) {}
  }
  return {
    ClipboardItem: FakeClipboardItem,
    shell: {
      showItemInFolder: vi.fn<(path: string) => void>(),
      trashItem: vi.fn<(path: string) => Promise<void>>(async () => undefined),
      openExternal: vi.fn<(url: string) => Promise<void>>(async () => undefined),
      openPath: vi.fn<(path: string) => Promise<string>>(async () => ''),
    },
    clipboard: {
      write: vi.fn<(items: FakeClipboardItem[]) => Promise<void>>(async () => undefined),
    },
    dialog: {
      showSaveDialog: vi.fn<
        (...args: unknown[]) => Promise<{ canceled: boolean; filePath: string }>
      >(async () => ({ canceled: true, filePath: '' })),
    },
    nativeImage: {
      createFromPath: vi.fn((path: string): FakeImage => ({
        from: path,
        isEmpty: () => !path.endsWith('icon.png'),
      })),
      createFromBuffer: vi.fn((bytes: Buffer): FakeImage => ({
        from: 'buffer',
        bytes,
        isEmpty: () => bytes.length === 0,
      })),
    },
  };
});

vi.mock('electron', () => ({
  ClipboardItem: electron.ClipboardItem,
  clipboard: electron.clipboard,
  dialog: electron.dialog,
  nativeImage: electron.nativeImage,
  shell: electron.shell,
}));

const { createShellActions } = await import('../../../electron/adapters/shell-actions');
const { electronSystemTrash } = await import('../../../electron/adapters/system-trash');
const { UserFacingError } = await import('../../../electron/core/errors/user-facing-error');

let base: string;
let root: string;
let png: string;
let webp: string;
let thumb: string;
let broken: string;
let outside: string;

beforeAll(async () => {
  base = await tempFolder('shell');
  root = join(base, 'gallery');
  await mkdir(join(root, 'task', '.thumbs'), { recursive: true });
  const pixels = sharp({
    create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 40, b: 40 } },
  });
  png = join(root, 'task', 'image-1.png');
  webp = join(root, 'task', 'image-2.webp');
  thumb = join(root, 'task', '.thumbs', 'image-1.webp');
  broken = join(root, 'task', 'broken.png');
  outside = join(base, 'outside.png');
  await pixels.clone().png().toFile(png);
  await pixels.clone().webp().toFile(webp);
  await pixels.clone().resize(384).webp().toFile(thumb);
  await writeFile(broken, 'not an image');
  await writeFile(outside, await readFile(png));
  await symlink(outside, join(root, 'task', 'link.png'));
});

afterAll(async () => {
  await removeFolder(base);
});

beforeEach(() => {
  vi.clearAllMocks();
});

function actions(
  overrides: { fallbackDragIcon?: string; allowed?: boolean; window?: unknown } = {},
) {
  return createShellActions({
    images: testImageEngine,
    galleryRoot: () => root,
    isInsideGallery: galleryGuard(() => root),
    isAllowedExternal: () => overrides.allowed ?? true,
    logsDir: () => join(base, 'logs'),
    saveDir: () => join(base, 'Downloads'),
    ...(overrides.fallbackDragIcon ? { fallbackDragIcon: overrides.fallbackDragIcon } : {}),
    ...(overrides.window === undefined ? {} : { parentWindow: () => overrides.window as never }),
  });
}

const FORBIDDEN = {
  ok: false,
  error: {
    code: 'forbidden',
    message: 'Pictor works only with files inside its gallery folder, and this one is not there.',
    sentence: { key: 'error.gallery.fileOutsideGallery' },
  },
};

describe('paths outside the gallery are refused before Electron is called', () => {
  it.each([
    ['a file outside', () => outside],
    ['a .. path', () => join(root, '..', 'outside.png')],
    ['a symlink out of the gallery', () => join(root, 'task', 'link.png')],
    ['a relative path', () => 'task/image-1.png'],
  ])('%s', async (_name, path) => {
    const shell = actions();
    expect(await shell.reveal(path())).toEqual(FORBIDDEN);
    await expect(electronSystemTrash(path(), root)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await shell.copyImage(path())).toEqual(FORBIDDEN);
    expect(await shell.chooseSaveAsFile(path(), { prompt: 'p', index: 0 })).toEqual(FORBIDDEN);
    const sender = { startDrag: vi.fn() };
    expect(await shell.startDrag(sender as never, path())).toEqual(FORBIDDEN);
    expect(electron.shell.showItemInFolder).not.toHaveBeenCalled();
    expect(electron.shell.trashItem).not.toHaveBeenCalled();
    expect(electron.clipboard.write).not.toHaveBeenCalled();
    expect(electron.dialog.showSaveDialog).not.toHaveBeenCalled();
    expect(sender.startDrag).not.toHaveBeenCalled();
  });

  it('a thumbnail outside the gallery refuses the drag', async () => {
    const sender = { startDrag: vi.fn() };
    expect(await actions().startDrag(sender as never, png, outside)).toEqual(FORBIDDEN);
    expect(sender.startDrag).not.toHaveBeenCalled();
  });
});

describe('reveal', () => {
  it('shows the file in its folder', async () => {
    expect(await actions().reveal(png)).toEqual({ ok: true, value: undefined });
    expect(electron.shell.showItemInFolder).toHaveBeenCalledWith(png);
  });

  it('a missing file is not_found with a sentence', async () => {
    const result = await actions().reveal(join(root, 'task', 'gone.png'));
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'not_found',
        message:
          'The image is no longer in the gallery folder. It may have been moved or deleted outside Pictor.',
      },
    });
    expect(electron.shell.showItemInFolder).not.toHaveBeenCalled();
  });
});

describe('the system trash (the core hands it held files)', () => {
  it('moves the file to the OS trash', async () => {
    await electronSystemTrash(png, root);
    expect(electron.shell.trashItem).toHaveBeenCalledWith(png);
  });

  it('a refusal throws the sentence once, the words of the system as its detail', async () => {
    electron.shell.trashItem.mockRejectedValueOnce(new Error('Failed to move item to trash'));
    const thrown = await electronSystemTrash(png, root).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(UserFacingError);
    expect(thrown).toMatchObject({
      code: 'failed',
      message:
        'Pictor could not move the image to the trash, so it is still in the gallery folder. Your system may have no trash for this folder.',
      sentence: { key: 'error.gallery.trashFailed' },
      detail: 'Failed to move item to trash',
    });
  });

  it('checks against the root it is given, not one it remembers', async () => {
    await expect(electronSystemTrash(png, join(base, 'elsewhere'))).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(electron.shell.trashItem).not.toHaveBeenCalled();
  });
});

describe('copyImage', () => {
  async function copied(): Promise<Buffer> {
    const [[items]] = electron.clipboard.write.mock.calls as unknown as [
      [{ items: Record<string, Blob> }[]],
    ];
    expect(items).toHaveLength(1);
    const blob = items[0]!.items['image/png']!;
    expect(blob.type).toBe('image/png');
    return Buffer.from(await blob.arrayBuffer());
  }

  it('puts a PNG on the clipboard as it is', async () => {
    expect(await actions().copyImage(png)).toEqual({ ok: true, value: undefined });
    expect((await copied()).equals(await readFile(png))).toBe(true);
  });

  it('converts a WebP image to PNG first', async () => {
    expect(await actions().copyImage(webp)).toEqual({ ok: true, value: undefined });
    const bytes = await copied();
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 400, height: 300 });
  });

  it('an unreadable image is a sentence, and the clipboard is left alone', async () => {
    expect(await actions().copyImage(broken)).toEqual({
      ok: false,
      error: {
        code: 'failed',
        message: 'Pictor could not read this image to copy it.',
        sentence: { key: 'error.gallery.copyUnreadable' },
      },
    });
    expect(electron.clipboard.write).not.toHaveBeenCalled();
  });

  it('a clipboard refusal is a sentence', async () => {
    electron.clipboard.write.mockRejectedValueOnce(new Error('clipboard busy'));
    expect(await actions().copyImage(png)).toMatchObject({
      ok: false,
      error: {
        message: 'Pictor could not put the image on the clipboard.',
        detail: 'clipboard busy',
      },
    });
  });
});

describe('chooseSaveAsFile (the copy is the core’s: core/gallery/image-copy.ts)', () => {
  it('suggests a name from the prompt in the save folder and answers the file chosen', async () => {
    const target = join(base, 'saved-copy.png');
    electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await actions().chooseSaveAsFile(png, {
      prompt: 'A red fox: in snow',
      index: 1,
    });
    expect(result).toEqual({ ok: true, value: target });
    expect(electron.dialog.showSaveDialog).toHaveBeenCalledWith({
      title: 'Save Image As',
      defaultPath: join(base, 'Downloads', 'A red fox in snow 2.png'),
      filters: [{ name: 'PNG image', extensions: ['png'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    // The dialog copies nothing.
    expect(await readFile(target).catch(() => null)).toBeNull();
  });

  it('opens the dialog on the window when one is open', async () => {
    const window = { id: 1 };
    await actions({ window }).chooseSaveAsFile(webp, { prompt: 'p', index: 0 });
    const [first, options] = electron.dialog.showSaveDialog.mock.calls[0]!;
    expect(first).toBe(window);
    expect(options).toMatchObject({ filters: [{ name: 'WebP image', extensions: ['webp'] }] });
  });

  it('opens a free dialog when the window is gone', async () => {
    await actions({ window: null }).chooseSaveAsFile(webp, { prompt: 'p', index: 0 });
    expect(electron.dialog.showSaveDialog.mock.calls[0]).toHaveLength(1);
  });

  it('cancelled: null', async () => {
    expect(await actions().chooseSaveAsFile(png, { prompt: 'p', index: 0 })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('a dialog that fails is a sentence', async () => {
    electron.dialog.showSaveDialog.mockRejectedValueOnce(new Error('no portal'));
    expect(await actions().chooseSaveAsFile(png, { prompt: 'p', index: 0 })).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.gallery.saveCopyFailed' }, detail: 'no portal' },
    });
  });
});

describe('a task folder swapped for a link around each call (the attacker who sees every call)', () => {
  let twin: string;
  let secret: Buffer;
  beforeAll(async () => {
    // The task's layout outside the gallery, holding a private image of its own.
    twin = join(base, 'outside-task');
    await mkdir(twin, { recursive: true });
    secret = await sharp({
      create: { width: 41, height: 23, channels: 3, background: { r: 1, g: 2, b: 250 } },
    })
      .png()
      .toBuffer();
    await writeFile(join(twin, 'image-1.png'), secret);
  });

  async function attacked<T>(act: () => Promise<T>): Promise<T> {
    const swaps = scriptSwaps(join(root, 'task'), twin);
    try {
      return await act();
    } finally {
      await swaps.restore();
      expect(swaps.linked()).toBeGreaterThan(0);
    }
  }

  it('copyImage never puts the outside image on the clipboard', async () => {
    await attacked(() => actions().copyImage(png));
    for (const [items] of electron.clipboard.write.mock.calls as unknown as [
      { items: Record<string, Blob> }[],
    ][]) {
      const bytes = Buffer.from(await items[0]!.items['image/png']!.arrayBuffer());
      expect(bytes.equals(secret)).toBe(false);
    }
  });
});

describe('startDrag', () => {
  it('drags the file with a small icon made from its WebP thumbnail', async () => {
    const sender = { startDrag: vi.fn() };
    expect(await actions().startDrag(sender as never, png, thumb)).toEqual({
      ok: true,
      value: undefined,
    });
    const [[item]] = sender.startDrag.mock.calls as [[{ file: string; icon: FakeImage }]];
    expect(item.file).toBe(png);
    const meta = await sharp(item.icon.bytes).metadata();
    expect(meta.format).toBe('png');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(128);
  });

  it('without a thumbnail the icon comes from the image', async () => {
    const sender = { startDrag: vi.fn() };
    await actions().startDrag(sender as never, webp);
    const [[item]] = sender.startDrag.mock.calls as [[{ file: string; icon: FakeImage }]];
    expect(item).toMatchObject({ file: webp, icon: { from: 'buffer' } });
  });

  it('an unreadable image falls back to the app icon, or refuses with a sentence', async () => {
    const sender = { startDrag: vi.fn() };
    const icon = join(base, 'icon.png');
    await actions({ fallbackDragIcon: icon }).startDrag(sender as never, broken);
    expect(sender.startDrag).toHaveBeenCalledWith({
      file: broken,
      icon: { from: icon, isEmpty: expect.any(Function) },
    });
    expect(await actions().startDrag(sender as never, broken)).toEqual({
      ok: false,
      error: {
        code: 'failed',
        message: 'Pictor could not start dragging this image.',
        sentence: { key: 'error.gallery.dragFailed' },
      },
    });
  });
});

describe('openExternal', () => {
  it('opens an https link that passes the check', async () => {
    expect(await actions().openExternal('https://example.com/help')).toEqual({
      ok: true,
      value: undefined,
    });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/help');
  });

  it('opens the parsed, normalised form that was checked', async () => {
    const seen: string[] = [];
    const shell = createShellActions({
      images: testImageEngine,
      galleryRoot: () => root,
      isInsideGallery: galleryGuard(() => root),
      isAllowedExternal: (url) => seen.push(url) > 0,
      logsDir: () => base,
      saveDir: () => base,
    });
    await shell.openExternal('https://EXAMPLE.com/a b');
    expect(seen).toEqual(['https://example.com/a%20b']);
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/a%20b');
  });

  it.each(['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])(
    'refuses %s',
    async (url) => {
      expect(await actions().openExternal(url)).toMatchObject({
        ok: false,
        error: {
          code: 'forbidden',
          message: 'Pictor opens only secure web links (https) in your browser.',
        },
      });
      expect(electron.shell.openExternal).not.toHaveBeenCalled();
    },
  );

  it('refuses an https link the check refuses', async () => {
    expect(await actions({ allowed: false }).openExternal('https://evil.test')).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });
});

describe('folders', () => {
  it('opens the logs folder, creating it first', async () => {
    expect(await actions().openLogsFolder()).toEqual({ ok: true, value: undefined });
    expect(electron.shell.openPath).toHaveBeenCalledWith(join(base, 'logs'));
    expect((await stat(join(base, 'logs'))).isDirectory()).toBe(true);
  });

  it('an error from the OS is a sentence that says where the folder is', async () => {
    electron.shell.openPath.mockResolvedValueOnce('No application is associated');
    expect(await actions().openLogsFolder()).toEqual({
      ok: false,
      error: {
        code: 'failed',
        message: `Pictor could not open the logs folder. It is at ${join(base, 'logs')}`,
        sentence: {
          key: 'error.gallery.openFolderFailed',
          params: { which: 'logs', path: join(base, 'logs') },
        },
        detail: 'No application is associated',
      },
    });
  });

  it('opens the gallery folder it is given, making none (the core makes it, through its gate)', async () => {
    const gone = join(base, 'gallery gone');
    await actions().openGalleryFolder(gone);
    expect(electron.shell.openPath).toHaveBeenCalledWith(gone);
    expect(existsSync(gone)).toBe(false);
  });
});
