/**
 * Gallery moves: only Pictor's task folders are carried, never through a
 * link, never into the home folder, a folder around it, a system folder or the data folder;
 * a move that stops half-way leaves the old library complete and in use, and a retry finishes.
 */
import { lstat, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsafePathError } from '../../../../electron/core/fs/contained-fs';
import {
  GalleryMoveError,
  relocateGallery,
  type RelocateOptions,
} from '../../../../electron/core/library/relocate';
import { snapshotTree, type TreeSnapshot } from '../../../support/tree-snapshot';
import { makeLibrary } from '../../../support/relocate-fixture';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let home: string;
let source: string;
let target: string;
let options: RelocateOptions;

beforeEach(async () => {
  base = await tempFolder('move');
  home = join(base, 'home');
  source = join(home, 'Pictures', 'Pictor');
  target = join(home, 'Elsewhere', 'Gallery');
  await mkdir(source, { recursive: true });
  await mkdir(join(base, 'outside', 'lib', '01'), { recursive: true });
  await writeFile(join(base, 'outside', 'secret.txt'), 'secret');
  options = { home, dataDir: join(base, 'data'), platform: 'linux' };
});

afterEach(() => removeFolder(base));

/** The files of the given task folders, keyed by root-relative path. */
function only(snapshot: TreeSnapshot, folders: string[]): TreeSnapshot {
  return Object.fromEntries(
    Object.entries(snapshot).filter(([path]) =>
      folders.some((folder) => path === folder || path.startsWith(`${folder}/`)),
    ),
  );
}

const outside = () => snapshotTree(join(base, 'outside'));
const withoutTemp = (root: string) => snapshotTree(root, (path) => path.startsWith('.pictor-tmp'));

describe('what a move carries', () => {
  it('carries every task folder byte for byte and nothing else; the rest stays', async () => {
    const folders = await makeLibrary(source, 3);
    await writeFile(join(source, 'notes.txt'), 'the user’s notes');
    await writeFile(join(source, '2024', '05', 'loose.png'), 'not in a task folder');
    await mkdir(join(source, '2024', '05', 'not-a-task'));
    await writeFile(join(source, '2024', '05', 'not-a-task', 'pictor.json'), '{"app":"other"}');
    await mkdir(join(source, '.pictor-tmp'));
    await writeFile(join(source, '.pictor-tmp', 'half.part'), 'half');
    const before = await snapshotTree(source);

    const result = await relocateGallery(source, target, options);

    expect(result).toEqual({ moved: 3, leftBehind: [] });
    const moved = await withoutTemp(target);
    const yearsAndMonths = ['2024', '2024/05'];
    expect(Object.keys(moved).sort()).toEqual(
      Object.keys(only(before, [...folders, ...yearsAndMonths]))
        .filter((path) => !path.includes('loose') && !path.includes('not-a-task'))
        .sort(),
    );
    expect(only(moved, folders)).toEqual(only(before, folders));
    expect(await readdir(join(target, '.pictor-tmp'))).toEqual([]);
    const left = await snapshotTree(source);
    expect(only(left, folders)).toEqual({});
    expect(left['notes.txt']).toBe(before['notes.txt']);
    expect(left['2024/05/loose.png']).toBe(before['2024/05/loose.png']);
    expect(left['2024/05/not-a-task/pictor.json']).toBe(before['2024/05/not-a-task/pictor.json']);
  });

  it('carries an image’s XMP sidecar (Content Credentials) with the image', async () => {
    const [folder] = await makeLibrary(source, 1);
    await writeFile(join(source, folder!, 'image-1.xmp'), '<x:xmpmeta/>');
    await relocateGallery(source, target, options);
    expect(await readFile(join(target, folder!, 'image-1.xmp'), 'utf8')).toBe('<x:xmpmeta/>');
    expect(await readdir(join(target, folder!))).toEqual(
      expect.arrayContaining(['image-1.png', 'image-1.xmp', 'pictor.json']),
    );
    await expect(lstat(join(source, folder!, 'image-1.xmp'))).rejects.toThrow();
  });

  it('follows no link in the source: linked entries and linked year folders stay, reported', async () => {
    const [folder] = await makeLibrary(source, 1);
    const task = join(source, ...folder!.split('/'));
    await symlink(join(base, 'outside', 'secret.txt'), join(task, 'evil.png'));
    await symlink(join(base, 'outside'), join(task, '.thumbs', 'out'));
    await makeLibrary(join(base, 'outside', 'lib'), 1);
    await symlink(join(base, 'outside', 'lib'), join(source, '2023'));
    const outsideBefore = await outside();

    const result = await relocateGallery(source, target, options);

    expect(result.moved).toBe(1);
    expect([...result.leftBehind].sort()).toEqual(
      [join(task, 'evil.png'), join(task, '.thumbs', 'out')].sort(),
    );
    expect(await outside()).toEqual(outsideBefore);
    const moved = await withoutTemp(target);
    expect(Object.values(moved).some((value) => value.startsWith('link:'))).toBe(false);
    expect(Object.keys(moved).some((path) => path.startsWith('2023'))).toBe(false);
    expect((await lstat(join(task, 'evil.png'))).isSymbolicLink()).toBe(true);
  });
});

