/**
 * A folder mirrored elsewhere by symbolic links: a test that needs its own copy of a pack (to add,
 * remove or edit a file) links to the pack's entries instead of copying them (a packed app's
 * node_modules is tens of megabytes), and makes real folders only where it changes something.
 * Nobody writes into a pack (shared-packs.ts): a file to change is replaced, never written
 * through its link.
 */
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * `from` mirrored at `to`: every entry a link to `from`'s, but the folders along `open` (which
 * are made, so a file can be added or removed there without touching `from`).
 */
export async function mirror(from: string, to: string, open: readonly string[]): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from)) {
    if (entry === open[0])
      await mirror(path.join(from, entry), path.join(to, entry), open.slice(1));
    else await symlink(path.join(from, entry), path.join(to, entry));
  }
}
