/**
 * The OS actions (trash, reveal, copy, drag, save as) act only on a regular
 * file inside the gallery with no link anywhere in its path, whatever the link points to
 * (inside or outside the gallery): trash would otherwise move what the link names.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { galleryGuard } from '../../../../electron/app/os/path-guard';
import { testImageEngine } from '../../../support/image-engine';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const shell = vi.hoisted(() => ({
  showItemInFolder: vi.fn<(path: string) => void>(),
  trashItem: vi.fn<(path: string) => Promise<void>>(async () => undefined),
  openExternal: vi.fn(),
  openPath: vi.fn(),
}));
vi.mock('electron', () => ({
  ClipboardItem: vi.fn(),
  clipboard: { write: vi.fn() },
  dialog: { showSaveDialog: vi.fn() },
  nativeImage: { createFromPath: vi.fn(), createFromBuffer: vi.fn() },
  shell,
}));
const { createShellActions } = await import('../../../../electron/adapters/shell-actions');
const { electronSystemTrash } = await import('../../../../electron/adapters/system-trash');

/** The system trash's answer as a Result, to read beside the shell's. */
const trashed = (file: string) =>
  electronSystemTrash(file, root).then(
    () => ({ ok: true, value: undefined }),
    (error: { code: string }) => ({ ok: false, error: { code: error.code } }),
  );

let base: string;
let root: string;

beforeAll(async () => {
  base = await tempFolder('os-guard');
  root = join(base, 'gallery');
  await mkdir(join(root, '2024', '05', 'task'), { recursive: true });
  await mkdir(join(base, 'outside', '05', 'task'), { recursive: true });
  await writeFile(join(root, '2024', '05', 'task', 'image-1.png'), 'png');
  await writeFile(join(base, 'outside', '05', 'task', 'image-1.png'), 'outside');
  // Links that stay inside the gallery are refused as well as those that leave it.
  await symlink(join(root, '2024', '05', 'task'), join(root, '2024', '05', 'alias'));
  await symlink('task/image-1.png', join(root, '2024', '05', 'alias.png'));
  await symlink(join(base, 'outside'), join(root, '2023'));
  if (process.platform !== 'win32') execFileSync('mkfifo', [join(root, '2024', '05', 'pipe.png')]);
});

afterAll(() => removeFolder(base));
beforeEach(() => vi.clearAllMocks());

const actions = () =>
  createShellActions({
    images: testImageEngine,
    galleryRoot: () => root,
    isInsideGallery: galleryGuard(() => root),
    isAllowedExternal: () => true,
    logsDir: () => join(base, 'logs'),
    saveDir: () => join(base, 'Downloads'),
  });

describe('trash and reveal act only on a regular file with no link in its path', () => {
  it('a plain gallery file is trashed', async () => {
    const file = join(root, '2024', '05', 'task', 'image-1.png');
    expect(await trashed(file)).toEqual({ ok: true, value: undefined });
    expect(shell.trashItem).toHaveBeenCalledWith(file);
  });

  it.each([
    ['a folder link that stays inside the gallery', ['2024', '05', 'alias', 'image-1.png']],
    ['a file link that stays inside the gallery', ['2024', '05', 'alias.png']],
    ['a year folder linked outside', ['2023', '05', 'task', 'image-1.png']],
  ])('%s is refused', async (_, parts) => {
    const file = join(root, ...parts);
    expect(await galleryGuard(() => root)(file)).toBe(false);
    const trash = await trashed(file);
    const reveal = await actions().reveal(file);
    expect(trash).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(reveal).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(shell.trashItem).not.toHaveBeenCalled();
    expect(shell.showItemInFolder).not.toHaveBeenCalled();
  });

  it.skipIf(process.platform === 'win32')('a FIFO is not an image file', async () => {
    const result = await trashed(join(root, '2024', '05', 'pipe.png'));
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(shell.trashItem).not.toHaveBeenCalled();
  });
});
