/**
 * The start-up clean-up of `.pictor-tmp` never deletes through a link. Every kind
 * of link a crafted or unpacked gallery can hold (absolute, relative `..` and `../..` that
 * survive tar and zip, to the gallery itself, to a file, dangling, and links inside the temp
 * folder) is planted, and everything outside `.pictor-tmp` must be byte-for-byte unchanged
 * afterwards, with the app still starting.
 */
import { lstat, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gallery } from '../../../../electron/core/gallery/gallery';
import { snapshotTree } from '../../../support/tree-snapshot';
import { offlineCore } from '../../../support/offline-core';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const FIFO = fifoMaker();
let base: string;
let home: string;
let root: string;
let temp: string;

beforeEach(async () => {
  base = await tempFolder('tmp-links');
  home = join(base, 'home');
  root = join(home, 'Pictures', 'Pictor');
  temp = join(root, '.pictor-tmp');
  await mkdir(join(home, 'Documents'), { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, 'Documents', 'report.txt'), 'the user’s report');
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'private key');
  await mkdir(join(root, '2026', '01', 'task'), { recursive: true });
  await writeFile(join(home, 'Pictures', 'holiday.jpg'), 'a photo beside the gallery');
  await writeFile(join(root, '2026', '01', 'task', 'pictor.json'), '{"app":"pictor"}');
  await writeFile(join(root, '2026', '01', 'task', 'image-1.png'), 'an image');
});

afterEach(() => removeFolder(base));

/** Everything except the temp folder itself, which init is allowed to empty. */
const outsideTemp = () =>
  snapshotTree(base, (path) => path.startsWith('home/Pictures/Pictor/.pictor-tmp'));

async function expectRealEmptyTemp(): Promise<void> {
  expect((await lstat(temp)).isDirectory()).toBe(true);
  expect(await readdir(temp)).toEqual([]);
}

describe('.pictor-tmp itself is not a folder', () => {
  const cases: [string, () => Promise<void>][] = [
    ['an absolute link to the home folder', () => symlink(home, temp)],
    ['a relative link to the folder around the gallery (..)', () => symlink('..', temp)],
    ['a relative link two levels up (../..)', () => symlink('../..', temp)],
    ['a link to the gallery itself (.)', () => symlink('.', temp)],
    ['a link to a file', () => symlink(join(home, 'Documents', 'report.txt'), temp)],
    ['a dangling link', () => symlink(join(base, 'nowhere'), temp)],
    ['a regular file', () => writeFile(temp, 'not a folder')],
  ];

  it.each(cases)('%s: nothing outside is removed and the start-up works', async (_, plant) => {
    await plant();
    const before = await outsideTemp();
    const { gallery } = galleryOnServer(root);
    const result = await gallery.init();
    expect(await outsideTemp()).toEqual(before);
    await expectRealEmptyTemp();
    expect(result.removedTempFiles).toBe(0);
    expect(result.warnings?.[0]).toContain(temp);
    // The next start finds a real folder and has nothing to say.
    expect(await gallery.init()).toEqual({ removedTempFiles: 0 });
  });
});

describe('links inside .pictor-tmp', () => {
  const cases: [string, () => Promise<void>][] = [
    ['an absolute link to a folder outside', () => symlink(home, join(temp, 'a.part'))],
    ['a relative link out (../..)', () => symlink('../..', join(temp, 'b.part'))],
    [
      'a link to a file outside',
      () => symlink(join(home, '.ssh', 'id_ed25519'), join(temp, 'c.part')),
    ],
    [
      'a folder holding a link to the home folder',
      async () => {
        await mkdir(join(temp, 'nested', 'deeper'), { recursive: true });
        await symlink(home, join(temp, 'nested', 'deeper', 'home'));
        await writeFile(join(temp, 'nested', 'half.part'), 'half');
      },
    ],
  ];

  it.each(cases)('%s: only the link goes, never its target', async (_, plant) => {
    await mkdir(temp, { recursive: true });
    await plant();
    const before = await outsideTemp();
    const result = await new Gallery({ root }).init();
    expect(await outsideTemp()).toEqual(before);
    await expectRealEmptyTemp();
    expect(result).toEqual({ removedTempFiles: 1 });
  });

  it.skipIf(!FIFO.path)(needing(FIFO, 'a FIFO is removed without being opened'), async () => {
    await mkdir(temp, { recursive: true });
    makeFifo(FIFO, join(temp, 'pipe.part'));
    expect(await new Gallery({ root }).init()).toEqual({
      removedTempFiles: 1,
    });
    await expectRealEmptyTemp();
  });
});

describe('the gallery folder itself may be a link (a folder on another disk)', () => {
  it('is used through the link, and its temp files are cleaned', async () => {
    const linked = join(base, 'linked-gallery');
    await symlink(root, linked);
    await mkdir(temp, { recursive: true });
    await writeFile(join(temp, 'x.part'), 'half');
    expect(await new Gallery({ root: linked }).init()).toEqual({ removedTempFiles: 1 });
    await expectRealEmptyTemp();
  });
});

describe('every start (app, CLI) goes through the same clean-up', () => {
  it('openPictorCore with .pictor-tmp linked to the home folder removes nothing there', async () => {
    await symlink(home, temp);
    const before = await outsideTemp();
    const core = await offlineCore({ dir: base, galleryDir: root });
    await core.close();
    const after = await outsideTemp();
    // The data folder is new; everything that was there before is untouched.
    expect(
      Object.fromEntries(Object.entries(after).filter(([k]) => !k.startsWith('data'))),
    ).toEqual(before);
    await expectRealEmptyTemp();
  });
});
