/** The export tests' folders (export-fixtures.ts): made for each test, gone once it ends. */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FOLDER, exportFoldersPerTest } from './export-fixtures';

describe('exportFoldersPerTest', () => {
  const folders = exportFoldersPerTest(3);
  const seen: string[] = [];

  it('makes the task folder with its stand-in images, and an empty folder to export into', async () => {
    expect((await readdir(join(folders.root, EXPORT_FOLDER))).sort()).toEqual([
      'image-1.png',
      'image-2.png',
      'image-3.png',
    ]);
    expect(await readdir(folders.out)).toEqual([]);
    seen.push(folders.root, folders.out);
  });

  it('removes both when the test ends, and makes new ones for the next', () => {
    expect(seen.map((folder) => existsSync(folder))).toEqual([false, false]);
    expect(folders.root).not.toBe(seen[0]);
    expect(existsSync(folders.out)).toBe(true);
  });
});
