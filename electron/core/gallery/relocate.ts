/**
 * Moves the whole gallery to another folder (Settings › Gallery folder › Change). Records keep
 * paths relative to the gallery root, so moving the files is all a move needs.
 */
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { GalleryPathError } from './gallery-path';

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Moves every entry of `from` into `to` (created if missing). Refuses overlaps and name clashes. */
export async function relocateGallery(from: string, to: string): Promise<{ moved: number }> {
  const source = resolve(from);
  const target = resolve(to);
  if (source === target) return { moved: 0 };
  if (inside(source, target) || inside(target, source)) {
    throw new GalleryPathError(
      'The new gallery folder cannot be inside the current one, or contain it. Choose a separate folder.',
    );
  }
  await mkdir(target, { recursive: true });
  const entries = await readdir(source).catch(() => [] as string[]);
  const existing = new Set(await readdir(target));
  const clashes = entries.filter((name) => existing.has(name) && name !== '.pictor-tmp');
  if (clashes.length > 0) {
    throw new GalleryPathError(
      `The folder ${target} already has items named like the gallery’s (${clashes.slice(0, 3).join(', ')}). Choose an empty folder.`,
    );
  }
  for (const name of entries) {
    const at = join(source, name);
    const dest = join(target, name);
    if (name === '.pictor-tmp') {
      await rm(at, { recursive: true, force: true });
      continue;
    }
    try {
      await rename(at, dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another disk: copy, then remove the original only once the copy is complete.
      await cp(at, dest, { recursive: true, errorOnExist: true, force: false });
      await rm(at, { recursive: true, force: true });
    }
  }
  return { moved: entries.filter((name) => name !== '.pictor-tmp').length };
}
