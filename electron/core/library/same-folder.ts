/**
 * Whether two folder paths name one folder on disk, whatever their spelling: a link to it, a
 * trailing separator, `..` segments, or another case where the file system ignores case. Main
 * answers this for Settings › Gallery folder › Change, so the page is never asked to compare
 * paths it cannot resolve (and never learns a real path).
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The real path of `path`, through its nearest existing ancestor. */
export async function realOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realOf(parent), basename(path));
  }
}

/**
 * True when `a` and `b` are one folder: the same device and inode when both exist (case and
 * links aside), else the same real path through their nearest existing ancestors.
 */
export async function isSameFolder(a: string, b: string): Promise<boolean> {
  // BigInt: a 64-bit file index (NTFS, some network file systems) is not rounded into another.
  const stated = (path: string) => stat(path, { bigint: true }).catch(() => null);
  const [x, y] = await Promise.all([stated(a), stated(b)]);
  if (x !== null && y !== null && x.ino !== 0n) {
    return x.dev === y.dev && x.ino === y.ino;
  }
  // One there and one not are two folders; neither there (or no inode to tell): by real path.
  if ((x === null) !== (y === null)) return false;
  const [realA, realB] = await Promise.all([realOf(a), realOf(b)]);
  return realA === realB;
}
