/**
 * Every delete, clean-up, rename and move Pictor makes in a folder it trusts (the gallery root
 * or the data folder) goes through here. The rule: nothing is acted on through a link, and
 * nothing whose real location is outside the root is touched.
 *
 * The root itself is trusted as given: a gallery folder that is a link to another disk is the
 * user's choice. Every component BELOW the root is `lstat`ed from the root down and may not be a
 * symbolic link; then `realpath` must still lie inside the root's real path. On Windows, `lstat`
 * reports junctions (mount-point reparse points) as symbolic links too, so they are refused the
 * same way; other reparse points (cloud-file placeholders) show as plain files and folders.
 *
 * Limit: Node has no `openat`/`unlinkat`, so another local process that swaps a component for a
 * link in the instant between the check and the call can still redirect one call. The checks run
 * right before each call, and a recursive removal checks every folder again before reading it
 * and before removing it; a private folder's chmod is made on the folder opened inside the root
 * (no redirect at all). A gallery other users can write to is outside what this protects.
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { GalleryPathError } from './gallery-path';
import { openInside } from './open-inside';
import { ensurePrivateFolder, PRIVATE_FOLDER_MODE, tightenOpened } from './private-files';
import { systemErrorCode } from '../errors';

/**
 * A path Pictor refused to act on: a link where it expected its own file or folder, or a path
 * whose real location is outside the folder it trusts. `path` names the offending component.
 */
export class UnsafePathError extends GalleryPathError {
  override readonly name: string = 'UnsafePathError';

  constructor(
    message: Sentence,
    readonly path: string,
  ) {
    super(message);
  }
}

/** The error for a link found at `path`. */
export function linkRefusal(path: string): UnsafePathError {
  return new UnsafePathError(sentence('error.gallery.pathIsLink', { path }), path);
}

function outsideRefusal(path: string, root: string): UnsafePathError {
  return new UnsafePathError(sentence('error.gallery.pathOutside', { path, root }), path);
}

