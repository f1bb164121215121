/**
 * From checked path segments to a real file inside the served folder. The segments are joined
 * inside the root; then the file's real path is judged against the root's, so a symlink (or a
 * junction, or a symlinked parent folder) that leads out of the folder, or into a part of it the
 * rules refuse, is refused. The app's bundle asks `realpath` before reading the file by its path
 * ({@link resolveServedFile}); the gallery opens the file first and judges what it opened
 * ({@link openServedFile}), one open for the check and the body.
 * `fs.promises` is looked up at call time: in the packaged app Electron patches it to read
 * inside app.asar.
 */
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { extname, isAbsolute, relative, sep } from 'node:path';
import {
  GalleryPathError,
  type OpenedRegularFile,
  openRegularFile,
  readAtMostOneMore,
  realRootOf,
  resolveInside,
  UnsafeFileError,
} from '../../core/fs';
import { refuse, type ProtocolRefusal } from './request-path';
import { systemErrorCode } from '../../core/errors';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';

/** A file the protocol may serve, its real path checked (the app's bundle). */
export interface ServedFile {
  readonly ok: true;
  /** Absolute real path (symlinks resolved), inside the real root. */
  readonly file: string;
  readonly contentType: string;
}

/**
 * A file asked for inside the served folder, checked as asked: the disk not yet looked at but
 * for the root's real path. What it really is, and where, is checked on what is opened
 * ({@link openServedFile}).
 */
