/**
 * The tests' temporary folders (tests/support/temp-folders.ts): each a new empty folder named
 * `pictor-<name>-` and six characters, in the OS's temporary folder or the parent named, and
 * removed whole, a folder already gone being no error; a set of them removed together.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TempFolders,
  removeFolder,
  removeFolderSync,
  tempFolder,
  tempFolderSync,
} from '../../support/temp-folders';

const made = new TempFolders();
afterEach(() => made.removeAll());

const NAMED = /^pictor-made-here-[A-Za-z0-9]{6}$/;

describe('tempFolder', () => {
  it('makes a new empty folder in the OS’s temporary folder, named for its test', async () => {
    const first = await tempFolder('made-here');
    const second = tempFolderSync('made-here');
    try {
      for (const dir of [first, second]) {
        expect(dirname(dir)).toBe(tmpdir());
        expect(basename(dir)).toMatch(NAMED);
        expect(readdirSync(dir)).toEqual([]);
      }
      expect(first).not.toBe(second);
    } finally {
      await removeFolder(first);
      removeFolderSync(second);
    }
  });

  it('makes it in the parent named', async () => {
    const parent = await made.make('parent');
    const inside = [await tempFolder('made-here', parent), tempFolderSync('made-here', parent)];
    expect(inside.map((dir) => dirname(dir))).toEqual([parent, parent]);
    expect(inside.map((dir) => basename(dir)).every((name) => NAMED.test(name))).toBe(true);
  });
});

describe('removeFolder', () => {
  it('removes the folder and everything in it, and a folder already gone is no error', async () => {
    const dir = await tempFolder('removed');
    await mkdir(join(dir, 'a', '.pictor-tmp'), { recursive: true });
    await writeFile(join(dir, 'a', '.pictor-tmp', 'part'), 'bytes');
    await removeFolder(dir);
    expect(existsSync(dir)).toBe(false);
    await expect(removeFolder(dir)).resolves.toBeUndefined();

    const other = tempFolderSync('removed');
    await writeFile(join(other, 'file'), 'bytes');
    removeFolderSync(other);
    expect(existsSync(other)).toBe(false);
    expect(() => removeFolderSync(other)).not.toThrow();
  });
});

describe('TempFolders', () => {
  it('removes every folder it made, once, and forgets them', async () => {
    const folders = new TempFolders();
    const dirs = [await folders.make('set'), folders.makeSync('set')];
    await writeFile(join(dirs[0]!, 'file'), 'bytes');
    expect(dirs.every((dir) => existsSync(dir))).toBe(true);
    await folders.removeAll();
    expect(dirs.some((dir) => existsSync(dir))).toBe(false);
    // Forgotten: a folder of the same path made again is not removed by a second call.
    await mkdir(dirs[0]!);
    await folders.removeAll();
    expect(existsSync(dirs[0]!)).toBe(true);
    await removeFolder(dirs[0]!);
  });
});
