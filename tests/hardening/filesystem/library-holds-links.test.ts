/**
 * The data folder's `library-holds` (electron/core/fs/library-holds.ts) is where each process
 * that opens the library leaves its hold and looks at the others', removing what is no live hold
 * (a dead process's, one older than a day, a name Pictor never gives). Session 45 made a hold's
 * name guessable on the ground that the folder is private (0700). It was made private through
 * whatever stood there: a `library-holds` another local user had left as a link while the data
 * folder was open to others (a `--data-dir` in a shared place, a folder made under a loose umask)
 * had its target made 0700, a hold written into it, and every file in it not named as a hold
 * removed. And a command's core (electron/cli/commands.ts openCliCore) took its hold before it
 * made the data folder private. Now the data folder is made private first, the holds folder must
 * be a real folder in it (contained-fs.ts ensureFolder: a link or a file there is refused, never
 * followed) and what a look removes goes as itself, never through a link. Real files on this disk.
 */
import { chmod, mkdir, readdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { heldForChanges, holdLibraryOpen, UnsafePathError } from '../../../electron/core/fs';
import { HOLDS_DIR } from '../../../electron/core/fs/library-holds';
import { plantedLinkFolders } from './planted-link-fixture';

const posix = process.platform !== 'win32';

const THEIR_FILES = ['notes.txt', 'photo.png', 'thesis.tex'];
const folders = plantedLinkFolders('holds-links', THEIR_FILES);
const theirFolder = () => folders.theirFolder();
let data: string;
/** A folder of the user's, readable by others as they chose, that a planted link points at. */
let theirs: string;
beforeEach(() => {
  ({ data, theirs } = folders);
});

describe('a link where the holds folder should be', () => {
  it.each([
    ['opening the library', () => holdLibraryOpen(data)],
    ['a change of its folder', () => heldForChanges(data)(() => Promise.resolve('moved'))],
  ])('refuses %s and leaves the folder it points at as it was', async (_, hold) => {
    await symlink(theirs, join(data, HOLDS_DIR), 'dir');
    await expect(hold()).rejects.toBeInstanceOf(UnsafePathError);
    expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
    // The link is left for the user to look at: Pictor removes nothing it did not make.
    expect(await readlink(join(data, HOLDS_DIR))).toBe(theirs);
  });

  it('in a data folder open to others is refused once that folder is made private', async () => {
    await chmod(data, 0o777);
    await symlink(theirs, join(data, HOLDS_DIR), 'dir');
    await expect(holdLibraryOpen(data)).rejects.toBeInstanceOf(UnsafePathError);
    expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
    if (posix) expect((await stat(data)).mode & 0o777).toBe(0o700);
  });
});

describe('a hold', () => {
  it('is taken only in a data folder made private first', async () => {
    if (!posix) return;
    await chmod(data, 0o777);
    const hold = await holdLibraryOpen(data);
    expect((await stat(data)).mode & 0o777).toBe(0o700);
    expect((await stat(join(data, HOLDS_DIR))).mode & 0o777).toBe(0o700);
    await hold();
    expect(await readdir(join(data, HOLDS_DIR))).toEqual([]);
  });

  it('refuses a file where the holds folder should be, and keeps the file', async () => {
    await writeFile(join(data, HOLDS_DIR), 'not a folder');
    await expect(holdLibraryOpen(data)).rejects.toBeInstanceOf(UnsafePathError);
    expect((await stat(join(data, HOLDS_DIR))).isFile()).toBe(true);
  });

  it('removes a link among the holds as a link, never what it points at', async () => {
    await mkdir(join(data, HOLDS_DIR), { mode: 0o700 });
    // Named as no hold of Pictor's is: a look removes it.
    await symlink(join(theirs, 'notes.txt'), join(data, HOLDS_DIR, 'notes.use'));
    await symlink(theirs, join(data, HOLDS_DIR, 'documents.move'), 'dir');
    const hold = await holdLibraryOpen(data);
    await hold();
    expect(await readdir(join(data, HOLDS_DIR))).toEqual([]);
    expect(await theirFolder()).toEqual({ names: THEIR_FILES, mode: 0o755 });
  });
});
