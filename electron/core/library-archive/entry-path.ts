/**
 * The rules for a path named inside an archive or found in a folder to import, the same as for a
 * gallery path (gallery-path.ts: no `..`, nothing absolute, no drive letter, no backslash, no
 * NUL) and stricter: no control or invisible characters, no look-alikes of `/`, `\` or `.`, no
 * name Windows would read differently (`CON`, `a:b`, a trailing dot), only NFC text, bounded
 * lengths. Names from an archive never become file names in the gallery (those are Pictor's
 * own, gallery-layout.ts); a name that breaks a rule means the archive was crafted.
 */
import { GalleryPathError, resolveInside } from '../gallery/gallery-path';
import type { ArchiveLimits } from './archive-limits';

/** Characters that hide, reorder or imitate: controls, bidi marks, zero-width, slash and dot look-alikes. */
/* eslint-disable no-control-regex -- control characters are exactly what is refused */
const TRICKY =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u2024\u2025\u2026\u2044\u2215\u2216\u29f8\u29f9\ufe52\ufe68\uff0e\uff0f\uff3c\u3002]/u;
/* eslint-enable no-control-regex */
/** Characters Windows refuses in a name, or reads as a drive or stream (`a:b`). */
const WINDOWS_RESERVED = /[<>:"|?*]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const NOWHERE = '/pictor-archive-root';

/** Why `path` (a file's, `/`-separated, no trailing `/`) may not be used, or null. */
export function pathRefusal(path: string, limits: ArchiveLimits): string | null {
  try {
    resolveInside(NOWHERE, path);
  } catch (error) {
    if (error instanceof GalleryPathError) return error.message.replace('gallery path', 'path');
    throw error;
  }
  if (Buffer.byteLength(path) > limits.maxPathBytes) return 'The path is too long.';
  if (TRICKY.test(path)) return 'The path holds invisible, control or look-alike characters.';
  if (path.normalize('NFC') !== path) return 'The path is not in normalised (NFC) Unicode.';
  const segments = path.split('/');
  if (segments.length > limits.maxDepth + 1) return 'The path is nested too deep.';
  for (const segment of segments) {
    if (segment === '' || segment === '.') return 'The path has an empty or "." part.';
    if (Buffer.byteLength(segment) > limits.maxSegmentBytes)
      return 'A name in the path is too long.';
    if (WINDOWS_RESERVED.test(segment) || WINDOWS_DEVICE.test(segment) || /[. ]$/.test(segment)) {
      return 'A name in the path is not allowed on every system (reserved name or character).';
    }
  }
  return null;
}

/**
 * The key two names collide under: case and Unicode form folded, as on macOS and Windows file
 * systems, where `A.png` and `a.png` are one file.
 */
export function collisionKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}
