/**
 * A saved image as it leaves the app (Save as, the clipboard, a drag out) while its task is kept
 * under an id that carries a key the app holds and the sweep (app/kept-key-sweep.ts) has not yet
 * rewritten its files: Pictor's packet in the image names that id. The file handed out is then a
 * copy in the gallery's temp folder without the metadata that carries a key (images/
 * metadata-keys.ts, the download's own removal; the pixels the same); every other image is
 * handed out as it is, unread (the caller asks only for a task whose id carries a key: one scrub
 * of the id). A copy is removed once its action is done; a drag's stays until the drop is over,
 * and the next start's sweep of the temp folder removes it. A key where nothing can go (a file
 * saved before downloads were searched) is a refusal: nothing leaves.
 */
import { extname } from 'node:path';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import { readRegularFile, removeQuietly, tempPath, writeNewFileSynced } from '../fs';
import { type MetadataKeyScrubber, sniffImage, withoutKeyMetadata } from '../images';

/** The file to hand out, and what to do once its action is over. */
interface OutgoingFile {
  readonly file: string;
  /** Removes the copy (none made: nothing). Never rejects. */
  release(): Promise<void>;
}

const asItIs = (file: string): OutgoingFile => ({ file, release: () => Promise.resolve() });

/**
 * `bytes` (a saved image) as they may leave: themselves when they carry no key `scrub` takes out,
 * else without the metadata that carries it (the pixels the same). `pictor mcp`'s get_image hands
 * an agent the bytes themselves, the same way.
 * @throws UserFacingError when the key is where nothing can go (or the bytes are no image).
 */
export function outgoingBytes(bytes: Buffer, scrub: MetadataKeyScrubber): Buffer {
  const kind = sniffImage(bytes);
  const removal = kind === null ? null : withoutKeyMetadata(bytes, kind, scrub);
  if (removal?.kind === 'clean') return bytes;
  if (removal?.kind !== 'removed') {
    throw new UserFacingError(sentence('error.gallery.outgoingCarriesKey'), { code: 'failed' });
  }
  return removal.bytes;
}

/**
 * `file` (a saved image inside the gallery `root`) as it may leave: as it is when `scrub` is null
 * (the task's id carries no key held) or the file carries none, else a copy without it.
 * @throws UserFacingError when the key is where nothing can go; file-system errors.
 */
export async function outgoingFile(
  root: string,
  file: string,
  scrub: MetadataKeyScrubber | null,
): Promise<OutgoingFile> {
  if (!scrub) return asItIs(file);
  const bytes = await readRegularFile(root, file, GALLERY_MAX_IMAGE_BYTES);
  const out = outgoingBytes(bytes, scrub);
  if (out === bytes) return asItIs(file);
  const copy = tempPath(root, extname(file));
  await writeNewFileSynced(copy, out);
  return { file: copy, release: () => removeQuietly(copy) };
}
