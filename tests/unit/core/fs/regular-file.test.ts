/**
 * readRegularFile against real special files. The injected fault is the race a crafted folder
 * can win: the name is a regular file when it is lstat-ed (the identity walk's check before the
 * open) and a FIFO or a link when it is opened. The open's own flags and the fstat of the handle
 * must still refuse it, at once.
 */
import * as fsp from 'node:fs/promises';
import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  UnsafeFileError,
  openRegularFile,
  readOpenedFile,
  readRegularFile,
  regularFileSize,
} from '../../../../electron/core/fs/regular-file';
import { CONTAINMENTS } from '../../../support/scripted-swaps';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const FIFO = fifoMaker();
let dir: string;
beforeEach(async () => {
  dir = await tempFolder('regular-file');
});
afterEach(async () => {
  await removeFolder(dir);
});

describe('readRegularFile', () => {
  it('reads a regular file within the cap, and refuses one past it', async () => {
    const path = join(dir, 'a.json');
    await writeFile(path, '0123456789');
    expect((await readRegularFile(dir, path, 10)).toString()).toBe('0123456789');
    expect(await regularFileSize(dir, path, 10)).toBe(10);
    await expect(readRegularFile(dir, path, 9)).rejects.toThrow(/larger than the 9 bytes/);
  });

  it('reads a file of its checked size in one read, and refuses one that grew since', async () => {
    const path = join(dir, 'pictor.json');
    await writeFile(path, '0123456789');
    const opened = await openRegularFile(dir, path, 100);
    const grown = await openRegularFile(dir, path, 100);
    try {
      const reads = vi.spyOn(opened.handle, 'read');
      expect((await readOpenedFile(opened.handle, opened.size)).toString()).toBe('0123456789');
      // Asked for one byte more than its size and given its size: that is its end.
      expect(reads).toHaveBeenCalledTimes(1);
      await fsp.appendFile(path, 'more');
      await expect(readOpenedFile(grown.handle, grown.size)).rejects.toThrow(UnsafeFileError);
    } finally {
      await opened.handle.close();
      await grown.handle.close();
    }
  });

  it.skipIf(!FIFO.path)(needing(FIFO, 'refuses a FIFO, a link and a folder'), async () => {
    makeFifo(FIFO, join(dir, 'fifo'));
    await writeFile(join(dir, 'target'), 'x');
    await symlink(join(dir, 'target'), join(dir, 'link'));
    await fsp.mkdir(join(dir, 'folder'));
    for (const [name, reason] of [
      ['fifo', /pipe or socket/],
      ['link', /link/],
      ['folder', /folder/],
    ] as const) {
      const error = await readRegularFile(dir, join(dir, name), 100).catch(
        (caught: unknown) => caught,
      );
      expect(error, name).toBeInstanceOf(UnsafeFileError);
      expect((error as Error).message, name).toMatch(reason);
    }
  });

  it.skipIf(!FIFO.path).each(CONTAINMENTS)(
    needing(
      FIFO,
      '%s: a FIFO swapped in right before the open opens without waiting and is refused',
    ),
    async (containment) => {
      const path = join(dir, 'image-1.png');
      await writeFile(path, 'a regular file when checked');
      const beforeOpen = async () => {
        await rm(path);
        makeFifo(FIFO, path);
      };
      // Without O_NONBLOCK the open waits for a writer that never comes: the test's own time
      // limit ends it then, so no clock is read here (a loaded machine cannot fail it).
      const error = await openRegularFile(dir, path, 100, { containment, beforeOpen }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(UnsafeFileError);
    },
  );

  it.each(CONTAINMENTS)(
    '%s: a link swapped in right before the open is not followed',
    async (containment) => {
      const path = join(dir, 'pictor.json');
      await writeFile(path, '{}');
      await writeFile(join(dir, 'secret'), 'outside the gallery');
      const beforeOpen = async () => {
        await rm(path);
        await symlink(join(dir, 'secret'), path);
      };
      await expect(openRegularFile(dir, path, 100, { containment, beforeOpen })).rejects.toThrow(
        /link/,
      );
    },
  );
});
