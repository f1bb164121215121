/**
 * contained-fs: nothing is deleted, renamed or written through a link, at any depth below the
 * trusted root, and links themselves are removed as links.
 */
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  UnsafePathError,
  checkContained,
  ensureFolder,
  removeEmptyFolder,
  removeFile,
  removeTree,
  renameContained,
} from '../../../../electron/core/fs/contained-fs';
import { GalleryPathError } from '../../../../electron/core/fs/gallery-path';
import { snapshotTree } from '../../../support/tree-snapshot';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await tempFolder('contained');
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'a', 'b'), { recursive: true });
  await mkdir(join(outside, 'deep'), { recursive: true });
  await writeFile(join(outside, 'deep', 'secret.txt'), 'secret');
  await writeFile(join(root, 'a', 'b', 'mine.txt'), 'mine');
});

afterEach(() => removeFolder(base));

const outsideSnapshot = () => snapshotTree(outside);

/** A link planted at each depth below the root, pointing out of it (absolute and relative). */
const linkedPaths: [string, () => Promise<string>][] = [
  [
    'first level, absolute',
    async () => {
      await symlink(outside, join(root, 'x'));
      return join(root, 'x', 'deep', 'secret.txt');
    },
  ],
  [
    'second level, relative ../..',
    async () => {
      await symlink('../../outside', join(root, 'a', 'y'));
      return join(root, 'a', 'y', 'deep', 'secret.txt');
    },
  ],
  [
    'third level, absolute',
    async () => {
      await symlink(join(outside, 'deep'), join(root, 'a', 'b', 'z'));
      return join(root, 'a', 'b', 'z', 'secret.txt');
    },
  ],
];

describe('every operation refuses a path with a link below the root', () => {
  it.each(linkedPaths)('%s', async (_, plant) => {
    const path = await plant();
    const before = await outsideSnapshot();
    await expect(checkContained(root, path)).rejects.toBeInstanceOf(UnsafePathError);
    await expect(removeFile(root, path)).rejects.toBeInstanceOf(UnsafePathError);
    await expect(removeTree(root, join(path, '..'))).rejects.toBeInstanceOf(UnsafePathError);
    await expect(ensureFolder(root, join(path, '..', 'new'))).rejects.toBeInstanceOf(
      UnsafePathError,
    );
    await expect(
      renameContained(root, join(root, 'a', 'b', 'mine.txt'), join(path, '..', 'moved.txt')),
    ).rejects.toBeInstanceOf(UnsafePathError);
    await expect(renameContained(root, path, join(root, 'stolen.txt'))).rejects.toBeInstanceOf(
      UnsafePathError,
    );
    expect(await outsideSnapshot()).toEqual(before);
    expect(await readFile(join(root, 'a', 'b', 'mine.txt'), 'utf8')).toBe('mine');
  });

  it('the refusal is a GalleryPathError that names the link', async () => {
    await symlink(outside, join(root, 'x'));
    const error = await checkContained(root, join(root, 'x', 'f')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GalleryPathError);
    expect((error as UnsafePathError).path).toBe(join(root, 'x'));
    expect((error as Error).message).toContain(join(root, 'x'));
  });

  it('refuses a path outside the root by its text', async () => {
    await expect(removeFile(root, join(outside, 'deep', 'secret.txt'))).rejects.toBeInstanceOf(
      UnsafePathError,
    );
    await expect(removeTree(root, root)).rejects.toBeInstanceOf(UnsafePathError);
    expect(await readFile(join(outside, 'deep', 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('links themselves', () => {
  it('removeTree removes links inside as links, never their targets', async () => {
    await symlink(outside, join(root, 'a', 'b', 'to-folder'));
    await symlink(join(outside, 'deep', 'secret.txt'), join(root, 'a', 'to-file'));
    await symlink('../../../outside', join(root, 'a', 'b', 'relative'));
    const before = await outsideSnapshot();
    expect(await removeTree(root, join(root, 'a'))).toBe(4);
    expect(await outsideSnapshot()).toEqual(before);
    await expect(lstat(join(root, 'a'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removeTree refuses a link where it expects a folder, unless told to unlink it', async () => {
    await symlink(outside, join(root, 'task'));
    await expect(removeTree(root, join(root, 'task'))).rejects.toBeInstanceOf(UnsafePathError);
    expect(await removeTree(root, join(root, 'task'), { onLink: 'unlink' })).toBe(1);
    expect(await readFile(join(outside, 'deep', 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('ensureFolder refuses a link or a file where a folder belongs, and makes what is missing', async () => {
    await symlink(outside, join(root, 'linked'));
    await writeFile(join(root, 'file'), 'x');
    await expect(ensureFolder(root, join(root, 'linked'))).rejects.toBeInstanceOf(UnsafePathError);
    await expect(ensureFolder(root, join(root, 'file', 'sub'))).rejects.toBeInstanceOf(
      UnsafePathError,
    );
    await ensureFolder(root, join(root, 'n1', 'n2', 'n3'));
    expect((await lstat(join(root, 'n1', 'n2', 'n3'))).isDirectory()).toBe(true);
  });

  it('a root that is itself a link is trusted (a gallery on another disk)', async () => {
    const linkedRoot = join(base, 'linked-root');
    await symlink(root, linkedRoot);
    expect(await removeFile(linkedRoot, join(linkedRoot, 'a', 'b', 'mine.txt'))).toBe(true);
    expect(await removeEmptyFolder(linkedRoot, join(linkedRoot, 'a', 'b'))).toBe(true);
    expect(await removeEmptyFolder(linkedRoot, linkedRoot)).toBe(false);
  });

  it('renameContained refuses to replace a folder, and moves a file inside the root', async () => {
    await mkdir(join(root, 'dest'));
    await expect(
      renameContained(root, join(root, 'a', 'b'), join(root, 'dest')),
    ).rejects.toBeInstanceOf(UnsafePathError);
    await renameContained(root, join(root, 'a', 'b', 'mine.txt'), join(root, 'dest', 'm.txt'));
    expect(await readFile(join(root, 'dest', 'm.txt'), 'utf8')).toBe('mine');
  });
});
