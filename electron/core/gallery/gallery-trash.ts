/**
 * Deleting an image with a way back: the file (and its thumbnail) first move into
 * `.pictor-trash/` inside the gallery, where Undo finds them; after {@link TRASH_KEEP_MS}, when
 * the app quits, or at the next start after a crash, they go on to the system's trash.
 *
 * A crafted folder cannot use it to reach elsewhere: the trash folder is made a real folder of
 * Pictor's own (a link at that name is removed as a link, see `ownFolder`), every move is checked
 * for links on the way (contained-fs), names in the trash are random, never from the record or
 * the network, and a restore never replaces anything: it links the file back under its old name
 * when that is free (`link` fails on an existing name) and under a new `-restored-N` name when not.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, constants, link, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join, posix, relative, sep } from 'node:path';
import type { Clock, TimerHandle } from '../../ports/clock';
import { silentLogger, type Logger } from '../../ports/logger';
import { systemErrorCode } from '../errors/thrown-value';
import {
  checkContained,
  ensureFolder,
  ownFolder,
  removeEmptyFolder,
  removeFile,
  renameContained,
} from '../fs/contained-fs';

/** Pictor's own folder in the gallery root for images deleted a moment ago. */
export const TRASH_DIR = '.pictor-trash';
/** How long a deleted image can be restored (Undo, Ctrl/Cmd+Z) before it goes to the system trash. */
export const TRASH_KEEP_MS = 5 * 60_000;
/** A thumbnail's name in its image's trash folder (`.thumb.webp`: never an image's name). */
const THUMBNAIL_STEM = '.thumb';
/** How many `-restored-N` names a restore tries before it gives up. */
const MAX_RESTORE_NAMES = 100;

/** One image's files in the trash, and where they came from (root-relative, `/` separators). */
export interface TrashedImage {
  readonly file: string;
  readonly thumbnail?: string;
  /** Its XMP sidecar (an image with Content Credentials keeps its XMP beside it). */
  readonly xmp?: string;
}

interface Entry {
  readonly original: TrashedImage;
  /** Absolute paths inside the trash folder. */
  readonly held: { readonly file: string; readonly thumbnail?: string; readonly xmp?: string };
  readonly timer: TimerHandle;
}

/** An XMP sidecar's name in its image's trash folder: the image's stem, as beside the image. */
const XMP_EXTENSION = '.xmp';

export interface GalleryTrashOptions {
  /** The gallery root (absolute); the trash is `<root>/.pictor-trash`. */
  readonly root: string;
  /** Moves a file to the system's trash; throws when it cannot. */
  readonly sendToSystemTrash: (file: string) => Promise<void>;
  /** Default: the process's own timers (which do not keep it alive). */
  readonly clock?: Clock;
  readonly keepMs?: number;
  readonly logger?: Logger;
}

/** The gallery's short-term trash: one per gallery root, keyed by whatever the caller names an image. */
export class GalleryTrash {
  readonly root: string;
  private readonly entries = new Map<string, Entry>();
  private readonly folder: string;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private recovering: Promise<void> = Promise.resolve();

  constructor(private readonly options: GalleryTrashOptions) {
    this.root = options.root;
    this.clock = options.clock ?? processTimers;
    this.folder = join(options.root, TRASH_DIR);
    this.logger = options.logger ?? silentLogger;
  }

