/**
 * From checked path segments to a real file inside the served folder. The segments are joined
 * inside the root, then the root and the file are both resolved with `realpath`, so a symlink
 * (or a junction, or a symlinked parent folder) that leads out of the folder is refused.
 * `fs.promises` is looked up at call time: in the packaged app Electron patches it to read
 * inside app.asar.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { GalleryPathError, resolveInside } from '../gallery/gallery-path';
import { refuse, type ProtocolRefusal } from './request-path';
import { systemErrorCode } from '../errors/thrown-value';

/** A file the protocol may serve. */
export interface ServedFile {
  readonly ok: true;
  /** Absolute real path (symlinks resolved), inside the real root. */
  readonly file: string;
  readonly contentType: string;
}

export interface ServeRules {
  /** Lower-case extension with its dot → Content-Type. Anything else is refused. */
  readonly contentTypes: ReadonlyMap<string, string>;
  /** Segment names that may never appear (e.g. the gallery's temp folder). */
  readonly forbiddenSegments?: readonly string[];
}

function isInside(root: string, file: string): boolean {
  const inside = relative(root, file);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

function typeOf(path: string, rules: ServeRules): string | undefined {
  return rules.contentTypes.get(extname(path).toLowerCase());
}

async function realRootOf(root: string): Promise<string | null> {
  if (root === '' || !isAbsolute(root)) return null;
  try {
    return await fs.realpath(root);
  } catch {
    return null;
  }
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
 * 403 for a forbidden segment or extension, or a real path outside the real root;
 * 404 when the root or the file does not exist or is not a regular file.
 */
export async function resolveServedFile(
  root: string,
  segments: readonly string[],
  rules: ServeRules,
): Promise<ServedFile | ProtocolRefusal> {
  if (segments.some((segment) => rules.forbiddenSegments?.includes(segment))) {
    return refuse(403, 'The path names a folder that is not served.');
  }
  const name = segments[segments.length - 1] ?? '';
  if (typeOf(name, rules) === undefined) return refuse(403, 'This kind of file is not served.');
  const realRoot = await realRootOf(root);
  if (realRoot === null) return refuse(404, 'The folder is not available.');
  let candidate: string;
  try {
    candidate = resolveInside(realRoot, segments.join('/'));
  } catch (error) {
    if (error instanceof GalleryPathError) return refuse(403, 'The path leaves the folder.');
    throw error;
  }
  const realFile = await realFileOf(candidate);
  if (typeof realFile !== 'string') return realFile;
  if (!isInside(realRoot, realFile)) return refuse(403, 'The file is outside the folder.');
  const contentType = typeOf(realFile, rules);
  if (contentType === undefined) return refuse(403, 'This kind of file is not served.');
  const stats = await fs.stat(realFile).catch(() => null);
  if (!stats?.isFile()) return refuse(404, 'No such file.');
  return { ok: true, file: realFile, contentType };
}

/** Never follows a link at the last component (where the OS can; Windows has no O_NOFOLLOW). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** Whether `file` is, right now, reached from `realRoot` through real folders only, and its identity. */
async function walkInside(realRoot: string, file: string) {
  if (!isInside(realRoot, file)) return null;
  let at = realRoot;
  let info = null;
  for (const name of relative(realRoot, file).split(sep)) {
    at = join(at, name);
    info = await fs.lstat(at, { bigint: true }).catch(() => null);
    if (info === null || info.isSymbolicLink()) return null;
  }
  return info;
}

/**
 * Opens a file {@link resolveServedFile} chose, then checks what was opened, so a folder swapped
 * for a link between that check and the open cannot serve a file from outside: the handle must
 * be a regular file, and a fresh `lstat` walk from the real root down to `file` (no link on the
 * way) must end at the same device and inode. Serve from the returned handle only.
 * @returns the open handle, or `null` (nothing opened, or it was not the file inside the root).
 */
export async function openServedFile(root: string, file: string): Promise<FileHandle | null> {
  const realRoot = await realRootOf(root);
  if (realRoot === null) return null;
  const handle = await fs.open(file, OPEN_FLAGS).catch(() => null);
  if (!handle) return null;
  try {
    const [opened, walked] = await Promise.all([
      handle.stat({ bigint: true }),
      walkInside(realRoot, file),
    ]);
    if (
      opened.isFile() &&
      walked?.isFile() &&
      opened.dev === walked.dev &&
      opened.ino === walked.ino
    )
      return handle;
  } catch {
    // Treated as not found below.
  }
  await handle.close().catch(() => undefined);
  return null;
}
