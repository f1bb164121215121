/**
 * One image of a rebuilt task as its folder shows it (rebuild.ts): its file, its thumbnail and
 * its XMP sidecar found beside it, nothing believed that the folder says of who signed it.
 */
import { join } from 'node:path';
import { verdictFromDisk } from '../../../shared/domain/content-credentials';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { toGalleryPath } from '../fs';
import {
  imageNames,
  isTriagePacket,
  readSidecarIfAny,
  THUMBS_DIR,
  withoutFile,
  xmpSidecarName,
} from '../gallery';
import { IMAGE_MIME, type ImageKind } from '../images';

/** A task folder as a rebuild listed it: where it is, and its regular files by name. */
export interface RebuiltFolder {
  readonly root: string;
  readonly folder: string;
  readonly images: ReadonlySet<string>;
  readonly thumbnails: ReadonlySet<string>;
}

/**
 * The XMP sidecar beside the image `name` that the record names (`xmpFile`), if any: one there
 * that holds only the triage Pictor writes for an image without one (xmp-sidecar-sync.ts) is not
 * the image's own packet, and is left to follow the image's name.
 */
export async function ownSidecar(files: RebuiltFolder, name: string): Promise<string | null> {
  const xmp = xmpSidecarName(name);
  if (!files.images.has(xmp)) return null;
  const text = await readSidecarIfAny(files.root, join(files.folder, xmp)).catch(() => null);
  return text !== null && isTriagePacket(text) ? null : xmp;
}

/** The image saved at `name` in its folder, with the thumbnail and XMP sidecar found beside it. */
export function savedImage(
  image: ImageRecord,
  files: RebuiltFolder,
  found: {
    kind: ImageKind;
    name: string;
    width: number;
    height: number;
    bytes: number;
    sidecar: string | null;
  },
): ImageRecord {
  const { kind, name, sidecar: xmp, ...described } = found;
  const names = imageNames(image.index, kind);
  // A signer named in a folder anyone could edit is not believed (verdictFromDisk).
  const {
    error: _e,
    thumbnail: _t,
    thumbnailPending: _p,
    xmpFile: _x,
    contentCredentials: _c,
    ...rest
  } = image;
  const hasThumbnail = files.thumbnails.has(names.thumbnail.slice(THUMBS_DIR.length + 1));
  const verdict = verdictFromDisk(image.contentCredentials);
  return {
    ...rest,
    ...described,
    ...(verdict ? { contentCredentials: verdict } : {}),
    state: 'saved',
    mime: IMAGE_MIME[kind],
    file: toGalleryPath(files.root, join(files.folder, name)),
    // No thumbnail file: the app makes one the next time it shows the gallery.
    ...(hasThumbnail
      ? { thumbnail: toGalleryPath(files.root, join(files.folder, names.thumbnail)) }
      : { thumbnailPending: true as const }),
    ...(xmp === null ? {} : { xmpFile: toGalleryPath(files.root, join(files.folder, xmp)) }),
  };
}

/**
 * The image whose file the folder lacks: `pending` when it has an address (the engine downloads
 * it again), else `invalid`; one recorded `expired` or `invalid` keeps that state.
 */
export function missingImage(image: ImageRecord): ImageRecord {
  const rest = withoutFile(image);
  if (image.state === 'expired' || image.state === 'invalid') return rest;
  return image.url
    ? {
        ...rest,
        state: 'pending',
        error: 'The image file was missing from the gallery folder; Pictor will download it again.',
      }
    : {
        ...rest,
        state: 'invalid',
        error:
          'The image file is missing from the gallery folder and there is no address to download it again.',
      };
}
