/**
 * Opening files in a folder someone else may have crafted: only regular files, never through a
 * link, never blocking. A FIFO named like an image would otherwise hang the reader forever
 * (opening one for reading waits for a writer), and a device or a huge file would be read
 * without end.
 *
 * `lstat` first refuses what is visibly not a regular file; the open then uses `O_NOFOLLOW`
 * (a link swapped in after the lstat fails to open) and `O_NONBLOCK` (a FIFO swapped in opens at
 * once instead of waiting), and `fstat` of the opened handle decides: what is read is what was
 * checked. Windows has neither flag, nor FIFOs or device files inside a folder; the lstat and
 * fstat checks still apply there.
 */
import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { systemErrorCode } from '../errors/thrown-value';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Why a file was not read, as a sentence (`reason`) for the user. Not a UserFacingError: the
 * sentence needs its caller's context (which file, read for what), as rebuild.ts gives it.
 */
export class UnsafeFileError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnsafeFileError';
  }
}

interface Kind {
  isFile(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}

const LINK = 'It is a link, which Pictor does not follow.';

/** The reason `kind` is not a regular file, or null when it is one. */
export function notRegular(kind: Kind): string | null {
  if (kind.isFile()) return null;
  if (kind.isSymbolicLink()) return LINK;
  if (kind.isDirectory()) return 'It is a folder, not a file.';
  if (kind.isFIFO() || kind.isSocket()) return 'It is a pipe or socket, not a file.';
  return 'It is not a regular file.';
}

function tooLarge(maxBytes: number): UnsafeFileError {
  return new UnsafeFileError(`It is larger than the ${maxBytes} bytes Pictor reads.`);
}

/**
 * Opens `path` if it is a regular file of at most `maxBytes`, checked on the opened handle.
 * @throws UnsafeFileError when it is not; a file system error when it cannot be opened.
 */
export async function openRegularFile(
  path: string,
  maxBytes: number,
): Promise<{ handle: FileHandle; size: number }> {
  const before = notRegular(await lstat(path));
  if (before) throw new UnsafeFileError(before);
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    // ELOOP: O_NOFOLLOW met a link that replaced the file after the lstat.
    if (systemErrorCode(error) === 'ELOOP') throw new UnsafeFileError(LINK);
    throw error;
  }
  try {
    const info = await handle.stat();
    const reason = notRegular(info);
    if (reason) throw new UnsafeFileError(reason);
    if (info.size > maxBytes) throw tooLarge(maxBytes);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The bytes of `path` if it is a regular file of at most `maxBytes` (see {@link openRegularFile}).
 * Reads at most one byte more than the checked size whatever the file does meanwhile: a file
 * that grows after the check is refused, not read to its end.
 * @throws UnsafeFileError, or a file system error.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path, maxBytes);
  try {
    const buffer = Buffer.alloc(size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > size) throw new UnsafeFileError('It changed while Pictor was reading it.');
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** The size of `path` if it is a regular file of at most `maxBytes`; nothing is read. */
export async function regularFileSize(path: string, maxBytes: number): Promise<number> {
  const { handle, size } = await openRegularFile(path, maxBytes);
  await handle.close();
  return size;
}
