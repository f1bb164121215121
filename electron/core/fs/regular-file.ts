/**
 * Opening files in a folder someone else may have crafted: only regular files, only inside the
 * folder Pictor reads from, never through a link, never blocking. A FIFO named like an image
 * would otherwise hang the reader forever (opening one for reading waits for a writer), a device
 * or a huge file would be read without end, and a folder swapped for a link would lead outside.
 *
 * The file is opened first (core/fs/open-inside.ts: no link at the last component, non-blocking,
 * and what was opened compared with the root), then `fstat` of the opened handle decides: what is
 * read is what was checked, and it is inside.
 */
import type { FileHandle } from 'node:fs/promises';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { openInside, type OpenInsideOptions } from './open-inside';

/**
 * Why a file was not read: a reason of the catalogue's `error.library.unsafeFile` (one sentence
 * in every language, shared/i18n/errors/library.ts). Not a UserFacingError: the sentence needs
 * its caller's context (which file, read for what), as rebuild.ts gives it ({@link sentenceFor}).
 */
type UnsafeWhy =
  | 'link'
  | 'outside'
  | 'folder'
  | 'pipe'
  | 'irregular'
  | 'tooLarge'
  | 'grew'
  | 'inlineName'
  | 'placed';

export class UnsafeFileError extends Error {
  /** The reason in English (the CLI, the log). */
  readonly reason: string;

  constructor(
    readonly why: UnsafeWhy,
    /** The size read at most, for `tooLarge`. */
    readonly maxBytes = 0,
  ) {
    const reason = englishText(unsafeSentence(why, maxBytes, 'file'));
    super(reason);
    this.reason = reason;
    this.name = 'UnsafeFileError';
  }

  /** The reason as a catalogue sentence, after "The sidecar / folder was not read." for `what`. */
  sentenceFor(what: 'sidecar' | 'folder' | 'file'): Sentence {
    return unsafeSentence(this.why, this.maxBytes, what);
  }
}

function unsafeSentence(why: UnsafeWhy, max: number, what: string): Sentence {
  return sentence('error.library.unsafeFile', { what, why, max: String(max) });
}

interface Kind {
  isFile(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}

/** The reason `kind` is not a regular file, or null when it is one. */
function notRegular(kind: Kind): UnsafeWhy | null {
  if (kind.isFile()) return null;
  if (kind.isSymbolicLink()) return 'link';
  if (kind.isDirectory()) return 'folder';
  if (kind.isFIFO() || kind.isSocket()) return 'pipe';
  return 'irregular';
}

/** A regular file opened inside its root: the handle, and its size and time as `fstat` saw them. */
export interface OpenedRegularFile {
  readonly handle: FileHandle;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * The kernel's path of what was opened, where the check that it is inside asked for it (Linux:
   * the real path, no link in it; open-inside.ts), else null.
   */
  readonly openedPath: Buffer | null;
}

/**
 * Opens `path` (absolute, below `root`) if, once opened, it is a regular file of at most
 * `maxBytes` inside `root`, checked on the opened handle.
 * @throws UnsafeFileError when it is not; a file system error when it cannot be opened.
 */
