/**
 * The gallery as storage: a folder of real image files the user can open, one folder per task
 * with a `pictor.json` sidecar, WebP thumbnails in `.thumbs/`, and `.pictor-tmp/` for files being
 * written. Names never come from the network. What comes into it (downloads, inline images,
 * thumbnails, checks of found files) is download/'s `ImageIntake`; where the library lives and how
 * it is rebuilt from its files is library/'s.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { silentLogger, type Logger } from '../../ports/logger';
import {
  ensureFolder,
  fsyncDir,
  GalleryPathError,
  ownFolder,
  PRIVATE_FOLDER_MODE,
  readRegularFile,
  removeFile,
  resolveInside,
  sweepLeftoverTemps,
  TEMP_DIR,
  writeFileAtomic,
} from '../fs';
import { sentence } from '../../../shared/i18n/sentence';
import { SIDECAR_NAME, taskFolderName } from './gallery-layout';
import { MAX_SIDECAR_BYTES, sidecarText } from './sidecar';
import { keptOfSidecar, withKept } from './sidecar-kept';
import { sidecarHoldsTriage, sidecarRecord, triageWritesXmpAlone } from './sidecar-triage';

/** What {@link Gallery.init} did. `warnings` (sentences naming paths) only when there are some. */
export interface InitResult {
  readonly removedTempFiles: number;
  readonly warnings?: readonly string[];
}

/** What a {@link Gallery} needs. */
export interface GalleryOptions {
  /** Absolute gallery folder (callers default to the OS Pictures folder + `/Pictor`). */
  root: string;
  logger?: Logger;
  /** The time (ms since the epoch): the age of leftover temp files; default `Date.now`. */
  now?: () => number;
  /** Pictor's version, named in the XMP it makes again (xmp-sidecar-sync.ts); default `unknown`. */
  appVersion?: string;
}

export class Gallery {
  private folder: string;
  private readonly logger: Logger;
  private readonly now: () => number;
  /** Pictor's version, as the XMP it writes names it. */
  readonly appVersion: string;

  constructor(options: GalleryOptions) {
    this.folder = absoluteRoot(options.root);
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.appVersion = options.appVersion ?? 'unknown';
  }

  /** The gallery folder (absolute); {@link reroot} changes it. */
  get root(): string {
    return this.folder;
  }

  /**
   * The gallery is now `folder` (the library moved or was opened there): every path from now on
   * is taken inside it, and it is made ready as {@link init} does. Records keep their folders,
   * which are relative to the root. The engine must be paused while the root changes.
   * @throws GalleryPathError for a folder that is not absolute (the root is then unchanged).
   */
  async reroot(folder: string): Promise<InitResult> {
    this.folder = absoluteRoot(folder);
    return this.init();
  }

