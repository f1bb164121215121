/**
 * The gallery's own trash folder, `.pictor-trash/`: the files of a deleted image wait in a folder
 * of their own (`.pictor-trash/<entry id>/`) for Undo, then go on to the system's trash. What is
 * held where, and what comes back, is the trash journal's to say (core/trash); this file only
 * moves files, and every move can be made again after a crash with the same result.
 *
 * A crafted folder cannot use it to reach elsewhere: the trash folder is made a real folder of
 * Pictor's own (a link at that name is removed as a link, see `ownFolder`), every move is checked
 * for links on the way (contained-fs), names in the trash are Pictor's own, and a file comes back
 * without ever replacing anything: it is linked back under its old name when that is free (`link`
 * fails on an existing name) and under a new `-restored-N` name when not. A name that already
 * holds this very file (same inode: an earlier try was cut short) is taken as done.
 */
import type { SystemTrash } from '../../ports/system-trash';
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { silentLogger, type Logger } from '../../ports/logger';
import { systemErrorCode } from '../errors';
import {
  checkContained,
  ensureFolder,
  ownFolder,
  removeEmptyFolder,
  removeFile,
  removeTree,
  renameContained,
  resolveInside,
} from '../fs';
import {
  type ImageFile,
  isCache,
  isXmpSidecar,
  MAX_RESTORE_NAMES,
  xmpSidecarName,
} from '../gallery';
import { placeNew } from '../download';

/** Pictor's own folder in the gallery root for images deleted a moment ago. */
export const TRASH_DIR = '.pictor-trash';
/** How long a deleted image can be restored (Undo, Ctrl/Cmd+Z) before it goes to the system trash. */
export const TRASH_KEEP_MS = 5 * 60_000;

/** One file of an image in the trash: its role, where it was, its name in the entry's folder. */
export interface HeldImageFile extends ImageFile {
  readonly held: string;
}

export interface GalleryTrashOptions {
  /** The gallery root (absolute); the trash is `<root>/.pictor-trash`. */
  readonly root: string;
  /** Moves a file to the system's trash (the host's); throws when it cannot. */
  readonly sendToSystemTrash: SystemTrash;
  readonly logger?: Logger;
}

/**
 * The names an image's files get in its trash folder: the image under its own plain name, its XMP
 * sidecar under the image's name with `.xmp` (both go on to the system trash under these, where
 * the user finds them side by side), caches under hidden names.
 */
export function heldNames(files: readonly ImageFile[]): HeldImageFile[] {
  const image = files.find((file) => file.role === 'image');
  const imageName = image === undefined ? undefined : plainName(image.path);
  return files.map((file, n) => ({
    ...file,
    held:
      file.role === 'image'
        ? plainName(file.path)
        : isXmpSidecar(file.role) && imageName !== undefined
          ? xmpSidecarName(imageName)
          : `.${file.role}-${String(n)}${safeExtension(file.path)}`,
  }));
}

/** The files of one gallery root's trash. */
export class GalleryTrash {
  readonly root: string;
  private readonly folder: string;
  private readonly logger: Logger;