  /** Whether an image under `key` can still be restored. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /**
   * Moves the image's file, thumbnail and XMP sidecar into the trash under `key` (replacing an
   * older entry of the same key, which goes to the system trash). The sidecar moves first: an image
   * never leaves without it. The thumbnail is only a cache: a failure to move it leaves it where it
   * was.
   * @throws UnsafePathError (a link on the way); file-system errors: nothing moved then.
   */
  async put(key: string, image: TrashedImage): Promise<void> {
    await this.recovering;
    await ownFolder(this.root, TRASH_DIR);
    // One folder per image, so the system trash later shows the image under its own name.
    const folder = join(this.folder, randomUUID());
    await ensureFolder(this.root, folder);
    const file = join(folder, plainName(image.file));
    const xmp = image.xmp === undefined ? undefined : stemOf(file) + XMP_EXTENSION;
    try {
      if (image.xmp !== undefined && xmp !== undefined) {
        await renameContained(this.root, this.absolute(image.xmp), xmp);
      }
      await renameContained(this.root, this.absolute(image.file), file).catch(async (error) => {
        // The image stays: its sidecar goes back beside it.
        if (image.xmp !== undefined && xmp !== undefined) {
          await renameContained(this.root, xmp, this.absolute(image.xmp)).catch(() => undefined);
        }
        throw error;
      });
    } catch (error) {
      await removeEmptyFolder(this.root, folder).catch(() => false);
      throw error;
    }
    let thumbnail: string | undefined;
    if (image.thumbnail !== undefined) {
      const target = join(folder, `${THUMBNAIL_STEM}${safeExtension(image.thumbnail)}`);
      thumbnail = await renameContained(this.root, this.absolute(image.thumbnail), target).then(
        () => target,
        () => undefined,
      );
    }
    const previous = this.entries.get(key);
    if (previous) await this.commit(key, previous);
    const timer = this.clock.setTimeout(
      () => void this.expire(key),
      this.options.keepMs ?? TRASH_KEEP_MS,
    );
    this.entries.set(key, {
      original: image,
      held: {
        file,
        ...(thumbnail === undefined ? {} : { thumbnail }),
        ...(xmp === undefined ? {} : { xmp }),
      },
      timer,
    });
  }

  /**
   * Puts the files of `key` back, never over anything: under their old names when free, else
   * under new ones. Returns the root-relative paths they now have; the entry is gone.
   * @throws TrashMissError when nothing is held under `key`; UnsafePathError when a folder on
   * the way back is a link (the entry is kept, to go to the system trash in time).
   */
  async restore(key: string): Promise<TrashedImage> {
    await this.recovering;
    const entry = this.entries.get(key);
    if (!entry) throw new TrashMissError();
    const file = await this.putBack(entry.held.file, entry.original.file);
    this.forget(key, entry);
    // The sidecar follows the image's name (a `-restored-N` image gets a `-restored-N` sidecar).
    const xmp =
      entry.held.xmp === undefined
        ? undefined
        : await this.putBack(entry.held.xmp, stemOf(file) + XMP_EXTENSION).catch(() => undefined);
    let thumbnail: string | undefined;
    if (entry.held.thumbnail !== undefined && entry.original.thumbnail !== undefined) {
      thumbnail = await this.putBack(entry.held.thumbnail, entry.original.thumbnail).catch(
        () => undefined,
      );
      if (thumbnail === undefined) await this.discard(entry.held.thumbnail);
    }
    await removeEmptyFolder(this.root, dirname(entry.held.file)).catch(() => false);
    return {
      file,
      ...(thumbnail === undefined ? {} : { thumbnail }),
      ...(xmp === undefined ? {} : { xmp }),
    };
  }

  /** Sends everything held to the system trash now (the app quits, the gallery moves). */
  async empty(): Promise<void> {
    for (const [key, entry] of [...this.entries]) await this.commit(key, entry);
  }

  /**
   * Sends whatever an earlier run left in the trash folder (it crashed or was killed before it
   * could) to the system trash; thumbnails and links are removed (a link as a link, never what it
   * points to). A link or a file at the folder's own name is removed as such, a real folder made.
   * Puts and restores wait for it.
   * @returns how many images went to the system trash.
   */
  recover(): Promise<number> {
    const run = this.recoverNow();
    this.recovering = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async recoverNow(): Promise<number> {
    await ownFolder(this.root, TRASH_DIR);
    let sent = 0;
    for (const entry of await readdir(this.folder, { withFileTypes: true })) {
      const path = join(this.folder, entry.name);
      if (!entry.isDirectory()) {
        await this.discard(path);
        continue;
      }
      if ([...this.entries.values()].some((held) => dirname(held.held.file) === path)) continue;
      for (const inner of await readdir(path, { withFileTypes: true })) {
        const file = join(path, inner.name);
        if (inner.isFile() && !inner.name.startsWith(THUMBNAIL_STEM)) {
          // An image's XMP sidecar goes with it; only images are counted.
          if ((await this.toSystemTrash(file)) && !inner.name.endsWith(XMP_EXTENSION)) sent += 1;
        } else if (!inner.isDirectory()) {
          await this.discard(file);
        }
      }
      await removeEmptyFolder(this.root, path).catch(() => false);
    }
    return sent;
  }

  private async putBack(held: string, original: string): Promise<string> {
    const target = this.absolute(original);
    await ensureFolder(this.root, dirname(target));
    await checkContained(this.root, held);
    for (let attempt = 0; attempt <= MAX_RESTORE_NAMES; attempt += 1) {
      const candidate = attempt === 0 ? target : restoredName(target, attempt);
      if (await placeNew(held, candidate)) {
        await unlink(held);
        return relative(this.root, candidate).split(sep).join(posix.sep);
      }
    }
    throw new Error(`No free name to restore ${original} under.`);
  }

  private async expire(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) await this.commit(key, entry);
  }

