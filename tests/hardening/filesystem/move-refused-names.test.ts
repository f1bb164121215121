/**
 * A gallery moved to a disk that cannot hold some of its names: case twins (`image-1.png` and
 * `IMAGE-1.png`, NFC and NFD spellings) on a disk that folds them (exFAT, FAT, NTFS, APFS), names
 * with `:` `?` or a trailing dot on exFAT/NTFS, names longer than the new disk allows. This machine
 * has none of those disks mounted, so each is played on purpose: the disk's answer to the move's
 * probe (`faults.diskNames`), or the disk's error at the copy step (`faults.beforeCreate`:
 * EINVAL, ENAMETOOLONG, EEXIST where the disk took a name for its twin). Whatever the disk refuses,
 * the move stops with a sentence naming the file and why, before the switch: the old library
 * keeps every byte and stays in use, the target holds only whole task folders, and once the
 * cause is gone a retry finishes the move.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GalleryMoveError,
  relocateGallery,
  type RelocateOptions,
} from '../../../electron/core/library/relocate';
import {
  probeDiskNames,
  NameCheck,
  WINDOWS_CHARACTERS,
  type DiskNames,
} from '../../../electron/core/library/relocate-names';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { shownValue } from '../../../shared/text/shown-value';
import { makeImage, makeRecord } from '../../support/gallery-helpers';
import { makeLibrary } from '../../support/relocate-fixture';
import { snapshotTree, type TreeSnapshot } from '../../support/tree-snapshot';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let base: string;
let source: string;
let target: string;
let options: RelocateOptions;
let switches: string[];

beforeEach(async () => {
  base = await tempFolder('move-names');
  const home = join(base, 'home');
  source = join(home, 'Pictures', 'Pictor');
  target = join(base, 'stick', 'Gallery');
  await mkdir(source, { recursive: true });
  switches = [];
  options = {
    home,
    dataDir: join(base, 'data'),
    platform: 'linux',
    switchTo: (to) => void switches.push(to),
  };
});

afterEach(() => removeFolder(base));

/** This machine's disk (ext4 or tmpfs): every name its own, 255 bytes at most. */
const PLAIN_DISK: DiskNames = {
  foldsNames: false,
  refusedCharacters: '',
  changesEndings: false,
  limitsBytes: true,
};
const EXFAT: DiskNames = {
  foldsNames: true,
  refusedCharacters: WINDOWS_CHARACTERS,
  changesEndings: true,
  limitsBytes: false,
};

/** A task folder at `relative` (its own sidecar) holding `names`, each a small PNG. */
async function taskFolder(relative: string, names: readonly string[]): Promise<void> {
  const folder = join(source, ...relative.split('/'));
  await mkdir(folder, { recursive: true });
  const record = makeRecord(['http://127.0.0.1:1/x.png'], { request: { prompt: relative } });
  await writeFile(join(folder, 'pictor.json'), sidecarText({ ...record, folder: relative }));
  for (const [i, name] of names.entries()) {
    await writeFile(join(folder, name), await makeImage('png', 4 + i, 4));
  }
}

async function moveError(extra: Partial<RelocateOptions>): Promise<GalleryMoveError> {
  const error = await relocateGallery(source, target, { ...options, ...extra }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GalleryMoveError);
  return error as GalleryMoveError;
}

const withoutTemp = (root: string) => snapshotTree(root, (path) => path.startsWith('.pictor-tmp'));

/** The files of `snapshot` (under one of `folders` when given). */
function filesUnder(snapshot: TreeSnapshot, folders?: readonly string[]): TreeSnapshot {
  const inside = (path: string) => folders?.some((f) => path.startsWith(`${f}/`)) ?? true;
  return Object.fromEntries(
    Object.entries(snapshot).filter(([path, entry]) => entry.startsWith('file:') && inside(path)),
  );
}

/** The move stopped before the switch, nothing of the old library touched, no partial copy. */
async function expectStoppedWhole(before: TreeSnapshot, copiedFolders: readonly string[]) {
  expect(switches).toEqual([]);
  expect(await snapshotTree(source)).toEqual(before);
  expect(filesUnder(await withoutTemp(target))).toEqual(filesUnder(before, copiedFolders));
  expect(await readdir(join(target, '.pictor-tmp'))).toEqual([]);
}