  /**
   * The root, made again when it is gone (0700 on POSIX, with any folder missing above it; a
   * folder the user chose that exists keeps its mode): what {@link init} makes first, and what
   * "Open gallery folder" opens (PictorCore.galleryFolder).
   */
  async ensureRoot(): Promise<string> {
    const root = this.root;
    await mkdir(root, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return root;
  }

  /**
   * Creates the root (0700 on POSIX, as every folder Pictor makes in it: ensureFolder; a folder
   * the user chose that exists keeps its mode) and `.pictor-tmp/` inside it; deletes the leftover temp files there (what
   * a crash or a kill left half-written, not what another live process is writing: see
   * temp-names.ts), never through a link (see core/fs/contained-fs.ts).
   *
   * `.pictor-tmp` is Pictor's alone and holds nothing worth keeping, so when a link (or a file)
   * sits at that name, only the link itself is removed and a real folder made in its place:
   * nothing it points to is touched, and a crafted or unpacked folder cannot stop the app from
   * starting. A warning naming the path is logged and returned.
   */
  async init(): Promise<InitResult> {
    await this.ensureRoot();
    const warnings: string[] = [];
    const replaced = await ownFolder(this.root, TEMP_DIR);
    if (replaced !== null) {
      warnings.push(
        `${replaced} was a link or a file, not Pictor's temporary folder. Pictor removed the link itself (nothing it pointed to) and made a real folder there.`,
      );
    }
    // Only what no live process will finish: the app and CLI commands share this folder.
    const swept = await sweepLeftoverTemps(this.root, join(this.root, TEMP_DIR), {
      nowMs: this.now(),
    });
    const removed = swept.removed;
    warnings.push(...swept.warnings);
    if (removed > 0) this.logger.info('Removed leftover temp files.', { count: removed });
    for (const warning of warnings) this.logger.warn(warning);
    return warnings.length > 0
      ? { removedTempFiles: removed, warnings }
      : { removedTempFiles: removed };
  }

  /**
   * Deterministic folder for the task, relative to root:
   * `YYYY/MM/YYYY-MM-DD_HHMMSS_<slug of prompt, ≤40 chars, [a-z0-9-]>_<first 8 chars of localId>`
   * (local time from createdAt). Never from the URL.
   */
  folderFor(record: TaskRecord): string {
    return taskFolderName(record);
  }

  /**
   * Brings each saved image's XMP sidecar in line with its triage (xmp-sidecar-sync.ts: logged,
   * never thrown), the one place a saved image's triage is written (sidecar-triage.ts), then
   * writes `<folder>/pictor.json` atomically (temp + fsync + rename), creating the folder. The
   * record is written with `folder` set to the folder used.
   * @throws GalleryPathError when `record.folder` leaves the gallery; file-system errors.
   */
  async writeSidecar(record: TaskRecord): Promise<void> {
    const relative = this.taskFolder(record);
    const folder = this.resolve(relative);
    await ensureFolder(this.root, folder);
    await ensureFolder(this.root, join(this.root, TEMP_DIR));
    const unheld = await this.syncTriage(record, folder);
    await this.writeRecord(record, relative, unheld);
  }

  /**
   * After a change of the task's triage alone: its images' XMP sidecars, not `pictor.json`
   * (sidecar-triage.ts), unless that still holds triage (a library written before) or an image
   * the change may touch has no file to hold it: then {@link writeSidecar}.
   * @throws as {@link writeSidecar}.
   */
  async writeTriage(record: TaskRecord): Promise<void> {
    const relative = this.taskFolder(record);
    const folder = this.resolve(relative);
    const alone = triageWritesXmpAlone(record) && !(await sidecarHoldsTriage(this.root, folder));
    if (!alone) return this.writeSidecar(record);
    const unheld = await this.syncTriage(record, folder);
    if (unheld.size > 0) await this.writeRecord(record, relative, unheld);
    else await fsyncDir(folder);
  }

  /**
   * The images' XMP synced to `record`. The XMP code (the image headers, PNG, JPEG and WebP
   * metadata writers) loads at the first change that writes one: a `pictor rate` that changes
   * nothing never loads it.
   */
  private async syncTriage(record: TaskRecord, folder: string): Promise<ReadonlySet<number>> {
    const options = { root: this.root, appVersion: this.appVersion, logger: this.logger };
    const { syncXmpSidecars } = await import('./metadata/xmp-sidecar-sync');
    return syncXmpSidecars(record, folder, options);
  }

  /**
   * `pictor.json`, with the triage of the images in `unheld` (sidecar-triage.ts), then synced;
   * what a newer Pictor kept in the one there is not lost (sidecar-kept.ts): one of a newer format
   * is left as it is.
   */
  private async writeRecord(record: TaskRecord, relative: string, unheld: ReadonlySet<number>) {
    const folder = this.resolve(relative);
    const path = join(folder, SIDECAR_NAME);
    const kept = keptOfSidecar(await this.readSidecar(path));
    if (kept.newer) {
      this.logger.warn("a newer Pictor's pictor.json is left as it is", {
        localId: record.localId,
      });
      return;
    }
    const text = sidecarText({ ...sidecarRecord(record, unheld), folder: relative });
    await writeFileAtomic(this.root, path, withKept(text, kept));
    await fsyncDir(folder);
  }

  /** The text of the sidecar at `path`, or null: none, a link or too large (written over). */
  private async readSidecar(path: string): Promise<string | null> {
    try {
      return (await readRegularFile(this.root, path, MAX_SIDECAR_BYTES)).toString('utf8');
    } catch {
      return null;
    }
  }

  /**
   * Resolves a root-relative path (with `/` separators), refusing anything that escapes
   * root: `..`, absolute paths, backslashes, NUL.
   * @throws GalleryPathError
   */
  resolve(relative: string): string {
    return resolveInside(this.root, relative);
  }

  /**
   * Removes one file of the gallery (a thumbnail, an image), never through a link and never
   * outside the gallery. A missing file is not an error.
   * @returns whether a file was removed.
   * @throws GalleryPathError (an {@link UnsafePathError} for a link); file-system errors.
   */
  removeFile(relative: string): Promise<boolean> {
    return removeFile(this.root, this.resolve(relative));
  }

  /** The task's folder relative to the root: `record.folder` when set, else {@link folderFor}. */
  taskFolder(record: TaskRecord): string {
    return record.folder ?? this.folderFor(record);
  }
}

function absoluteRoot(folder: string): string {
  if (!isAbsolute(folder)) throw new GalleryPathError(sentence('error.gallery.rootNotAbsolute'));
  return resolvePath(folder);
}
