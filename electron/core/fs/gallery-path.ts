/**
 * Paths inside the gallery. Relative paths come from sidecars, the history database and the
 * renderer's gallery protocol, so they are checked before they touch the disk.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';

/** A path refused, or a gallery folder Pictor cannot use, in a sentence for the user. */
export class GalleryPathError extends UserFacingError {
  override readonly name: string = 'GalleryPathError';
}

/**
 * Turns a root-relative path with `/` separators into an absolute path inside `root`.
 * Refuses empty paths, NUL, backslashes, absolute paths, drive letters and any `..` segment,
 * so nothing can name a file outside the gallery on any platform.
 * @throws GalleryPathError
 */
export function resolveInside(root: string, path: string): string {
  if (path === '' || path.includes('\0'))
    throw new GalleryPathError(sentence('error.gallery.pathNotText'));
  if (path.includes('\\')) throw new GalleryPathError(sentence('error.gallery.pathBackslash'));
  if (path.startsWith('/') || isAbsolute(path) || /^[a-zA-Z]:/.test(path)) {
    throw new GalleryPathError(sentence('error.gallery.pathNotRelative'));
  }
  const segments = path.split('/');
  if (segments.includes('..')) throw new GalleryPathError(sentence('error.gallery.pathLeaves'));
  const absolute = resolve(root, ...segments);
  // A second check on the result, in case a platform rule above was missed.
  const inside = relative(root, absolute);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new GalleryPathError(sentence('error.gallery.pathLeaves'));
  }
  return absolute;
}

/** The root-relative form of an absolute path inside `root`, always with `/` separators. */
export function toGalleryPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}
