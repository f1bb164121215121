/**
 * A saved image as it leaves the app (Save as, the clipboard, a drag out) while its task is kept
 * under an id that carries a key the app holds and the sweep (app/kept-key-sweep.ts) has not yet
 * rewritten its files: Pictor's packet in the image names that id. The file handed out is then a
 * copy in the gallery's temp folder without the metadata that carries a key (images/
 * metadata-keys.ts, the download's own removal; the pixels the same); every other image is
 * handed out as it is, unread (the caller asks only for a task whose id carries a key: one scrub
 * of the id). A key where nothing can go (a file saved before downloads were searched) is a
 * refusal: nothing leaves.
 *
 * A copy is the user's image without the key, and other local users exist: it is written owner-only
 * (0600) under the image's own name (what a drop shows) in a folder of its own, owner-only (0700),
 * in the temp folder, named as this process's temporary files are (fs/temp-names.ts). It is removed
 * once its action is done; a drag's once the drop is over (ipc/gallery-outgoing-handlers.ts), and
 * whatever a crash left, by the next start's sweep of the temp folder (its process is gone).
 *
 * {@link outgoingBytes} is the one decision on a file's bytes: here, and for the bytes the gallery
 * protocol hands the page while a key is held (app/protocol/gallery-request.ts).
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import {
  ensureFolder,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  readRegularFile,
  removeTree,
  tempPath,
  writeNewFileSynced,
} from '../fs';
import { type MetadataKeyScrubber, sniffImage, withoutKeyMetadata } from '../images';

/** The file to hand out, and what to do once its action is over. */
export interface OutgoingFile {
  readonly file: string;
  /** Removes the copy (none made: nothing). Never rejects. */
  release(): Promise<void>;
}

const asItIs = (file: string): OutgoingFile => ({ file, release: () => Promise.resolve() });

/**
 * `bytes` (an image file's) as they may leave: the same buffer when they carry no key `scrub`
 * takes out, else the file without the metadata that carries it.
 * @throws UserFacingError when the key is where nothing can go, or the bytes are no image kind
 * the removal knows (nothing to tell metadata from pixels by).
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
  const folder = tempPath(root, '');
  await ensureFolder(root, dirname(folder));
  // Made here, never taken over: a folder already there is an error.
  await mkdir(folder, { mode: PRIVATE_FOLDER_MODE });
  const release = () =>
    removeTree(root, folder, { onLink: 'unlink' }).then(
      () => undefined,
      () => undefined,
    );
  const copy = join(folder, basename(file));
  try {
    await writeNewFileSynced(copy, out, PRIVATE_FILE_MODE);
  } catch (error) {
    await release();
    throw error;
  }
  return { file: copy, release };
}
