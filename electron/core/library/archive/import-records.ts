/**
 * The records an import writes, by the rebuild's rules (rebuild.ts): an image whose file came in
 * is `saved` at Pictor's own path for it; one without a file comes back `pending` when it has an
 * address and `invalid` when not; one whose file came in and was refused is `invalid`, with the
 * refusal as its error (its address is not fetched again: it came with the file that failed);
 * `expired`, `invalid` and `deleted` images keep their state; no thumbnail is carried over from
 * the source: a saved image's is the one its check made here, or pending when that check had no
 * decoder (the app makes it when it next shows the gallery, core/download/pending-thumbnails.ts).
 * Every record is marked `imported`.
 */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { verdictFromDisk } from '../../../../shared/domain/content-credentials';
import { englishText, sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { inlineTokenHash } from '../../../../shared/service/inline-token';
import { IMAGE_MIME, type ImageKind } from '../../images';
import { withoutFile } from '../../gallery';
import type { StagedImage } from './import-image';

/**
 * The image without anything that points at a file (gallery/image-files.ts), nor a signer's
 * Content Credentials verdict: one read from an archive anyone could have made is not believed
 * (verdictFromDisk).
 */
function withoutFileOrClaim(image: ImageRecord): ImageRecord {
  const { contentCredentials: claimed, ...rest } = withoutFile(image);
  const verdict = verdictFromDisk(claimed);
  return verdict ? { ...rest, contentCredentials: verdict } : rest;
}

/**
 * An image of the record whose file did not come in. An `inline:` token is no address: it names
 * a spool file of the source's task folder (download/inline-spool.ts), which is never imported.
 */
export function missingImage(image: ImageRecord): ImageRecord {
  const rest = withoutFileOrClaim(image);
  if (image.state === 'expired' || image.state === 'invalid' || image.state === 'deleted')
    return rest;
  const { error: _error, errorSentence: _sentence, ...kept } = rest;
  return image.url && inlineTokenHash(image.url) === null
    ? { ...kept, state: 'pending', ...failure(sentence('error.library.importedFileMissing')) }
    : { ...kept, state: 'invalid', ...failure(sentence('error.library.importedFileGone')) };
}

/** An image whose file came in and was refused for `reason` (import-image.ts). */
export function refusedImage(image: ImageRecord, reason: Sentence): ImageRecord {
  return { ...withoutFileOrClaim(image), state: 'invalid', ...failure(reason) };
}

/** An image's error: the English text and its catalogue sentence. */
function failure(said: Sentence): { error: string; errorSentence: Sentence } {
  return { error: englishText(said), errorSentence: said };
}

/**
 * An image whose file came in, now at `file` (gallery-relative), its XMP sidecar at `xmpFile`
 * and its thumbnail at `thumbnail` (both gallery-relative; the thumbnail pending without one).
 */
export function savedImage(
  image: ImageRecord,
  kind: ImageKind,
  staged: StagedImage,
  at: {
    readonly file: string;
    readonly index?: number;
    readonly xmpFile?: string | undefined;
    readonly thumbnail?: string | undefined;
  },
): ImageRecord {
  const { file, index = image.index, xmpFile, thumbnail } = at;
  const { error: _error, errorSentence: _sentence, ...rest } = withoutFileOrClaim(image);
  return {
    ...rest,
    index,
    state: 'saved',
    mime: IMAGE_MIME[kind],
    bytes: staged.size,
    file,
    ...(staged.width && staged.height ? { width: staged.width, height: staged.height } : {}),
    ...(xmpFile ? { xmpFile } : {}),
    ...(thumbnail ? { thumbnail } : { thumbnailPending: true as const }),
    // Pictor's own look at the file, over whatever the archive said.
    ...(staged.contentCredentials ? { contentCredentials: staged.contentCredentials } : {}),
  };
}

export function importedRecord(
  record: TaskRecord,
  folder: string,
  images: ImageRecord[],
): TaskRecord {
  return { ...record, folder, images, imported: true };
}