export interface AskedFile {
  readonly ok: true;
  /** Absolute path inside the root as given, as the request names it (links not resolved). */
  readonly file: string;
  /** The root's real path, which what is opened is checked against. */
  readonly realRoot: Buffer;
  /** The type of the name asked for; the name reached is judged again once opened. */
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
 * The path `segments` (already checked by `parseRequestPath`) name inside `root`, before the disk
 * is asked: 403 for a path the rules refuse, a forbidden extension or a path that leaves the
 * folder, 404 for a root that is not an absolute path.
 */
function askedPath(
  root: string,
  segments: readonly string[],
  rules: ServeRules,
): { readonly file: string; readonly contentType: string } | ProtocolRefusal {
  const asked = rules.refusePath?.(segments);
  if (asked) return asked;
  const contentType = typeOf(segments[segments.length - 1] ?? '', rules);
  if (contentType === undefined) return refuse(403, 'This kind of file is not served.');
  if (root === '' || !isAbsolute(root)) return refuse(404, 'The folder is not available.');
  try {
    return { file: resolveInside(root, segments.join('/')), contentType };
  } catch (error) {
    if (error instanceof GalleryPathError) return refuse(403, 'The path leaves the folder.');
    throw error;
  }
}

/**
 * The Content-Type of the file whose real path is `realFile`, if the rules serve it there: 403
 * when it is outside the real root, in a path the rules refuse or of a forbidden kind.
 */
function realFileType(
  realRoot: string,
  realFile: string,
  rules: ServeRules,
): string | ProtocolRefusal {
  const inside = segmentsInside(realRoot, realFile);
  if (inside === null) return refuse(403, 'The file is outside the folder.');
  const reached = rules.refusePath?.(inside);
  if (reached) return reached;
  return typeOf(realFile, rules) ?? refuse(403, 'This kind of file is not served.');
}

/**
 * Resolves `segments` (already checked by `parseRequestPath`) under `root`, for a caller that
 * reads the file by its path (the app's bundle, which Electron reads inside app.asar).
 * 403 for a path the rules refuse (as asked, or as the real file lies), a forbidden extension,
 * or a real path outside the real root;
 * 404 when the root or the file does not exist or is not a regular file.
 *
 * The root's and the file's real paths are asked for at once (the file's lexical path is checked
 * against the root as given, its real path against the root's real path): one trip through
 * libuv's thread pool instead of two.
 */
export async function resolveServedFile(
  root: string,
  segments: readonly string[],
  rules: ServeRules,
): Promise<ServedFile | ProtocolRefusal> {
  const asked = askedPath(root, segments, rules);
  if ('ok' in asked) return asked;
  const [real, realFile] = await Promise.all([realRootOf(root), realFileOf(asked.file)]);
  if (real === null) return refuse(404, 'The folder is not available.');
  if (typeof realFile !== 'string') return realFile;
  const contentType = realFileType(real.toString(), realFile, rules);
  if (typeof contentType !== 'string') return contentType;
  const stats = await fs.stat(realFile).catch(() => null);
  if (!stats?.isFile()) return refuse(404, 'No such file.');
  return { ok: true, file: realFile, contentType };
}

/**
 * The file `segments` ask for under `root`, checked as asked (see {@link askedPath}), for a caller
 * that opens it with {@link openServedFile}: nothing on disk is looked at but the root's real
 * path (`realRoot`: the gallery shares one per burst of requests, real-roots.ts).
 */
export async function askServedFile(
  root: string,
  segments: readonly string[],
  rules: ServeRules,
  realRoot: (root: string) => Promise<Buffer | null>,
): Promise<AskedFile | ProtocolRefusal> {
  const asked = askedPath(root, segments, rules);
  if ('ok' in asked) return asked;
  const real = await realRoot(root);
  if (real === null) return refuse(404, 'The folder is not available.');
  return { ok: true, file: asked.file, realRoot: real, contentType: asked.contentType };
}

/** A served file open: its handle, size and time, and its Content-Type. */
export interface OpenServed {
  readonly ok: true;
  readonly opened: OpenedRegularFile;
  readonly contentType: string;
}

/**
 * `file` opened as a regular file inside the root (core/fs/open-inside.ts), never through a link
 * at its last component; 'link' when it is one, null when it cannot be opened or is not a regular
 * file of the gallery's size.
 */
async function openInRoot(
  root: string,
  file: string,
  realRoot: Buffer,
): Promise<OpenedRegularFile | 'link' | 'outside' | null> {
  try {
    // The gallery's one cap on an image file: nothing Pictor saved or serves is larger.
    return await openRegularFile(root, file, GALLERY_MAX_IMAGE_BYTES, { realRoot });
  } catch (error) {
    if (!(error instanceof UnsafeFileError)) return null;
    return error.why === 'link' || error.why === 'outside' ? error.why : null;
  }
}

/**
 * Opens the file {@link askServedFile} chose, then checks what was opened: the handle must be a
 * regular file inside the root (core/fs/open-inside.ts), so a folder swapped for a link before the
 * open or during it cannot serve a file from outside, and its real path must be one the rules
 * serve (as {@link resolveServedFile} judges it). One open serves the check and the body: on Linux
 * the real path is the descriptor's, which the containment check has already asked for; elsewhere
 * it is asked of the opened path. A link at the last component is not opened through: where it
 * leads is resolved, judged and opened as a file of its own. Serve from the returned handle only.
 * @returns the open handle and its type, or why not (nothing is left open then).
 */
export async function openServedFile(
  root: string,
  asked: AskedFile,
  rules: ServeRules,
): Promise<OpenServed | ProtocolRefusal> {
  let file = asked.file;
  let opened = await openInRoot(root, file, asked.realRoot);
  if (opened === 'link') {
    const real = await realFileOf(file);
    if (typeof real !== 'string') return real;
    file = real;
    opened = await openInRoot(root, file, asked.realRoot);
  }
  if (opened === null) return refuse(404, 'No such file.');
  if (typeof opened === 'string') return refuse(403, 'The file is outside the folder.');
  const realFile = opened.openedPath?.toString() ?? (await fs.realpath(file).catch(() => null));
  const contentType =
    realFile === null
      ? refuse(404, 'No such file.')
      : realFileType(asked.realRoot.toString(), realFile, rules);
  if (typeof contentType === 'string') return { ok: true, opened, contentType };
  await opened.handle.close().catch(() => undefined);
  return contentType;
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