  constructor(private readonly options: GalleryTrashOptions) {
    this.root = options.root;
    this.folder = join(options.root, TRASH_DIR);
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Moves an image's files into the entry's folder. The image itself must move (else nothing
   * did, and this throws); a file after it that cannot move stays where it was.
   * @throws UnsafePathError (a link on the way); file-system errors, with nothing moved.
   */
  async hold(id: string, files: readonly HeldImageFile[]): Promise<void> {
    await ownFolder(this.root, TRASH_DIR);
    const folder = this.entryFolder(id);
    await ensureFolder(this.root, folder);
    for (const file of files) {
      const moved = renameContained(this.root, this.absolute(file.path), join(folder, file.held));
      if (file.role !== 'image') {
        await moved.catch(() => undefined);
        continue;
      }
      await moved.catch(async (error: unknown) => {
        await removeEmptyFolder(this.root, folder).catch(() => false);
        throw error;
      });
    }
  }

  /** Whether the entry's folder is still there (its files are held, or on their way out). */
  async holds(id: string): Promise<boolean> {
    const info = await checkContained(this.root, this.entryFolder(id)).catch(() => null);
    return info?.isDirectory() ?? false;
  }

  /**
   * Places every held file back, never over anything: under its old name when free, else under a
   * new one. Safe to run again after an interruption: a name already holding the same file is
   * taken. A cache file that cannot come back is left out (removed with the folder); another file
   * that cannot goes to the system trash.
   * @returns the files where they are now (the image first).
   * @throws when the image itself cannot come back (UnsafePathError: a folder on the way is a link).
   */
  async placeBack(id: string, files: readonly HeldImageFile[]): Promise<ImageFile[]> {
    const back: ImageFile[] = [];
    for (const file of files) {
      const held = join(this.entryFolder(id), file.held);
      if ((await lstatOrNull(held)) === null) continue;
      try {
        const wanted = pairedPath(file, files, back);
        back.push({ role: file.role, path: await this.placeNew(held, wanted) });
      } catch (error) {
        if (file.role === 'image') throw error;
        // Not the image: a cache is made again; the user's own file goes to the system trash.
        if (!isCache(file.role)) await this.sendOn(held);
      }
    }
    return back;
  }

  /** Removes the entry's folder once its files are back in place (held names are extra links). */
  async release(id: string): Promise<void> {
    await removeTree(this.root, this.entryFolder(id)).catch(() => 0);
  }

  /**
   * Sends an entry's files to the system trash (caches are removed), then its folder.
   * @returns false when a file could not go (logged; the folder stays for the next try).
   */
  async toSystemTrash(id: string, files: readonly HeldImageFile[]): Promise<boolean> {
    let all = true;
    for (const file of files) {
      const held = join(this.entryFolder(id), file.held);
      if ((await lstatOrNull(held)) === null) continue;
      if (isCache(file.role)) await removeFile(this.root, held).catch(() => false);
      else all = (await this.sendOn(held)) && all;
    }
    await removeEmptyFolder(this.root, this.entryFolder(id)).catch(() => false);
    return all;
  }

  /**
   * Sends what the trash holds outside `known` entries (left by an earlier Pictor that kept no
   * journal) to the system trash; thumbnails and links are removed (a link as a link). A link
   * or a file at the folder's own name is removed as such, a real folder made.
   * @returns how many files went to the system trash.
   */
  async recoverUnknown(known: ReadonlySet<string>): Promise<number> {
    if ((await lstatOrNull(this.folder)) === null) return 0;
    await ownFolder(this.root, TRASH_DIR);
    let sent = 0;
    for (const entry of await readdir(this.folder, { withFileTypes: true })) {
      const path = join(this.folder, entry.name);
      if (!entry.isDirectory()) {
        await removeFile(this.root, path).catch(() => false);
        continue;
      }
      if (known.has(entry.name)) continue;
      for (const inner of await readdir(path, { withFileTypes: true })) {
        const file = join(path, inner.name);
        if (inner.isFile() && !inner.name.startsWith('.')) {
          if (await this.sendOn(file)) sent += 1;
        } else if (!inner.isDirectory()) {
          await removeFile(this.root, file).catch(() => false);
        }
      }
      await removeEmptyFolder(this.root, path).catch(() => false);
    }
    return sent;
  }

  private async placeNew(held: string, original: string): Promise<string> {
    const target = resolveInside(this.root, original);
    await ensureFolder(this.root, dirname(target));
    await checkContained(this.root, held);
    for (let attempt = 0; attempt <= MAX_RESTORE_NAMES; attempt += 1) {
      const candidate = attempt === 0 ? target : restoredName(target, attempt);
      if (await placeNew(this.root, held, candidate))
        return relative(this.root, candidate).split(sep).join('/');
    }
    throw new Error(`No free name to restore ${original} under.`);
  }

  /** A file to the system trash; `false` (logged, kept for the next start) when it cannot go. */
  private async sendOn(path: string): Promise<boolean> {
    try {
      await checkContained(this.root, path);
      await this.options.sendToSystemTrash(path, this.root);
      return true;
    } catch (error) {
      this.logger.warn('A deleted image could not go to the system trash yet.', {
        detail: systemErrorCode(error) ?? 'error',
      });
      return false;
    }
  }

  private entryFolder(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error('Not a trash entry id.');
    return join(this.folder, id);
  }

  private absolute(path: string): string {
    return resolveInside(this.root, path);
  }
}

async function lstatOrNull(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** `image-1.png` → `image-1-restored-2.png`. */
function restoredName(path: string, attempt: number): string {
  const extension = extname(path);
  const stem = basename(path, extension);
  return join(dirname(path), `${stem}-restored-${String(attempt)}${extension}`);
}

/**
 * Where a file comes back: its old path, except an XMP sidecar of an image that came back under
 * a new name (its old one was taken), which follows the image's new name (`image-1-restored-1.png`
 * → `image-1-restored-1.xmp`): readers pair an image with its sidecar by name
 * (gallery-layout.ts `xmpSidecarName`), so a sidecar left under the old stem would belong to
 * whatever took the old name, and the restored image would have none.
 */
function pairedPath(
  file: ImageFile,
  held: readonly ImageFile[],
  back: readonly ImageFile[],
): string {
  if (!isXmpSidecar(file.role)) return file.path;
  const was = held.find((item) => item.role === 'image')?.path;
  const now = back.find((item) => item.role === 'image')?.path;
  return was === undefined || now === undefined || now === was ? file.path : xmpSidecarName(now);
}

/** The file's own name, if it is a plain one (`[A-Za-z0-9._-]`, no leading dot); else `image`. */
function plainName(path: string): string {
  const name = basename(path);
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}$/.test(name) ? name : `image${safeExtension(path)}`;
}

/** The extension of a gallery file, if it is a plain one (`.png`, `.webp`); else none. */
function safeExtension(path: string): string {
  const extension = extname(path).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(extension) ? extension : '';
}
