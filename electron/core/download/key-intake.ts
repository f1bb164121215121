/**
 * The last step before the gallery keeps a downloaded image: no key the process holds stays in
 * its own metadata. A hostile service may echo the user's key in a PNG text chunk, a JPEG comment
 * or APP segment, a WebP EXIF or XMP chunk, in any encoding the key finder knows; the gallery
 * folder is plain files. The file kept (after its provenance was written) is searched outside its
 * pixels (images/metadata-keys.ts) and, when it carries a key, kept without the parts that carry
 * it: the pixels are the same, and the image says what was removed (`ImageRecord.keyRemoved`). A
 * signed image loses its Content Credentials with them (they would no longer match): its verdict
 * is not kept, and the image says why. A key where no part can be left out is a file refused,
 * with a sentence that names no key.
 *
 * Only while a key is held (none: the file is not read again). The search reads the file's
 * outline, a part at a time with the pixel data stepped over (images/metadata-outline.ts): main
 * never holds a whole image for it. A PNG edited as it downloaded has its outline already, made
 * as it was written (provenance-writer.ts): the file is not read for it (read back, a head per
 * chunk, it was a read per 8 KB pixel chunk, ~1,000 of an 8 MB image: most of the download's
 * CPU). Only a file that carries a key (or a crafted one past the outline's bound) is read whole,
 * within the download's cap, to be kept without it.
 */
import type { KEY_REMOVED } from '../../../shared/domain/task-record';
import type { ImageKind } from '../images';
import {
  metadataCarriesKey,
  metadataOutline,
  type MetadataKeyScrubber,
  withoutKeyMetadata,
} from '../images';
import { diskParams, openRegularFile, readRegularFile, writeNewFileSynced } from '../fs';
import { sentence } from '../../../shared/i18n/sentence';
import { invalid, retry, type FailedOutcome } from './download-outcome';

/** Every key the process holds, scrubbed out of a text; null when it holds none. */
export type IntakeKeyScrubber = () => Promise<MetadataKeyScrubber | null>;

/** What was left out of an image's metadata because it carried a held key. */
type KeyRemoved = (typeof KEY_REMOVED)[number];

export interface KeyIntake {
  /** The file to keep: the one given, or the copy without the key. */
  readonly file: string;
  /** The copy's length (synced); null: the file given, as it is. */
  readonly bytes: number | null;
  readonly removed: KeyRemoved | null;
}

/** Outlines past this are read whole (the search's own bound is 4 MiB: metadata-keys.ts). */
export const MAX_OUTLINE = 8 * 1024 * 1024;

/**
 * Whether the file's outline (its bytes but its pixels: images/metadata-outline.ts) carries no
 * key: the file is then kept as it is, never held whole in memory.
 */
async function carriesNoKey(
  file: string,
  kind: ImageKind,
  context: {
    readonly root: string;
    readonly maxImageBytes: number;
    readonly outline?: Buffer | null;
  },
  scrub: MetadataKeyScrubber,
): Promise<boolean> {
  const known = context.outline;
  if (known) return !metadataCarriesKey(known, kind, scrub);
  const { handle, size } = await openRegularFile(context.root, file, context.maxImageBytes);
  try {
    const outline = await metadataOutline(handle, size, kind, MAX_OUTLINE);
    return outline !== null && !metadataCarriesKey(outline, kind, scrub);
  } finally {
    await handle.close();
  }
}

/**
 * `file` (a `kind` image in the gallery's temp folder under `root`) with no held key in its
 * metadata: as it is, or a copy at `temp` (written and synced); or the outcome that refuses it.
 */
export async function keyIntake(
  file: string,
  kind: ImageKind,
  context: {
    readonly root: string;
    readonly maxImageBytes: number;
    readonly temp: string;
    readonly keyScrubber?: IntakeKeyScrubber;
    /** `file`'s outline when it was made as the file was written; else it is read from the file. */
    readonly outline?: Buffer | null;
  },
): Promise<KeyIntake | FailedOutcome> {
  const scrub = await context.keyScrubber?.();
  const asItIs = { file, bytes: null, removed: null } as const;
  if (!scrub) return asItIs;
  try {
    if (await carriesNoKey(file, kind, context, scrub)) return asItIs;
    const bytes = await readRegularFile(context.root, file, context.maxImageBytes);
    const removal = withoutKeyMetadata(bytes, kind, scrub);
    if (removal.kind === 'clean') return asItIs;
    if (removal.kind === 'carried') return invalid(sentence('error.gallery.imageCarriesKey'));
    await writeNewFileSynced(context.temp, removal.bytes);
    const removed = removal.credentials ? 'credentials' : 'metadata';
    return { file: context.temp, bytes: removal.bytes.length, removed };
  } catch (error) {
    return retry(sentence('error.gallery.downloadNotStored', diskParams(error)));
  }
}