export async function openRegularFile(
  root: string,
  path: string,
  maxBytes: number,
  seams?: OpenInsideOptions,
): Promise<OpenedRegularFile> {
  const opened = await openInside(root, path, seams);
  if (!opened.ok) throw new UnsafeFileError(opened.why === 'link' ? 'link' : 'outside');
  const { handle, stats, openedPath } = opened;
  try {
    const reason = notRegular(stats);
    if (reason) throw new UnsafeFileError(reason);
    if (Number(stats.size) > maxBytes) throw new UnsafeFileError('tooLarge', maxBytes);
    return { handle, size: Number(stats.size), mtimeMs: Number(stats.mtimeMs), openedPath };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The bytes of `path` if it is a regular file of at most `maxBytes` inside `root` (see
 * {@link openRegularFile}; `open`: its options, such as the root's real path a caller reading
 * many files asked for once). Reads at most one byte more than the checked size whatever the file
 * does meanwhile: a file that grows after the check is refused, not read to its end.
 * @throws UnsafeFileError, or a file system error.
 */
export async function readRegularFile(
  root: string,
  path: string,
  maxBytes: number,
  open?: OpenInsideOptions,
): Promise<Buffer> {
  return usingOpened(await openRegularFile(root, path, maxBytes, open), readOpenedFile);
}

/**
 * What `use` makes of `path` opened as {@link openRegularFile} opens it (the handle and its
 * checked size); the handle is closed once `use` is done, whatever it did.
 * @throws UnsafeFileError, a file system error, or what `use` throws.
 */
export async function withRegularFile<T>(
  root: string,
  path: string,
  maxBytes: number,
  use: (handle: FileHandle, size: number) => Promise<T>,
): Promise<T> {
  return usingOpened(await openRegularFile(root, path, maxBytes), use);
}

/** What `use` makes of an opened file; the handle is closed once `use` is done, whatever it did. */
async function usingOpened<T>(
  { handle, size }: OpenedRegularFile,
  use: (handle: FileHandle, size: number) => Promise<T>,
): Promise<T> {
  try {
    return await use(handle, size);
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of an opened file whose checked size is `size`: at most one byte more is read, and a
 * file that grew meanwhile is refused, not read to its end.
 * @throws UnsafeFileError when it grew; a file system error.
 */
export async function readOpenedFile(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = await readAtMostOneMore(handle, size);
  if (bytes.length > size) throw new UnsafeFileError('grew');
  return bytes;
}

/**
 * The size of `path` if it is a regular file of at most `maxBytes` inside `root`; nothing is read.
 * `open`: as {@link readRegularFile}'s.
 */
export async function regularFileSize(
  root: string,
  path: string,
  maxBytes: number,
  open?: OpenInsideOptions,
): Promise<number> {
  const { handle, size } = await openRegularFile(root, path, maxBytes, open);
  await handle.close();
  return size;
}

/**
 * Copies the first `size` bytes (the checked size) of an opened file into `output`, a megabyte
 * at a time; a file that shrank meanwhile gives what it still has.
 */
export async function copyOpenedFile(
  input: FileHandle,
  size: number,
  output: FileHandle,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(size, 1 << 20) || 1);
  for (let position = 0; position < size;) {
    const { bytesRead } = await input.read(
      buffer,
      0,
      Math.min(buffer.length, size - position),
      position,
    );
    if (bytesRead === 0) break;
    await output.write(buffer, 0, bytesRead);
    position += bytesRead;
  }
}

/**
 * The first `size` bytes (the checked size) of an opened file, a megabyte at a time, each chunk
 * in memory of its own; a file that shrank meanwhile gives what it still has, one that grew gives
 * no more than `size`.
 */
export async function* openedFileChunks(input: FileHandle, size: number): AsyncGenerator<Buffer> {
  for (let position = 0; position < size;) {
    const chunk = Buffer.alloc(Math.min(size - position, 1 << 20));
    const { bytesRead } = await input.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return;
    yield chunk.subarray(0, bytesRead);
    position += bytesRead;
  }
}

/**
 * The bytes of an opened file from its start, reading at most `size + 1` whatever the file does
 * meanwhile (one more than its checked size, to see that it grew): a file another process keeps
 * appending to costs no more memory than the size it was opened at. In memory of its own, not a
 * slice of Node's shared pool, so a caller may hand this very buffer on.
 */
export async function readAtMostOneMore(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafeSlow(size + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    // Its size read with room for one more byte: a read of a regular file comes back short only
    // at its end, so no second read (a trip through the thread pool) is needed to hear it.
    if (filled === size) break;
  }
  return buffer.subarray(0, filled);
}