describe('links in the target', () => {
  it.each([
    ['.pictor-tmp', (t: string) => symlink(join(base, 'outside'), join(t, '.pictor-tmp'))],
    ['a year folder', (t: string) => symlink(join(base, 'outside'), join(t, '2024'))],
    [
      'a month folder',
      async (t: string) => {
        await mkdir(join(t, '2024'));
        await symlink('../../../../outside/lib', join(t, '2024', '05'));
      },
    ],
  ])('%s as a link: refused with its path, nothing copied or removed', async (_, plant) => {
    await makeLibrary(source, 2);
    await mkdir(target, { recursive: true });
    await plant(target);
    const [sourceBefore, outsideBefore] = [await snapshotTree(source), await outside()];
    const error = await relocateGallery(source, target, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafePathError);
    expect((error as Error).message).toContain(target);
    expect(await snapshotTree(source)).toEqual(sourceBefore);
    expect(await outside()).toEqual(outsideBefore);
  });
});

describe('targets that are refused', () => {
  const cases: [string, () => string][] = [
    ['the home folder itself', () => home],
    ['the folder that contains the home folder', () => base],
    ['the file-system root', () => '/'],
    ['a system folder', () => '/etc/pictor'],
    ['the data folder', () => join(base, 'data')],
    ['a folder inside the data folder', () => join(base, 'data', 'gallery')],
    ['a folder that contains the data folder', () => join(base, 'data', '..', 'data')],
    ['inside the gallery', () => join(source, 'inner')],
  ];

  it.each(cases)('%s', async (_, targetOf) => {
    await makeLibrary(source, 1);
    const before = await snapshotTree(source);
    await expect(relocateGallery(source, targetOf(), options)).rejects.toBeInstanceOf(
      GalleryMoveError,
    );
    expect(await snapshotTree(source)).toEqual(before);
  });

  it('a link to a system folder is judged by where it leads', async () => {
    await makeLibrary(source, 1);
    await symlink('/etc', join(home, 'innocent'));
    await expect(relocateGallery(source, join(home, 'innocent'), options)).rejects.toThrow(
      /system folder/,
    );
  });

  it('a folder that already holds another task where ours would go', async () => {
    const [folder] = await makeLibrary(source, 2);
    const clash = join(target, ...folder!.split('/'));
    await mkdir(clash, { recursive: true });
    await writeFile(join(clash, 'pictor.json'), '{"app":"pictor","record":{"localId":"other"}}');
    const before = await snapshotTree(source);
    await expect(relocateGallery(source, target, options)).rejects.toThrow(
      /Choose an empty folder\. Nothing was copied or removed\./,
    );
    expect(await snapshotTree(source)).toEqual(before);
  });
});

describe('a move that stops half-way', () => {
  const failAt = (k: number): RelocateOptions['faults'] => ({
    beforeCopy(index) {
      if (index === k) throw Object.assign(new Error('injected'), { code: 'EIO' });
    },
  });

  it.each([0, 2, 4])(
    'after %i task folders: the old library is complete and in use; a retry finishes',
    async (k) => {
      const folders = await makeLibrary(source, 5);
      const before = await snapshotTree(source);
      const switches: string[] = [];
      const switchTo = async (to: string) => {
        // The switch comes before any removal: the old library is still whole here.
        expect(await snapshotTree(source)).toEqual(before);
        switches.push(to);
      };

      const error = await relocateGallery(source, target, {
        ...options,
        switchTo,
        faults: failAt(k),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GalleryMoveError);
      expect(error).toMatchObject({ copied: k, total: 5 });
      const message = (error as Error).message;
      expect(message).toContain(`${k} of 5 task folders were copied to ${target}`);
      expect(message).toContain(`Your library is still at ${source}`);
      expect(message).toContain('nothing was removed');
      expect(message).not.toMatch(/nothing was lost/i);
      expect(switches).toEqual([]);
      expect(await snapshotTree(source)).toEqual(before);
      // Only whole task folders are in place; no half copy is left under a task's name.
      expect(only(await withoutTemp(target), folders)).toEqual(only(before, folders.slice(0, k)));
      expect(await readdir(join(target, '.pictor-tmp'))).toEqual([]);

      const result = await relocateGallery(source, target, { ...options, switchTo });
      expect(result).toEqual({ moved: 5, leftBehind: [] });
      expect(switches).toEqual([target]);
      expect(only(await withoutTemp(target), folders)).toEqual(only(before, folders));
      expect(only(await snapshotTree(source), folders)).toEqual({});
    },
  );

  it('a retry after the old library changed copies the task again', async () => {
    const folders = await makeLibrary(source, 3);
    await relocateGallery(source, target, { ...options, faults: failAt(2) }).catch(() => null);
    const sidecar = join(source, ...folders[0]!.split('/'), 'pictor.json');
    await writeFile(
      sidecar,
      (await readFile(sidecar, 'utf8')).replace('library task', 'renamed task'),
    );
    const before = await snapshotTree(source);
    expect(await relocateGallery(source, target, options)).toEqual({ moved: 3, leftBehind: [] });
    expect(only(await withoutTemp(target), folders)).toEqual(only(before, folders));
  });

  it('when the switch fails, nothing is removed', async () => {
    await makeLibrary(source, 2);
    const before = await snapshotTree(source);
    const switchTo = () => {
      throw new Error('settings are read-only');
    };
    await expect(relocateGallery(source, target, { ...options, switchTo })).rejects.toThrow(
      /2 of 2 task folders were copied.*settings are read-only.*nothing was removed/,
    );
    expect(await snapshotTree(source)).toEqual(before);
  });
});

it('moving to the same folder does nothing', async () => {
  expect(await relocateGallery(source, `${source}/`, options)).toEqual({
    moved: 0,
    leftBehind: [],
  });
});
