/**
 * From checked path segments to a real file inside the served folder. The segments are joined
 * inside the root, then the root and the file are both resolved with `realpath`, so a symlink
 * (or a junction, or a symlinked parent folder) that leads out of the folder is refused.
 * `fs.promises` is looked up at call time: in the packaged app Electron patches it to read
 * inside app.asar.
 */
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { extname, isAbsolute, relative, sep } from 'node:path';
import { realRootOf } from './real-roots';
import {
  GalleryPathError,
  type OpenedRegularFile,
  openRegularFile,
  readAtMostOneMore,
  resolveInside,
} from '../../core/fs';
import { refuse, type ProtocolRefusal } from './request-path';
import { systemErrorCode } from '../../core/errors';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';

/** A file the protocol may serve. */
export interface ServedFile {
  readonly ok: true;
  /** Absolute real path (symlinks resolved), inside the real root. */
  readonly file: string;
  /** The root's real path, as it was checked against. */
  readonly realRoot: Buffer;
  readonly contentType: string;
}

export interface ServeRules {
  /** Lower-case extension with its dot → Content-Type. Anything else is refused. */
  readonly contentTypes: ReadonlyMap<string, string>;
  /**
   * Which paths inside the folder are not served (the gallery's temp folder…): a refusal, or
   * null. Judged twice: on the request's segments, before the disk is asked, and on the real
   * file's path inside the real root, so a link, another case on a case-insensitive disk or a
   * Windows 8.3 short name that reaches the same folder is refused too.
   */
  readonly refusePath?: (segments: readonly string[]) => ProtocolRefusal | null;
  /**
   * The caller opens the file with {@link openServedFile}, which checks that what it opened is a
   * regular file: {@link resolveServedFile} skips its own `stat`.
   */
  readonly opensAfter?: boolean;
}

/** `file`'s segments inside `root`, or null when it is not inside. */
function segmentsInside(root: string, file: string): string[] | null {
  const inside = relative(root, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return null;
  }
  return inside.split(sep);
}

function typeOf(path: string, rules: ServeRules): string | undefined {
  return rules.contentTypes.get(extname(path).toLowerCase());
}

async function realFileOf(candidate: string): Promise<string | ProtocolRefusal> {
  try {
    return await fs.realpath(candidate);
  } catch (error) {
    if (systemErrorCode(error) === 'ELOOP') return refuse(403, 'The file is a symlink loop.');
    return refuse(404, 'No such file.');
  }
}

/**
 * Resolves `segments` (already checked by `parseRequestPath`) under `root`.
 * 403 for a path the rules refuse (as asked, or as the real file lies), a forbidden extension,
 * or a real path outside the real root;
 * 404 when the root or the file does not exist or is not a regular file.
 *
 * The root's and the file's real paths are asked for at once (the file's lexical path is checked
 * against the root as given, its real path against the root's real path): one trip through
 * libuv's thread pool instead of two. With `rules.opensAfter` the file's type is not checked here:
 * the caller opens it with {@link openServedFile}, which checks what it opened. `realRoot` asks
 * for the root's real path (default: `realpath` each time; the gallery shares one per burst of
 * requests, real-roots.ts).
 */
export async function resolveServedFile(
  root: string,
  segments: readonly string[],
  rules: ServeRules,
  realRoot: (root: string) => Promise<Buffer | null> = realRootOf,
): Promise<ServedFile | ProtocolRefusal> {
  const asked = rules.refusePath?.(segments);
  if (asked) return asked;
  const name = segments[segments.length - 1] ?? '';
  if (typeOf(name, rules) === undefined) return refuse(403, 'This kind of file is not served.');
  if (root === '' || !isAbsolute(root)) return refuse(404, 'The folder is not available.');
  let candidate: string;
  try {
    candidate = resolveInside(root, segments.join('/'));
  } catch (error) {
    if (error instanceof GalleryPathError) return refuse(403, 'The path leaves the folder.');
    throw error;
  }
  const [real, realFile] = await Promise.all([realRoot(root), realFileOf(candidate)]);
  if (real === null) return refuse(404, 'The folder is not available.');
  if (typeof realFile !== 'string') return realFile;
  const inside = segmentsInside(real.toString(), realFile);
  if (inside === null) return refuse(403, 'The file is outside the folder.');
  const reached = rules.refusePath?.(inside);
  if (reached) return reached;
  const contentType = typeOf(realFile, rules);
  if (contentType === undefined) return refuse(403, 'This kind of file is not served.');
  if (!rules.opensAfter) {
    const stats = await fs.stat(realFile).catch(() => null);
    if (!stats?.isFile()) return refuse(404, 'No such file.');
  }
  return { ok: true, file: realFile, realRoot: real, contentType };
}

/**
 * Opens a file {@link resolveServedFile} chose, then checks what was opened (core/fs/open-inside.ts),
 * so a folder swapped for a link between that decision and the open, or during it, cannot serve
 * a file from outside: the handle must be a regular file inside the root. Serve from the returned
 * handle only. The root's real path is the one the decision checked against (not asked again).
 * @returns the open handle and its size and time, or `null` (nothing opened, or it was not a
 *   regular file inside the root).
 */
export async function openServedFile(
  root: string,
  served: ServedFile,
): Promise<OpenedRegularFile | null> {
  // The gallery's one cap on an image file: nothing Pictor saved or serves is larger.
  return openRegularFile(root, served.file, GALLERY_MAX_IMAGE_BYTES, {
    realRoot: served.realRoot,
  }).catch(() => null);
}

/**
 * Exactly `size` bytes of an opened file (its size as `fstat` saw it), or null when the file is
 * now shorter or longer. Reads at most `size + 1` bytes whatever the file does meanwhile: a file
 * another process keeps appending to costs no more memory than the size it was opened at.
 */
export async function readExactly(handle: FileHandle, size: number): Promise<Buffer | null> {
  const bytes = await readAtMostOneMore(handle, size);
  return bytes.length === size ? bytes : null;
}
