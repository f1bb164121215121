/**
 * A file the user chose in main's own save dialog (an image's "Save as…", the cost ledger's CSV,
 * a templates export), replaced whole or not at all: written to a new `.part` file beside it under
 * a short name of its own (so a target whose name is as long as the folder allows still gets
 * one), synced, then renamed over it, as the library archive's export does
 * (core/library/archive/export-target.ts). A crash, a full disk or a refused rename leaves the
 * file the user had byte for byte, and no `.part` file.
 *
 * Every step on that file (created, written, synced, put in place) that fails is said as
 * {@link ChosenFileNotSavedError}: which file, why (its folder is gone, a file is where a folder
 * should be, the name is too long, the disk is full or read-only…) and what to do. What the data
 * itself throws while it is made (a history that closed, an image that cannot be read) is passed
 * on as it is: the chosen place is not its cause.
 */
import { open, rename, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence } from '../../../shared/i18n/sentence';
import { describeThrown, UserFacingError } from '../errors';
import { removeQuietly } from './atomic-file';
import { chosenPlaceParams } from './error-codes';

/**
 * The file the user chose could not be created, written, synced or put in place: nothing was
 * changed there (a file already there is as it was). Its sentence names the file, says why and
 * what to do (`key`: a kind of file may say it its own way); `cause` is the file system's error.
 * The CLI's exit 5.
 */
export class ChosenFileNotSavedError extends UserFacingError {
  override readonly name: string = 'ChosenFileNotSavedError';

  constructor(file: string, cause: unknown, key: MainMessageKey = 'error.library.fileNotSaved') {
    super(sentence(key, { file, ...chosenPlaceParams(cause) }), {
      code: 'failed',
      detail: describeThrown(cause),
      cause,
    });
  }
}

/**
 * What a chosen file is written from: text, bytes, text chunks made one at a time (the ledger's
 * CSV, a page of tasks at a time), or byte chunks read one at a time (an image being copied).
 * Each chunk is asked for once the one before is written.
 */
export type ChosenFileData = string | Uint8Array | Iterable<string> | AsyncIterable<Uint8Array>;

/** A part file's random tag (node:crypto loaded when a file is saved, not when this is). */
const saveTag = (): string =>
  process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');

/** A step on the chosen file's `.part` that failed, as the chosen file's failure. */
function notSaved(target: string): (error: unknown) => never {
  return (error) => {
    throw new ChosenFileNotSavedError(target, error);
  };
}

/** Writes `data` at the handle's position, chunk by chunk; only the writes are the file's failures. */
async function writeChunks(handle: FileHandle, data: ChosenFileData, target: string) {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    await handle.writeFile(data).catch(notSaved(target));
    return;
  }
  for await (const chunk of data) await handle.writeFile(chunk).catch(notSaved(target));
}

/**
 * The permissions of the file `target` replaces (null: there is none, or it cannot be read). The
 * new file takes them, so a file the user kept to themselves (0600) is not replaced by one every
 * local user can read; a new file gets 0644 less the umask, as any file the user saves.
 */
export async function modeToKeep(target: string): Promise<number | null> {
  try {
    const existing = await stat(target);
    return existing.isFile() ? existing.mode & 0o7777 : null;
  } catch {
    return null;
  }
}

/**
 * Replaces `target` (a file the user chose in main's own save dialog) with `data`, whole or not
 * at all (see the file's comment), with the permissions of the file it replaces.
 * @throws ChosenFileNotSavedError when the file could not be written; what `data` throws.
 */
export async function replaceFileBeside(target: string, data: ChosenFileData): Promise<void> {
  const part = join(dirname(target), `pictor-save-${saveTag()}.part`);
  const kept = await modeToKeep(target);
  // Private from the start: the bytes are never readable by others, even for a moment.
  const handle = await open(part, 'wx', kept === null ? 0o644 : 0o600).catch(notSaved(target));
  try {
    try {
      if (kept !== null) await handle.chmod(kept).catch(notSaved(target));
      await writeChunks(handle, data, target);
      await handle.sync().catch(notSaved(target));
    } finally {
      await handle.close().catch(notSaved(target));
    }
    await rename(part, target).catch(notSaved(target));
  } catch (error) {
    await removeQuietly(part);
    throw error;
  }
}
