/**
 * Images a service sent inline, kept on disk from the moment the answer was read until the image
 * is saved: `<task folder>/.inline/<sha256>`, written atomically (temp, fsync, rename), owner-only,
 * named by the hash of its bytes; the record keeps only `inline:<sha256>` in the image's `url`.
 *
 * Why a spool file rather than asking the service again after a restart: an inline result lives
 * only in the answer that carried it. fal keeps a result for minutes, and today's contract says
 * nothing about how long a task can be read again, so a kill between reading the answer and
 * saving the image could lose a paid image for good. The spool is written before the task is
 * recorded completed (core/engine/download-manager.ts): a kill before that leaves the task
 * processing, polled again; a kill after it finds the bytes here. The spool lives in the task's
 * own folder, so a library move carries it with the task (relocate-plan.ts), two tasks with the
 * same picture never share one, and a rebuild skips it (rebuild.ts).
 *
 * From the spool the bytes go through exactly what a downloaded body goes through: they are read
 * back as a `Response` and handed to bodyToFile (download-image.ts), then checked, tagged and
 * placed like any download.
 */
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { isInlineHash, type InlineImage } from '../../../shared/service/inline-token';
import { sentence } from '../../../shared/i18n/sentence';
import {
  ensurePrivateFolderBelow,
  fsyncDir,
  PRIVATE_FILE_MODE,
  readRegularFile,
  removeEmptyFolder,
  removeQuietly,
  UnsafeFileError,
  writeFileAtomic,
} from '../fs';
import { systemErrorCode } from '../errors';
import { invalid, retry, type FailedOutcome } from './download-outcome';
import { INLINE_DIR } from '../gallery';

/**
 * The spool file of the inline image whose bytes hash to `sha256`, in the task `folder`. The hash
 * comes from a record (an imported one, a sidecar in a folder anyone could have made): anything
 * but 64 hex digits (`../image-1.png`) never becomes a path.
 * @throws UnsafeFileError when `sha256` is not a hash.
 */
function inlineSpoolPath(folder: string, sha256: string): string {
  if (!isInlineHash(sha256)) throw new UnsafeFileError('inlineName');
  return join(folder, INLINE_DIR, sha256);
}

/**
 * Writes each image's spool file in the task `folder` (absolute, inside `root`), synced, before
 * the caller records the images: a spool already there with this name holds these same bytes and
 * is written again harmlessly (an answer read twice after a kill).
 * @throws UnsafePathError (a link on the way); file-system errors (full disk, no permission).
 */
export async function keepInlineImages(
  root: string,
  folder: string,
  images: readonly InlineImage[],
): Promise<void> {
  const spool = join(folder, INLINE_DIR);
  // What the service made for this user is nobody else's to read (other local users may exist).
  await ensurePrivateFolderBelow(root, spool);
  const written = new Set<string>();
  for (const image of images) {
    if (written.has(image.sha256)) continue;
    written.add(image.sha256);
    await writeFileAtomic(
      root,
      inlineSpoolPath(folder, image.sha256),
      image.bytes,
      PRIVATE_FILE_MODE,
    );
  }
  await fsyncDir(spool);
}

const LOST = sentence('error.gallery.inlineImageLost');

/**
 * The spool file as the answer of an image request: a 200 `Response` whose body is its bytes,
 * once they are checked to be the bytes the record names (their SHA-256). A missing, replaced or
 * changed file is `invalid` (nothing can bring it back); a disk that fails to read is a retry.
 */
export async function inlineSpoolResponse(
  root: string,
  folder: string,
  sha256: string,
  maxBytes: number,
): Promise<{ ok: true; response: Response } | { ok: false; outcome: FailedOutcome }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(root, inlineSpoolPath(folder, sha256), maxBytes);
  } catch (error) {
    if (error instanceof UnsafeFileError || systemErrorCode(error) === 'ENOENT') {
      return { ok: false, outcome: invalid(LOST) };
    }
    return { ok: false, outcome: retry(sentence('error.gallery.downloadUnexpected')) };
  }
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
    return { ok: false, outcome: invalid(LOST) };
  }
  // The same memory as a plain view (no copy): a file's bytes never live in a shared buffer.
  const body = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  return { ok: true, response: new Response(body) };
}

/** Removes an image's spool file, and the spool folder once it is empty. Never throws. */
export async function dropInlineImage(root: string, folder: string, sha256: string): Promise<void> {
  if (!isInlineHash(sha256)) return;
  await removeQuietly(inlineSpoolPath(folder, sha256), root);
  await removeEmptyFolder(root, join(folder, INLINE_DIR)).catch(() => undefined);
}