describe('names the new disk cannot hold, found before anything is copied', () => {
  const cases: readonly {
    name: string;
    folders: readonly [string, readonly string[]][];
    disk: DiskNames;
    says: readonly string[];
  }[] = [
    {
      name: 'two images differing in case, on a disk that folds case',
      folders: [['2025/01/trip', ['image-1.png', 'IMAGE-1.png']]],
      disk: EXFAT,
      says: ['2025/01/trip/image-1.png', 'it takes it for 2025/01/trip/IMAGE-1.png'],
    },
    {
      name: 'two task folders differing in case',
      folders: [
        ['2025/01/Trip', ['image-1.png']],
        ['2025/01/trip', ['image-1.png']],
      ],
      disk: { ...PLAIN_DISK, foldsNames: true },
      says: ['the name 2025/01/trip:', 'it takes it for 2025/01/Trip'],
    },
    {
      name: 'NFC and NFD spellings of one name',
      folders: [['2025/01/cafe', ['caf\u00e9.png', 'cafe\u0301.png']]],
      disk: { ...PLAIN_DISK, foldsNames: true },
      says: ['2025/01/cafe/caf', 'it takes it for 2025/01/cafe/caf'],
    },
    {
      name: 'a colon and a question mark on exFAT',
      folders: [['2025/02/a:b?', ['image-1.png']]],
      disk: EXFAT,
      says: ['the name 2025/02/a:b?:', 'it does not accept : ? in a name'],
    },
    {
      name: 'a name ending in a dot, on a disk that drops it',
      folders: [['2025/03/notes', ['image-1.png', 'draft.']]],
      disk: EXFAT,
      says: ['2025/03/notes/draft.', 'it does not keep a dot or a space at the end of a name'],
    },
  ];

  for (const { name, folders, disk, says } of cases) {
    it(`${name}: refused by name, nothing copied; a disk that holds them takes the move`, async () => {
      for (const [relative, names] of folders) await taskFolder(relative, names);
      const before = await snapshotTree(source);

      const error = await moveError({ faults: { diskNames: () => disk } });

      expect(error.copied).toBe(0);
      expect(error.total).toBe(folders.length);
      expect(error.message).toContain(`0 of ${folders.length} task folder`);
      expect(error.message).toContain('the disk there cannot hold the name');
      for (const text of says) expect(error.message).toContain(text);
      expect(error.message).toContain(`Your library is still at ${source}`);
      await expectStoppedWhole(before, []);

      // This machine's own disk holds every one of them: the same library moves whole.
      const result = await relocateGallery(source, target, options);
      expect(result.moved).toBe(folders.length);
      expect(switches).toEqual([target]);
      expect(await withoutTemp(target)).toMatchObject(before);
    });
  }

  it('a name of 255 characters and more bytes, from a Mac, onto a disk that counts bytes', () => {
    const long = `${'\u00e9'.repeat(200)}.png`;
    const task = {
      relative: '2025/04/t',
      localId: 'x',
      folders: [],
      files: [{ path: long, size: 1 }],
    };

    expect(new NameCheck(PLAIN_DISK).task(task)).toEqual({
      path: `2025/04/t/${long}`,
      problem: 'tooLong',
    });
    expect(new NameCheck(EXFAT).task(task)).toBeNull();
  });

  it('the probe reads this machine’s disk as it is, and leaves nothing behind', async () => {
    const temp = join(base, 'probe');
    await mkdir(temp);
    expect(await probeDiskNames(temp)).toEqual(PLAIN_DISK);
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('a name the new disk refuses at the copy step', () => {
  const refusal = (code: string, at: string) => ({
    beforeCreate(path: string) {
      if (path === at) throw Object.assign(new Error(`${code}: ${path}`), { code });
    },
  });

  const cases: readonly { code: string; file: string; says: string; twin?: string }[] = [
    { code: 'EINVAL', file: 'a:b.png', says: 'it does not accept : in a name' },
    { code: 'EINVAL', file: 'odd\u0001.png', says: 'it refused the name (EINVAL)' },
    { code: 'EINVAL', file: 'draft ', says: 'it does not keep a dot or a space at the end' },
    { code: 'ENAMETOOLONG', file: `${'é'.repeat(120)}.png`, says: 'longer than that disk allows' },
    {
      code: 'EEXIST',
      file: 'IMAGE-2.png',
      twin: 'image-2.png',
      says: 'it takes it for 2025/01/t2/image-2.png',
    },
  ];

  for (const { code, file, says, twin } of cases) {
    it(`${code} for ${JSON.stringify(file.slice(0, 16))}: named, the tasks before whole; a retry finishes`, async () => {
      const folders = await makeLibrary(source, 2);
      await taskFolder('2025/01/t2', ['image-1.png', ...(twin ? [twin] : []), file]);
      await makeLibrary(join(source, 'later'), 1);
      const all = [...folders, '2025/01/t2'].sort();
      const refused = `2025/01/t2/${file}`;
      const before = await snapshotTree(source);

      const error = await moveError({
        faults: { beforeCreate: refusal(code, refused).beforeCreate },
      });

      const copied = all.indexOf('2025/01/t2');
      expect(error.copied).toBe(copied);
      expect(error.message).toContain(
        `the disk there cannot hold the name ${shownValue(refused)}:`,
      );
      expect(error.message).toContain(says);
      expect(error.message).toContain(`Your library is still at ${source}`);
      await expectStoppedWhole(before, all.slice(0, copied));

      const result = await relocateGallery(source, target, options);
      expect(result.moved).toBe(4);
      expect(switches).toEqual([target]);
      expect(await withoutTemp(target)).toMatchObject(before);
    });
  }

  it('a task folder the disk takes for another one (EEXIST at its rename into place)', async () => {
    await taskFolder('2025/01/Trip', ['image-1.png']);
    await taskFolder('2025/01/trip', ['image-1.png']);
    const before = await snapshotTree(source);

    const error = await moveError({ faults: refusal('ENOTEMPTY', '2025/01/trip') });

    expect(error.copied).toBe(1);
    expect(error.message).toContain(
      'cannot hold the name 2025/01/trip: it takes it for 2025/01/Trip',
    );
    await expectStoppedWhole(before, ['2025/01/Trip']);
  });

  it('a full disk at a create is still the disk’s sentence, not a name', async () => {
    await makeLibrary(source, 2);
    const before = await snapshotTree(source);
    const files = Object.keys(before).filter((p) => p.endsWith('image-1.png'));

    const error = await moveError({ faults: refusal('ENOSPC', files[1]!) });

    expect(error.message).toContain('the disk is full');
    expect(error.message).not.toContain('cannot hold the name');
    await expectStoppedWhole(before, [files[0]!.split('/').slice(0, -1).join('/')]);
  });
});
