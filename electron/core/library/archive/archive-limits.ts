/**
 * Bounds on what an import reads, declared once. An archive or folder is hostile input: every
 * entry is checked against these before anything is inflated, and every byte inflated is counted
 * against them again (declared sizes are never trusted). Tests pass smaller ones.
 */
import { GALLERY_MAX_IMAGE_BYTES } from '../../../../shared/domain/limits';
import { MAX_SIDECAR_BYTES } from '../../gallery';

export interface ArchiveLimits {
  /** Entries in one archive (files and folders), or listed in one folder (refused ones too). */
  readonly maxEntries: number;
  /** One image file: the download's own cap, so nothing bigger than Pictor saves comes in. */
  readonly maxImageBytes: number;
  /** One sidecar (`pictor.json`). */
  readonly maxSidecarBytes: number;
  /** The manifest (`pictor-export.json`). */
  readonly maxManifestBytes: number;
  /** Every entry of an archive together, uncompressed. */
  readonly maxTotalBytes: number;
  /** Uncompressed over compressed size, for entries above {@link ratioFloorBytes}. */
  readonly maxRatio: number;
  readonly ratioFloorBytes: number;
  /**
   * Every entry together, uncompressed, over the archive file's size (when that total is above
   * {@link ratioFloorBytes}): many entries each under the entry ratio still add up.
   */
  readonly maxArchiveRatio: number;
  /** Room left free on the library's disk after what the source declares is written. */
  readonly freeSpaceMarginBytes: number;
  /** An entry's path, in UTF-8 bytes, and one of its segments. */
  readonly maxPathBytes: number;
  readonly maxSegmentBytes: number;
  /** Folders deep (the gallery's own layout is three). */
  readonly maxDepth: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 250_000,
  maxImageBytes: GALLERY_MAX_IMAGE_BYTES,
  maxSidecarBytes: MAX_SIDECAR_BYTES,
  // ~250 bytes an entry: room for every entry the count allows.
  maxManifestBytes: 64 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 ** 3,
  // PNG, JPEG and WebP hardly compress; a bomb inflates a thousand times. The floor is below the
  // smallest real image; under it an entry's own headers keep the ratio of the archive low.
  maxRatio: 100,
  ratioFloorBytes: 4 * 1024,
  // Pictor's exports store images and deflate only JSON (sidecars and manifest: 3–5 times).
  maxArchiveRatio: 20,
  // The history's database grows with the import, and a disk filled to its last byte fails
  // everything else on it.
  freeSpaceMarginBytes: 64 * 1024 * 1024,
  maxPathBytes: 1024,
  maxSegmentBytes: 255,
  maxDepth: 8,
};
