/**
 * What a folder holds, entry by entry, read without following links: the suites that plant
 * links compare a snapshot from before an operation with one from after it, so anything
 * removed, moved or rewritten outside the folder Pictor acts on shows up as a difference.
 */
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Relative path (with `/`) → `dir`, `file:<bytes as hex>`, `link:<target>` or `other`. */
export type TreeSnapshot = Record<string, string>;

export async function snapshotTree(
  root: string,
  skip: (relativePath: string) => boolean = () => false,
): Promise<TreeSnapshot> {
  const out: TreeSnapshot = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const key = relative(root, path).split(sep).join('/');
      if (skip(key)) continue;
      const info = await lstat(path);
      if (info.isSymbolicLink()) out[key] = `link:${await readlink(path)}`;
      else if (info.isDirectory()) {
        out[key] = 'dir';
        await walk(path);
      } else if (info.isFile()) out[key] = `file:${(await readFile(path)).toString('hex')}`;
      else out[key] = 'other';
    }
  };
  await walk(root);
  return out;
}