/** `path` is `root` or below it, by text. */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function isMissing(error: unknown): boolean {
  const code = systemErrorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The absolute paths of every component below `root` down to `path`, top first. */
function componentsBelow(root: string, path: string): string[] {
  const base = resolve(root);
  const target = resolve(path);
  if (!isWithin(base, target)) throw outsideRefusal(target, base);
  const rel = relative(base, target);
  if (rel === '') return [];
  const parts: string[] = [];
  let at = base;
  for (const name of rel.split(sep)) {
    at = join(at, name);
    parts.push(at);
  }
  return parts;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Checks `path` under `root`: no component below the root is a link, and the real path of what
 * exists of it lies inside the root's real path.
 * @returns the `lstat` of `path`, or `null` when it (or a folder above it) does not exist.
 * @throws UnsafePathError
 */
export async function checkContained(root: string, path: string): Promise<Stats | null> {
  let last: Stats | null = null;
  let deepest = resolve(root);
  for (const at of componentsBelow(root, path)) {
    last = await lstatOrNull(at);
    if (last === null) break;
    if (last.isSymbolicLink()) throw linkRefusal(at);
    deepest = at;
  }
  const [realRoot, realDeepest] = await Promise.all([realpath(root), realpath(deepest)]);
  if (!isWithin(realRoot, realDeepest)) throw outsideRefusal(resolve(path), resolve(root));
  if (resolve(path) === resolve(root)) return lstat(root);
  return last;
}

/**
 * Makes sure `path` is a real folder under `root`, creating what is missing one level at a time,
 * each folder made 0700 (on POSIX: what is in Pictor's folders, a task's prompt in its sidecar
 * among it, is the user's alone; an existing folder keeps the mode it has).
 * A link or a file where a folder should be is refused, never followed or replaced.
 * @throws UnsafePathError; file-system errors (full disk, no permission).
 */
export async function ensureFolder(root: string, path: string): Promise<void> {
  for (const at of componentsBelow(root, path)) {
    let info = await lstatOrNull(at);
    if (info === null) {
      await mkdir(at, { mode: PRIVATE_FOLDER_MODE }).catch((error: unknown) => {
        if (systemErrorCode(error) !== 'EEXIST') throw error;
      });
      info = await lstat(at);
    }
    if (info.isSymbolicLink()) throw linkRefusal(at);
    if (!info.isDirectory()) {
      throw new UnsafePathError(sentence('error.gallery.fileNotFolder', { path: at }), at);
    }
  }
  await checkContained(root, path);
}

/**
 * {@link ensureFolder}, then the folder made private as ensurePrivateFolder does (group and other
 * bits taken from one that has them): a folder of Pictor's own below a folder it trusts (the data
 * folder). A link left there while that folder was open to others is refused before any chmod,
 * never followed to a folder of the user's. The chmod is made on the folder opened inside the root
 * (openInside), not by its path: a chmod by path after the checks followed a link another local
 * user swapped in meanwhile, for the folder or one above it, and tightened the user's folder.
 * @throws UnsafePathError; file-system errors.
 */
export async function ensurePrivateFolderBelow(root: string, path: string): Promise<void> {
  await ensureFolder(root, path);
  if (resolve(path) === resolve(root)) return ensurePrivateFolder(path);
  const opened = await openInside(root, path);
  if (!opened.ok) throw linkRefusal(path);
  try {
    if (!opened.stats.isDirectory()) {
      throw new UnsafePathError(sentence('error.gallery.fileNotFolder', { path }), path);
    }
    await tightenOpened(opened.handle, Number(opened.stats.mode));
  } finally {
    await opened.handle.close();
  }
}

/**
 * Removes one entry that is not a folder (a file, a FIFO, or a link itself, never what a link
 * points to). A missing entry is not an error.
 * @returns whether something was removed.
 * @throws UnsafePathError when a folder above it is a link, or when it is a folder.
 */
export async function removeFile(root: string, path: string): Promise<boolean> {
  await checkContained(root, dirname(resolve(path)));
  const info = await lstatOrNull(path);
  if (info === null) return false;
  if (info.isDirectory()) {
    throw new UnsafePathError(sentence('error.gallery.folderNotFile', { path }), path);
  }
  try {
    await unlink(path); // unlink never follows a link: it removes the link itself
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** What to do with a link found where a removal expects a folder or file of Pictor's own. */
export type LinkPolicy = 'unlink' | 'refuse';

/**
 * Removes `path` and everything below it, walking with `lstat`/`readdir`. Links inside are
 * removed as links (their targets are never touched); a link at `path` itself is removed as a
 * link with `onLink: 'unlink'` and refused with `'refuse'`.
 * @returns how many entries that are not folders were removed.
 * @throws UnsafePathError; file-system errors.
 */
export async function removeTree(
  root: string,
  path: string,
  options: { onLink?: LinkPolicy } = {},
): Promise<number> {
  const absolute = resolve(path);
  if (absolute === resolve(root)) throw outsideRefusal(absolute, resolve(root));
  await checkContained(root, dirname(absolute));
  const info = await lstatOrNull(absolute);
  if (info === null) return 0;
  if (info.isSymbolicLink() && (options.onLink ?? 'refuse') === 'refuse') {
    throw linkRefusal(absolute);
  }
  if (!info.isDirectory()) return (await removeFile(root, absolute)) ? 1 : 0;
  let removed = 0;
  for (const name of await readdir(absolute)) {
    removed += await removeTree(root, join(absolute, name), { onLink: 'unlink' });
  }
  // Checked again: the folder may have been swapped for a link while it was emptied.
  const again = await checkContained(root, absolute);
  if (again?.isDirectory()) {
    await rmdir(absolute).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  }
  return removed;
}

/**
 * Removes `path` if it is an empty folder under `root`; leaves it (returns false) when it holds
 * anything or is gone.
 */
export async function removeEmptyFolder(root: string, path: string): Promise<boolean> {
  const info = await checkContained(root, path);
  if (!info?.isDirectory() || resolve(path) === resolve(root)) return false;
  try {
    await rmdir(path);
    return true;
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || isMissing(error)) return false;
    throw error;
  }
}

/**
 * Renames `from` to `to`, both under `root`, neither through a link above them. A link at `to`
 * is replaced as a link (rename never writes through it); a folder at `to` is refused, since
 * POSIX would let an empty one be replaced silently.
 * @throws UnsafePathError; file-system errors.
 */
export async function renameContained(root: string, from: string, to: string): Promise<void> {
  const source = await checkContained(root, from);
  if (source === null) {
    throw Object.assign(new Error(`${from} does not exist.`), { code: 'ENOENT' });
  }
  await checkContained(root, dirname(resolve(to)));
  const existing = await lstatOrNull(to);
  if (existing?.isDirectory()) {
    throw new UnsafePathError(sentence('error.gallery.pathExists', { path: to }), to);
  }
  await rename(from, to);
}

/**
 * Makes `<root>/<name>` a real, empty-able folder of Pictor's own (such as `.pictor-tmp`). When
 * a link, file or FIFO sits there instead, that entry itself is removed (a link is unlinked,
 * never followed) and a real folder made in its place.
 * @returns the path of what was replaced, or `null` when the folder was already fine.
 */
export async function ownFolder(root: string, name: string): Promise<string | null> {
  const path = join(resolve(root), name);
  const info = await lstatOrNull(path);
  let replaced: string | null = null;
  if (info !== null && !info.isDirectory()) {
    await removeFile(root, path);
    replaced = path;
  }
  await ensureFolder(root, path);
  return replaced;
}
