/**
 * The last check before an OS action (reveal, trash, copy, drag, save as) touches a file: the
 * absolute path must lie inside the gallery folder by its text, no component below the gallery
 * folder may be a link (symbolic link or junction, wherever it points: trash moves what it is
 * given, and a link is never Pictor's), and what exists of it must really be inside the folder.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { checkContained } from '../../core/fs';

/** Resolves `true` when an OS action may touch `absolutePath`. */
export type PathGuard = (absolutePath: string) => Promise<boolean>;

/** `true` when `path` is `root` itself (if `allowRoot`) or a path below it, by text alone. */
export function isInsideFolder(root: string, path: string, allowRoot = false): boolean {
  if (!isAbsolute(root) || !isAbsolute(path) || path.includes('\0')) return false;
  const inside = relative(resolve(root), resolve(path));
  if (inside === '') return allowRoot;
  return inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

/**
 * A guard for files in the gallery whose folder is `root()` at the time of the check (the
 * folder can change in Settings). A path that does not exist passes on its text alone; the
 * action then reports the missing file.
 */
export function galleryGuard(root: () => string, options: { allowRoot?: boolean } = {}): PathGuard {
  return async (absolutePath) => {
    const folder = root();
    if (!isInsideFolder(folder, absolutePath, options.allowRoot)) return false;
    try {
      // Refuses (throws) at the first link below the folder, and a real path outside it.
      await checkContained(folder, absolutePath);
      return true;
    } catch {
      return false;
    }
  };
}
