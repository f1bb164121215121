/**
 * A file held in the trash placed back under a new name, never over anything and never anything
 * but the held file itself (gallery-trash.ts): the file is opened inside the gallery first and
 * checked on its descriptor (regular-file.ts), and what the new name then holds is compared with
 * it, so a trash folder swapped for a link by another local process cannot bring an outside file
 * into the gallery.
 */
import { constants, type BigIntStats } from 'node:fs';
import { link, lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { systemErrorCode } from '../errors';
import { openRegularFile, UnsafeFileError } from '../fs';

/** Copies where the file system has no hard links: a chunk at a time. */
const COPY_CHUNK = 1024 * 1024;
const NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** `handle`'s file copied to the new file `to`; false when the name is taken. */
async function copyNew(handle: FileHandle, to: string): Promise<boolean> {
  let target: FileHandle;
  try {
    target = await open(to, NEW_FILE, 0o644);
  } catch (error) {
    if (systemErrorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    const buffer = Buffer.allocUnsafe(COPY_CHUNK);
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(buffer, 0, COPY_CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let written = 0;
      while (written < bytesRead) {
        written += (await target.write(buffer, written, bytesRead - written)).bytesWritten;
      }
    }
    await target.sync();
    await target.close();
    return true;
  } catch (error) {
    await target.close().catch(() => undefined);
    await unlink(to).catch(() => undefined);
    throw error;
  }
}

/** A hard link `to` → `from`; `exists` when the name is taken; `unsupported` without hard links. */
async function linkNew(from: string, to: string): Promise<'linked' | 'exists' | 'unsupported'> {
  try {
    await link(from, to);
    return 'linked';
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'EEXIST') return 'exists';
    if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      return 'unsupported';
    }
    throw error;
  }
}

/** Whether `path` names the file `held` is (hard links share device and inode). */
async function names(path: string, held: BigIntStats): Promise<boolean> {
  const there = await lstat(path, { bigint: true }).catch(() => null);
  return there !== null && there.isFile() && there.dev === held.dev && there.ino === held.ino;
}

/**
 * Makes `to` a new name for the file held at `from`, never replacing anything at `to`: a hard link
 * (fails with EEXIST on any existing entry, a dangling link included), or where the file system
 * has none, an exclusive copy. `true` also when `to` already is that file (a link made by an
 * earlier try); `false` when the name is taken by anything else.
 *
 * The file is the one `from` names when opened inside the root, checked on its descriptor
 * (regular-file.ts): a trash folder swapped for a link to a folder outside never brings an
 * outside file into the gallery. A link that then names another file (the swap came between the
 * open and the link) is taken back and refused; a copy is made from the opened file itself.
 * @throws UnsafeFileError when the file is not (or is no longer) the one held inside the root.
 */
export async function placeNew(root: string, from: string, to: string): Promise<boolean> {
  const { handle } = await openRegularFile(root, from, Number.MAX_SAFE_INTEGER);
  try {
    const held = await handle.stat({ bigint: true });
    const linked = await linkNew(from, to);
    if (linked === 'unsupported') return await copyNew(handle, to);
    if (linked === 'exists') return await names(to, held);
    if (await names(to, held)) return true;
    await unlink(to).catch(() => undefined);
    throw new UnsafeFileError('placed');
  } finally {
    await handle.close();
  }
}
