/**
 * The gallery: a folder of real image files the user can open, one folder per task with a
 * `pictor.json` sidecar, WebP thumbnails in `.thumbs/`, and `.pictor-tmp/` for files being
 * written. Names never come from the network.
 */
import type { ImageEngine } from '../../ports/image-engine';
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { DOWNLOAD_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { FetchLike } from '../../ports/http';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import { silentLogger, type Logger } from '../../ports/logger';
import {
  UnsafePathError,
  checkContained,
  ensureFolder,
  ownFolder,
  removeFile,
} from '../fs/contained-fs';
import { fsyncDir, writeFileAtomic } from '../fs/atomic-file';
import { TEMP_DIR } from './gallery-layout';
import { sweepLeftoverTemps } from '../fs/temp-names';
import { downloadOnce, type DownloadSettings } from '../download/download-image';
import { checkImage, type ImageCheckResult } from '../download/image-finish';
import type { ImageKind } from '../images/image-sniff';
import { sentence } from '../../../shared/i18n/sentence';
import { invalid, type DownloadOutcome } from '../download/download-outcome';
import { taskFolderName } from './gallery-layout';
import { GalleryPathError, resolveInside } from '../fs/gallery-path';
import { THUMBS_DIR } from './gallery-layout';
import { rebuildFromFolder, type RebuildOptions, type RebuildResult } from '../library/rebuild';
import {
  checkedWithCredentials,
  withFoundCredentialsAll,
  type FoundCredentialsContext,
} from '../download/found-credentials';
import { makeSavedThumbnail, type SavedThumbnail } from '../download/saved-thumbnail';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { sidecarText } from './sidecar';
import { provenanceOf } from './metadata/provenance';
import { SIDECAR_NAME } from './gallery-layout';
import { inlineTokenHash, type InlineImage } from '../../../shared/service/inline-token';
import { dropInlineImage, keepInlineImages } from '../download/inline-spool';

/** What {@link Gallery.init} did. `warnings` (sentences naming paths) only when there are some. */
export interface InitResult {
  readonly removedTempFiles: number;
  readonly warnings?: readonly string[];
}

/** What a {@link Gallery} needs. Only `root`, `fetch` and `imageEngine` are required. */
export interface GalleryOptions {
  /** Absolute gallery folder (callers default to the OS Pictures folder + `/Pictor`). */
  root: string;
  /** The network port; see electron/ports/http.ts. */
  fetch: FetchLike;
  /** Default 64 MiB; a bigger image (by Content-Length or by counting) is invalid. */
  maxImageBytes?: number;
  /** Default 100,000,000: images claiming more pixels (decompression bombs) are invalid. */
  maxPixels?: number;
  /** Default 384: the thumbnail's longest side, WebP. */
  thumbnailSize?: number;
  /** Default 120,000 ms per attempt (request, redirects and body). */
  downloadTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  logger?: Logger;
  /**
   * Decodes images and makes their thumbnails, after the core's header check: the host's choice
   * (the app's Chromium image renderer, native sharp in plain Node, or header-only).
   */
  imageEngine: ImageEngine;
  /** Verifies the Content Credentials an image carries (absent: found and kept, not verified). */
  credentials?: ContentCredentialVerifier;
  /**
   * When set, every image saved carries its provenance (XMP and, in a PNG, a text chunk: see
   * metadata/): the prompt, settings, task id, service origin, date and this Pictor version.
   * The core (pictor-core.ts) always sets it; without it images are saved as they came.
   */
  imageMetadata?: { readonly appVersion: string };
  /**
   * The time (ms since the epoch): the age of leftover temp files, and what a Retry-After date is
   * a wait from; default `Date.now`.
   */
  now?: () => number;
}

export class Gallery {
  private settings: DownloadSettings;
  private readonly imageMetadata: { readonly appVersion: string } | undefined;

  constructor(options: GalleryOptions) {
    this.settings = {
      root: absoluteRoot(options.root),
      fetch: options.fetch,
      maxImageBytes: options.maxImageBytes ?? DOWNLOAD_MAX_IMAGE_BYTES,
      maxPixels: options.maxPixels ?? 100_000_000,
      thumbnailSize: options.thumbnailSize ?? 384,
      downloadTimeoutMs: options.downloadTimeoutMs ?? 120_000,
      maxRedirects: options.maxRedirects ?? 5,
      logger: options.logger ?? silentLogger,
      imageEngine: options.imageEngine,
      now: options.now ?? Date.now,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    };
    this.imageMetadata = options.imageMetadata;
  }

  /** The most one image may weigh: a download's body, or an image a service sent inline. */
  get maxImageBytes(): number {
    return this.settings.maxImageBytes;
  }

  /** The gallery folder (absolute); {@link reroot} changes it. */
  get root(): string {
    return this.settings.root;
  }

  /**
   * The gallery is now `folder` (the library moved or was opened there): every path from now on
   * is taken inside it, and it is made ready as {@link init} does. Records keep their folders,
   * which are relative to the root. The engine must be paused while the root changes.
   * @throws GalleryPathError for a folder that is not absolute (the root is then unchanged).
   */
  async reroot(folder: string): Promise<InitResult> {
    this.settings = { ...this.settings, root: absoluteRoot(folder) };
    return this.init();
  }

  /**
   * Creates the root and `.pictor-tmp/` inside it; deletes the leftover temp files there (what
   * a crash or a kill left half-written, not what another live process is writing: see
   * temp-names.ts), never through a link (see core/fs/contained-fs.ts).
   *
   * `.pictor-tmp` is Pictor's alone and holds nothing worth keeping, so when a link (or a file)
   * sits at that name, only the link itself is removed and a real folder made in its place:
   * nothing it points to is touched, and a crafted or unpacked folder cannot stop the app from
   * starting. A warning naming the path is logged and returned.
   */
  async init(): Promise<InitResult> {
    await mkdir(this.root, { recursive: true });
    const warnings: string[] = [];
    const replaced = await ownFolder(this.root, TEMP_DIR);
    if (replaced !== null) {
      warnings.push(
        `${replaced} was a link or a file, not Pictor's temporary folder. Pictor removed the link itself (nothing it pointed to) and made a real folder there.`,
      );
    }
    // Only what no live process will finish: the app and CLI commands share this folder.
    const swept = await sweepLeftoverTemps(this.root, join(this.root, TEMP_DIR), {
      nowMs: this.settings.now(),
    });
    const removed = swept.removed;
    warnings.push(...swept.warnings);
    if (removed > 0) this.settings.logger.info('Removed leftover temp files.', { count: removed });
    for (const warning of warnings) this.settings.logger.warn(warning);
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
   * One download attempt of `record.images[index]`, into the task's folder (`record.folder`
   * when set, so a task keeps its folder even if the time zone changes; else
   * {@link folderFor}). `baseUrl` is the service's, for the URL policy. Never sends an
   * Authorization header or cookies. Never throws for network, image or disk trouble.
   */
  async downloadImage(
    record: TaskRecord,
    index: number,
    baseUrl: string,
    signal?: AbortSignal,
  ): Promise<DownloadOutcome> {
    const url = record.images[index]?.url;
    if (!url) return invalid(sentence('error.gallery.imageNoAddress'));
    let folder: string;
    try {
      folder = this.resolve(this.taskFolder(record));
    } catch {
      return invalid(sentence('error.gallery.imageFolderOutside'));
    }
    try {
      // No link on the way may take the files elsewhere (what is missing is made later).
      await checkContained(this.root, join(this.root, TEMP_DIR));
      await checkContained(this.root, join(folder, THUMBS_DIR));
    } catch (error) {
      if (error instanceof UnsafePathError)
        return error.sentence
          ? invalid(error.sentence)
          : { state: 'invalid', error: error.message };
      // Disk trouble: the attempt itself reports it in plain words.
    }
    const inline = inlineTokenHash(url);
    return downloadOnce(this.settings, {
      url,
      baseUrl,
      folder,
      index,
      owner: { service: record.endpoint, task: record.localId },
      ...(inline === null ? {} : { inline }),
      ...(signal ? { signal } : {}),
      ...(this.imageMetadata
        ? { provenance: provenanceOf(record, index, this.imageMetadata.appVersion) }
        : {}),
    });
  }

  /**
   * Keeps the images a service sent inline for `record` in its task folder until they are saved
   * (inline-spool.ts), synced before this resolves.
   * @throws GalleryPathError when the record's folder leaves the gallery; UnsafePathError;
   *   file-system errors.
   */
  async keepInline(record: TaskRecord, images: readonly InlineImage[]): Promise<void> {
    await keepInlineImages(this.root, this.resolve(this.taskFolder(record)), images);
  }

  /** Removes the spool file of an inline image of `record` (saved, or refused). Never throws. */
  async dropInline(record: TaskRecord, sha256: string): Promise<void> {
    let folder: string;
    try {
      folder = this.resolve(this.taskFolder(record));
    } catch {
      return;
    }
    await dropInlineImage(this.root, folder, sha256);
  }

  /**
   * Makes the thumbnail of a saved image whose thumbnail is pending, through the same check as a
   * download, and stores it beside the image. Never throws for image, engine or disk trouble.
   */
  makeThumbnail(image: ImageRecord): Promise<SavedThumbnail> {
    return makeSavedThumbnail(
      this.root,
      (relative) => this.resolve(relative),
      image,
      this.settings,
    );
  }

  /** The engine that decodes this gallery's images (its name is what the host is told). */
  get imageEngine(): DownloadSettings['imageEngine'] {
    return this.settings.imageEngine;
  }

  /**
   * Checks an image file Pictor wrote (a library import's copy) exactly as a download is checked:
   * header, pixel limit, full decode, with this gallery's limits and image engine.
   */
  checkImage(file: string, kind: ImageKind): Promise<ImageCheckResult> {
    const check = () => checkImage(file, kind, this.settings);
    return checkedWithCredentials(file, kind, check, this.credentialsContext());
  }

  /**
   * Writes `<folder>/pictor.json` atomically (temp + fsync + rename), creating the folder.
   * The record is written with `folder` set to the folder used.
   * @throws GalleryPathError when `record.folder` leaves the gallery; file-system errors.
   */
  async writeSidecar(record: TaskRecord): Promise<void> {
    const relative = this.taskFolder(record);
    const folder = this.resolve(relative);
    await ensureFolder(this.root, folder);
    await ensureFolder(this.root, join(this.root, TEMP_DIR));
    await writeFileAtomic(
      this.root,
      join(folder, SIDECAR_NAME),
      sidecarText({ ...record, folder: relative }),
    );
    await fsyncDir(folder);
  }

  /**
   * Scans root for sidecars and returns the valid records (or hands them to `options.onBatch`,
   * for folders of any size) plus `{ path, reason }` for each one skipped. See rebuild.ts for how
   * images are matched with the files on disk; a folder that lost its sidecar comes back from its
   * images' own metadata.
   */
  async rebuild(options: RebuildOptions = {}): Promise<RebuildResult> {
    // Verdicts written in the folder are not believed: images with a store are verified again.
    const verify = (records: TaskRecord[]) =>
      withFoundCredentialsAll(records, this.credentialsContext());
    const { onBatch } = options;
    const result = await rebuildFromFolder(this.root, {
      maxPixels: this.settings.maxPixels,
      ...options,
      ...(onBatch ? { onBatch: async (records) => onBatch(await verify(records)) } : {}),
    });
    return onBatch ? result : { ...result, records: await verify(result.records) };
  }

  private credentialsContext(): FoundCredentialsContext {
    const { root, logger, credentials } = this.settings;
    return { root, logger, ...(credentials ? { verifier: credentials } : {}) };
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

  private taskFolder(record: TaskRecord): string {
    return record.folder ?? this.folderFor(record);
  }
}

function absoluteRoot(folder: string): string {
  if (!isAbsolute(folder)) throw new GalleryPathError(sentence('error.gallery.rootNotAbsolute'));
  return resolvePath(folder);
}
