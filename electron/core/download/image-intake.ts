/**
 * What comes into the gallery: an image downloaded from a service's link or sent inline, checked
 * (header, pixel limit, full decode by the host's image engine, Content Credentials), stamped with
 * its provenance and placed in its task's folder with a thumbnail; and the same check for a file
 * Pictor copies in (a library import) or finds (a rebuild). The folder itself is the gallery's
 * (gallery/gallery.ts): the intake takes every path inside it as it is at each call, so it
 * follows the gallery when the library changes folder.
 */
import { join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { DOWNLOAD_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { sentence } from '../../../shared/i18n/sentence';
import { inlineTokenHash, type InlineImage } from '../../../shared/service/inline-token';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import type { FetchLike, PinnedFetch } from '../../ports/http';
import type { ImageEngine } from '../../ports/image-engine';
import { silentLogger, type Logger } from '../../ports/logger';
import { checkContained, TEMP_DIR, UnsafePathError } from '../fs';
import { type Gallery, provenanceOf, THUMBS_DIR } from '../gallery';
import type { ImageKind } from '../images';
import { downloadOnce, type DownloadOptions } from './download-image';
import { invalid, type DownloadOutcome } from './download-outcome';
import { checkedWithCredentials, type FoundCredentialsContext } from './found-credentials';
import { checkImage, type ImageCheckResult } from './image-finish';
import type { KeyedImages } from './image-request';
import type { IdleRelease } from './idle-release';
import { dropInlineImage, keepInlineImages } from './inline-spool';
import type { IntakeKeyScrubber } from './key-intake';
import { makeSavedThumbnail, type SavedThumbnail } from './saved-thumbnail';

/** What an {@link ImageIntake} needs besides its gallery. Only `fetch` and `imageEngine` are required. */
/** One download attempt's stop signal, and the key the image's link takes (where it takes one). */
export interface ImageAttempt {
  readonly signal?: AbortSignal;
  readonly keyed?: KeyedImages;
}

export interface ImageIntakeOptions {
  /** The network port; see electron/ports/http.ts. */
  fetch: FetchLike;
  /** The images' transport; default direct connections pinned to the checked address. */
  imageFetch?: PinnedFetch;
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
   * gallery/metadata/): the prompt, settings, task id, service origin, date and this Pictor
   * version. The core (pictor-core.ts) always sets it; without it images are saved as they came.
   */
  imageMetadata?: { readonly appVersion: string };
  /** The time (ms since the epoch): what a Retry-After date is a wait from; default `Date.now`. */
  now?: () => number;
  /** Gives memory back once downloads have been idle a while (idle-release.ts); absent: never. */
  idleRelease?: IdleRelease;
  /**
   * Every key the process holds: none stays in a downloaded image's own metadata (key-intake.ts).
   * The core (pictor-core.ts) always sets it.
   */
  keyScrubber?: IntakeKeyScrubber;
}

/** The gallery as the intake uses it: its folder now, paths inside it, a task's folder. */
export type IntakeGallery = Pick<Gallery, 'root' | 'resolve' | 'taskFolder'>;

export class ImageIntake {
  private readonly base: Omit<DownloadOptions, 'root'>;
  private readonly imageMetadata: { readonly appVersion: string } | undefined;
  private readonly idleRelease: IdleRelease | undefined;

  constructor(
    private readonly gallery: IntakeGallery,
    options: ImageIntakeOptions,
  ) {
    this.base = {
      fetch: options.fetch,
      ...(options.imageFetch ? { imageFetch: options.imageFetch } : {}),
      maxImageBytes: options.maxImageBytes ?? DOWNLOAD_MAX_IMAGE_BYTES,
      maxPixels: options.maxPixels ?? 100_000_000,
      thumbnailSize: options.thumbnailSize ?? 384,
      downloadTimeoutMs: options.downloadTimeoutMs ?? 120_000,
      maxRedirects: options.maxRedirects ?? 5,
      logger: options.logger ?? silentLogger,
      imageEngine: options.imageEngine,
      now: options.now ?? Date.now,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.keyScrubber ? { keyScrubber: options.keyScrubber } : {}),
    };
    this.imageMetadata = options.imageMetadata;
    this.idleRelease = options.idleRelease;
  }

  /** No memory release after downloads from now on (the core closes). */
  dispose(): void {
    this.idleRelease?.stop();
  }

  /** The gallery folder the intake places images in, as it is now. */
  get root(): string {
    return this.gallery.root;
  }

  /** The most one image may weigh: a download's body, or an image a service sent inline. */
  get maxImageBytes(): number {
    return this.base.maxImageBytes;
  }

  /** Images claiming more pixels than this are refused (decompression bombs). */
  get maxPixels(): number {
    return this.base.maxPixels;
  }

  /** The engine that decodes the images (its name is what the host is told). */
  get imageEngine(): ImageEngine {
    return this.base.imageEngine;
  }

  /**
   * One download attempt of `record.images[index]`, into the task's folder (`record.folder`
   * when set, so a task keeps its folder even if the time zone changes; else the gallery's
   * `folderFor`). `baseUrl` is the service's, for the URL policy. Never sends cookies, nor an
   * Authorization header except `keyed`'s under its own base URL. Never throws for network, image or
   * disk trouble.
   */
  downloadImage(
    record: TaskRecord,
    index: number,
    baseUrl: string,
    attempt: ImageAttempt = {},
  ): Promise<DownloadOutcome> {
    const download = () => this.downloadNow(record, index, baseUrl, attempt);
    return this.idleRelease ? this.idleRelease.around(download) : download();
  }

  private async downloadNow(
    record: TaskRecord,
    index: number,
    baseUrl: string,
    { signal, keyed }: ImageAttempt,
  ): Promise<DownloadOutcome> {
    const url = record.images[index]?.url;
    if (!url) return invalid(sentence('error.gallery.imageNoAddress'));
    const root = this.gallery.root;
    let folder: string;
    try {
      folder = this.gallery.resolve(this.gallery.taskFolder(record));
    } catch {
      return invalid(sentence('error.gallery.imageFolderOutside'));
    }
    try {
      // No link on the way may take the files elsewhere (what is missing is made later).
      await checkContained(root, join(root, TEMP_DIR));
      await checkContained(root, join(folder, THUMBS_DIR));
    } catch (error) {
      if (error instanceof UnsafePathError)
        return error.sentence
          ? invalid(error.sentence)
          : { state: 'invalid', error: error.message };
      // Disk trouble: the attempt itself reports it in plain words.
    }
    const inline = inlineTokenHash(url);
    return downloadOnce(this.downloadOptions(), {
      url,
      baseUrl,
      folder,
      index,
      owner: { service: record.endpoint, task: record.localId },
      ...(inline === null ? {} : { inline }),
      ...(signal ? { signal } : {}),
      ...(keyed ? { keyed } : {}),
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
    const folder = this.gallery.resolve(this.gallery.taskFolder(record));
    await keepInlineImages(this.gallery.root, folder, images);
  }

  /** Removes the spool file of an inline image of `record` (saved, or refused). Never throws. */
  async dropInline(record: TaskRecord, sha256: string): Promise<void> {
    let folder: string;
    try {
      folder = this.gallery.resolve(this.gallery.taskFolder(record));
    } catch {
      return;
    }
    await dropInlineImage(this.gallery.root, folder, sha256);
  }

  /**
   * Makes the thumbnail of a saved image whose thumbnail is pending, through the same check as a
   * download, and stores it beside the image. Never throws for image, engine or disk trouble.
   */
  makeThumbnail(image: ImageRecord): Promise<SavedThumbnail> {
    const options = this.downloadOptions();
    return makeSavedThumbnail(
      options.root,
      (relative) => this.gallery.resolve(relative),
      image,
      options,
    );
  }

  /**
   * Checks an image file Pictor wrote (a library import's copy) exactly as a download is checked:
   * header, pixel limit, full decode, with this intake's limits and image engine.
   */
  checkImage(file: string, kind: ImageKind): Promise<ImageCheckResult> {
    const check = () => checkImage(file, kind, this.downloadOptions());
    return checkedWithCredentials(file, kind, check, this.credentialsContext());
  }

  /** Where found images' Content Credentials are verified (a rebuild's, an import's). */
  credentialsContext(): FoundCredentialsContext {
    const { logger, credentials } = this.base;
    return { root: this.gallery.root, logger, ...(credentials ? { verifier: credentials } : {}) };
  }

  private downloadOptions(): DownloadOptions {
    return { ...this.base, root: this.gallery.root };
  }
}
