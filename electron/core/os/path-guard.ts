/**
 * The last check before an OS action (reveal, trash, copy, drag, save as) touches a file: the
 * absolute path must lie inside the gallery folder, by its text and, when it exists, by where
 * it really is (a symlink inside the gallery pointing out of it is refused).
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Resolves `true` when an OS action may touch `absolutePath`. */
export type PathGuard = (absolutePath: string) => Promise<boolean>;

/** `true` when `path` is `root` itself (if `allowRoot`) or a path below it, by text alone. */
export function isInsideFolder(root: string, path: string, allowRoot = false): boolean {
  if (!isAbsolute(root) || !isAbsolute(path) || path.includes('\0')) return false;
  const inside = relative(resolve(root), resolve(path));
  if (inside === '') return allowRoot;
  return inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
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
      const [realRoot, realPath] = await Promise.all([
        realOrNull(folder),
        realOrNull(absolutePath),
      ]);
      if (realPath === null) return true;
      return realRoot !== null && isInsideFolder(realRoot, realPath, options.allowRoot);
    } catch {
      return false;
    }
  };
}
