/**
 * Owner-only modes for what Pictor keeps about the user: the data folder 0700;
 * the key vault, settings, log and lock files 0600; every folder Pictor makes in a gallery 0700. Other local users may exist; the umask
 * (usually 022) would otherwise leave these readable by all. Windows has no such bits: there
 * the folder's inherited ACL (the user's profile) already keeps others out, so nothing is done.
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdir, stat, type FileHandle } from 'node:fs/promises';
import { systemErrorCode } from '../errors';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/**
 * A gallery file's mode (an image, its thumbnail and sidecars): its 0700 folders keep it from
 * others, and the file itself is writable by its user alone whatever the umask (000 would
 * otherwise leave 0666). Readable by others, as any picture is, once the user opens a folder.
 */
export const GALLERY_FILE_MODE = 0o644;

/** Bits that would let the group or others in. */
const SHARED_BITS = 0o077;

function posix(platform: NodeJS.Platform): boolean {
  return platform !== 'win32';
}

/**
 * Creates `path` (and missing parents) as 0700, and takes group and other bits away from an
 * existing folder that has them.
 */
export async function ensurePrivateFolder(
  path: string,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (!posix(platform)) return;
  const tightened = privateModeOf((await stat(path)).mode);
  if (tightened !== null) await chmod(path, tightened);
}

/** `mode` without group and other bits, or null when it has none (nothing to change). */
function privateModeOf(mode: number): number | null {
  return (mode & SHARED_BITS) === 0 ? null : mode & ~SHARED_BITS & 0o7777;
}

/**
 * Takes group and other bits away from the open `handle`, whose `fstat` mode is `mode`: the
 * folder or file opened, whatever its path leads to by now (POSIX; nothing on Windows).
 */
export async function tightenOpened(
  handle: FileHandle,
  mode: number,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const tightened = posix(platform) ? privateModeOf(mode) : null;
  if (tightened !== null) await handle.chmod(tightened);
}

/** How a kept file is opened to be tightened or read: read only, never through a link, never waiting (a FIFO planted there opens at once). */
const KEPT_FILE_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Takes group and other bits away from an existing file; a missing file is not an error. A link
 * is left as it is, never followed: one left where a kept file is (settings.json, a key vault)
 * while the data folder was open to others had its target, a file of the user's, made 0600. The
 * file is opened (never through a link) and its descriptor changed: a chmod by path after a look
 * followed a link another local user swapped in between the two. Nor is such a link read
 * ({@link readKeptFileSync}).
 */
export function tightenFileSync(path: string, platform: NodeJS.Platform = process.platform): void {
  if (!posix(platform)) return;
  let fd: number;
  try {
    fd = openSync(path, KEPT_FILE_FLAGS);
  } catch (error) {
    const code = systemErrorCode(error);
    // ELOOP: O_NOFOLLOW met a link, left as it is.
    if (code === 'ENOENT' || code === 'ELOOP') return;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (info.isFile() && privateModeOf(info.mode) !== null) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/**
 * The text of a kept file (settings.json, a key vault), or `null` when there is none. Only a
 * regular file at `path` itself is one, as the opened descriptor says:
 * - a link is not followed (the system's ELOOP), as {@link tightenFileSync} does not follow it,
 *   and as no write goes through it (the stores read before they write). One left while the data
 *   folder was open to others would have another user's file decide where the key goes (the
 *   settings' local servers), and electron-store's write, which goes through a link, replaced
 *   its target, any file of the user's, with the settings. A link the user made (a dotfiles
 *   manager's) is refused as well: writing the vault through it put the encrypted key wherever
 *   it pointed (a dotfiles repository is often published), and the commands' writes replaced the
 *   link anyway. The stores' readers take it as no settings file at all, set aside (the link
 *   itself, renamed) and the user told (core/settings/settings-problems.ts `unreadable`).
 *   Windows has no O_NOFOLLOW; a link there needs an administrator or developer mode to make;
 * - a FIFO, a socket, a device or a folder is not one: a FIFO held the read, and the app's
 *   start, until something wrote into it;
 * - nor is a file another user owns, readable or not: one left while the data folder was open
 *   to others chose the local servers a command sends keys to (the app refused it only because
 *   tightening it failed). It is refused as the system refuses one it may not read (EACCES):
 *   left as it is, the user told that another user owns it.
 * @throws the system's error (ELOOP: a link; EACCES: another user's file, as said), or one
 * without a code for what is not a regular file.
 */
export function readKeptFileSync(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, KEPT_FILE_FLAGS);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error(`${path} is not a regular file.`);
    if (process.getuid !== undefined && info.uid !== process.getuid()) {
      throw Object.assign(new Error(`${path} belongs to another user.`), { code: 'EACCES' });
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
