/**
 * readRegularFile against real special files. The injected fault is the race a crafted folder
 * can win: the name is a regular file when it is lstat-ed and a FIFO or a link when it is
 * opened. The open's own flags and the fstat of the handle must still refuse it, at once.
 */
import { execFileSync } from 'node:child_process';
import type { Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  UnsafeFileError,
  readRegularFile,
  regularFileSize,
} from '../../../../electron/core/gallery/regular-file';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsp>();
  return { ...real, lstat: vi.fn(real.lstat) };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-regular-file-'));
});
afterEach(async () => {
  vi.mocked(fsp.lstat).mockClear();
  await rm(dir, { recursive: true, force: true });
});

/** The next lstat reports a plain 10-byte file, whatever is really there (the race, won). */
async function lstatLiesOnce(): Promise<void> {
  const real = await fsp.stat(__filename);
  const fake = Object.assign(Object.create(Object.getPrototypeOf(real) as object) as Stats, real, {
    size: 10,
    isFile: () => true,
    isFIFO: () => false,
    isSymbolicLink: () => false,
  });
  vi.mocked(fsp.lstat).mockResolvedValueOnce(fake as never);
}

describe('readRegularFile', () => {
  it('reads a regular file within the cap, and refuses one past it', async () => {
    const path = join(dir, 'a.json');
    await writeFile(path, '0123456789');
    expect((await readRegularFile(path, 10)).toString()).toBe('0123456789');
    expect(await regularFileSize(path, 10)).toBe(10);
    await expect(readRegularFile(path, 9)).rejects.toThrow(/larger than the 9 bytes/);
  });

  it('refuses a FIFO, a link and a folder by their lstat', async () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    await writeFile(join(dir, 'target'), 'x');
    await symlink(join(dir, 'target'), join(dir, 'link'));
    await fsp.mkdir(join(dir, 'folder'));
    for (const [name, reason] of [
      ['fifo', /pipe or socket/],
      ['link', /link/],
      ['folder', /folder/],
    ] as const) {
      const error = await readRegularFile(join(dir, name), 100).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(UnsafeFileError);
      expect((error as Error).message, name).toMatch(reason);
    }
  });

  it('a FIFO swapped in after the lstat opens without waiting and is refused', async () => {
    const path = join(dir, 'image-1.png');
    execFileSync('mkfifo', [path]);
    await lstatLiesOnce();
    const started = Date.now();
    await expect(readRegularFile(path, 100)).rejects.toThrow(/pipe or socket/);
    // Without O_NONBLOCK the open waits for a writer that never comes.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(vi.mocked(fsp.lstat)).toHaveBeenCalledTimes(1);
  });

  it('a link swapped in after the lstat is not followed', async () => {
    const path = join(dir, 'pictor.json');
    await writeFile(join(dir, 'secret'), 'outside the gallery');
    await symlink(join(dir, 'secret'), path);
    await lstatLiesOnce();
    await expect(readRegularFile(path, 100)).rejects.toThrow(/link/);
  });
});