  private async commit(key: string, entry: Entry): Promise<void> {
    this.forget(key, entry);
    await this.toSystemTrash(entry.held.file);
    if (entry.held.xmp !== undefined) await this.toSystemTrash(entry.held.xmp);
    if (entry.held.thumbnail !== undefined) await this.discard(entry.held.thumbnail);
    await removeEmptyFolder(this.root, dirname(entry.held.file)).catch(() => false);
  }

  private forget(key: string, entry: Entry): void {
    this.clock.clearTimeout(entry.timer);
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  /** A file to the system trash; `false` (logged, kept for the next start) when it cannot go. */
  private async toSystemTrash(path: string): Promise<boolean> {
    try {
      await checkContained(this.root, path);
      await this.options.sendToSystemTrash(path);
      return true;
    } catch (error) {
      this.logger.warn('A deleted image could not go to the system trash yet.', {
        detail: systemErrorCode(error) ?? 'error',
      });
      return false;
    }
  }

  /** Thumbnails are Pictor's cache, not the user's files: removed, not trashed. */
  private async discard(path: string): Promise<void> {
    await removeFile(this.root, path).catch(() => false);
  }

  private absolute(relativePath: string): string {
    return join(this.root, ...relativePath.split('/'));
  }
}

/** Node's timers, unref'd: a deleted image waiting for Undo never keeps the process alive. */
const processTimers: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Nothing to restore: the image went on to the system trash already, or was never deleted here. */
export class TrashMissError extends Error {
  constructor() {
    super('The image is no longer held for Undo.');
    this.name = 'TrashMissError';
  }
}

/**
 * Makes `to` a new name for the file at `from`, never replacing anything at `to`: a hard link
 * (fails with EEXIST on any existing entry, a dangling link included), or where the file system
 * has none, an exclusive copy. `false` when the name is taken.
 */
async function placeNew(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') {
      throw error;
    }
  }
  try {
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if (systemErrorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** A path without its extension (`a/image-1.png` → `a/image-1`). */
function stemOf(path: string): string {
  return path.slice(0, path.length - extname(path).length);
}

/** `image-1.png` → `image-1-restored-2.png`. */
function restoredName(path: string, attempt: number): string {
  const extension = extname(path);
  const stem = basename(path, extension);
  return join(dirname(path), `${stem}-restored-${String(attempt)}${extension}`);
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

/**
 * The trash of the gallery in use: one {@link GalleryTrash} at a time. Asking for another root
 * (the gallery moved) empties the previous one to the system trash; a new one first recovers
 * what an earlier run left.
 */
export class TrashShelf {
  private current: GalleryTrash | null = null;

  constructor(private readonly options: Omit<GalleryTrashOptions, 'root'>) {}

  /** The trash of the gallery at `root`. */
  for(root: string): GalleryTrash {
    if (this.current?.root === root) return this.current;
    const previous = this.current;
    const next = new GalleryTrash({ ...this.options, root });
    this.current = next;
    if (previous) void previous.empty();
    void next.recover().catch(() => 0);
    return next;
  }

  /** Sends everything held to the system trash (the app quits, the gallery is about to move). */
  empty(): Promise<void> {
    return this.current?.empty() ?? Promise.resolve();
  }
}
