/**
 * A file the user chose in a save dialog (the cost ledger's CSV) replaced whole or not at all:
 * written beside it and renamed over it, so a failure mid-write leaves the file the user had;
 * from text chunks too, each asked for once the one before is written.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFileBeside } from '../../../../electron/core/fs/atomic-file';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-replace-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFileBeside', () => {
  it('replaces the file whole and leaves nothing beside it', async () => {
    const target = join(dir, 'pictor-costs.csv');
    await writeFile(target, 'the old export');
    await replaceFileBeside(target, 'a,b\r\n1,2\r\n');
    expect(await readFile(target, 'utf8')).toBe('a,b\r\n1,2\r\n');
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
  });

  it('leaves what was there and no part file when the new one cannot be put in its place', async () => {
    // A folder with a file in it where the file goes: the write beside it succeeds, the rename
    // over it fails.
    const target = join(dir, 'pictor-costs.csv');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    await expect(replaceFileBeside(target, 'a,b\r\n')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
    expect(await readFile(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('writes text chunks one after the other, and keeps the old file when producing one fails', async () => {
    const target = join(dir, 'pictor-costs.csv');
    await writeFile(target, 'the old export');
    const asked: string[] = [];
    function* pages(fail: boolean): Generator<string> {
      for (const page of ['header\r\n', 'a,1\r\n', 'b,2\r\n']) {
        asked.push(page);
        if (fail && page.startsWith('b')) throw new Error('the history closed');
        yield page;
      }
    }
    await expect(replaceFileBeside(target, pages(true))).rejects.toThrow('the history closed');
    expect(await readFile(target, 'utf8')).toBe('the old export');
    expect(await readdir(dir)).toEqual(['pictor-costs.csv']);
    await replaceFileBeside(target, pages(false));
    expect(await readFile(target, 'utf8')).toBe('header\r\na,1\r\nb,2\r\n');
    expect(asked).toHaveLength(6);
  });
});
