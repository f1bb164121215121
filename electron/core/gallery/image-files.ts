/**
 * The files that make one image in the gallery, as one list: a delete moves them to the trash
 * together, a restore brings them back together, the system trash takes them together. A new
 * kind of file beside an image joins the list here (a role, and whether it is Pictor's cache),
 * and every trash step follows.
 */
import type { ImageRecord } from '../../../shared/domain/task-record';
import { xmpSidecarName } from './gallery-layout';

/**
 * What a file is to its image. `image` is the picture itself and always first. `xmp` is the
 * sidecar the record names (`xmpFile`: Pictor's packet beside a signed image); `triageXmp` the
 * sidecar of any other image's rating and tags, named after the image's file and not in the record
 * (gallery/metadata/xmp-sidecar-sync.ts): it is listed whether or not it is there at the moment.
 */
export const IMAGE_FILE_ROLES = ['image', 'thumbnail', 'xmp', 'triageXmp'] as const;
export type ImageFileRole = (typeof IMAGE_FILE_ROLES)[number];

/** One file of an image: its role and its path (root-relative, `/` separators). */
export interface ImageFile {
  readonly role: ImageFileRole;
  readonly path: string;
}

/**
 * Roles that are Pictor's own cache, made again from the image: removed rather than sent to the
 * system trash, and dropped when they cannot come back.
 */
const CACHE_ROLES: ReadonlySet<ImageFileRole> = new Set<ImageFileRole>(['thumbnail']);

export function isCache(role: ImageFileRole): boolean {
  return CACHE_ROLES.has(role);
}

/** The files of a saved image as its record names them, the image first; none when it has no file. */
export function imageFilesOf(image: ImageRecord): ImageFile[] {
  if (image.file === undefined) return [];
  const files: ImageFile[] = [{ role: 'image', path: image.file }];
  if (image.thumbnail !== undefined) files.push({ role: 'thumbnail', path: image.thumbnail });
  // The XMP sidecar of an image that carries Content Credentials: the user's file, not a cache.
  if (image.xmpFile !== undefined) files.push({ role: 'xmp', path: image.xmpFile });
  else files.push({ role: 'triageXmp', path: xmpSidecarName(image.file) });
  return files;
}

/** Whether the role is an XMP sidecar, which keeps its image's name (`image-1.xmp`). */
export function isXmpSidecar(role: ImageFileRole): boolean {
  return role === 'xmp' || role === 'triageXmp';
}

/**
 * The record of an image whose files are now at `files` (a restore may rename them). A
 * `triageXmp` sidecar is not named in the record: it follows the image's name.
 */
export function withImageFiles(image: ImageRecord, files: readonly ImageFile[]): ImageRecord {
  const { file: _file, thumbnail: _thumbnail, xmpFile: _xmpFile, ...rest } = image;
  const at = (role: ImageFileRole) => files.find((file) => file.role === role)?.path;
  const file = at('image');
  const thumbnail = at('thumbnail');
  const xmpFile = at('xmp');
  return {
    ...rest,
    ...(file === undefined ? {} : { file }),
    ...(thumbnail === undefined ? {} : { thumbnail }),
    ...(xmpFile === undefined ? {} : { xmpFile }),
  };
}

/** The record of an image whose files went to the trash: `deleted`, no file names kept. */
export function withoutImageFiles(image: ImageRecord): ImageRecord {
  const { file: _file, thumbnail: _thumbnail, xmpFile: _xmpFile, ...rest } = image;
  return { ...rest, state: 'deleted' };
}

/**
 * The image without anything that points at a file or was read from one (its file, thumbnail,
 * XMP sidecar, size, pixel size and type): what a rebuild or an import keeps of a record before
 * it looks for the file itself.
 */
export function withoutFile(image: ImageRecord): ImageRecord {
  const {
    file: _file,
    thumbnail: _thumbnail,
    width: _w,
    height: _h,
    bytes: _b,
    mime: _m,
    xmpFile: _x,
    ...rest
  } = image;
  return rest;
}
