/**
 * One image of an imported task, copied into a file of Pictor's own naming and checked on the
 * way: its bytes counted against the image cap, its SHA-256 against the manifest, its kind sniffed
 * from its first bytes (the name's extension must agree), then the whole file checked exactly as
 * a downloaded image is (the gallery's check: header, pixel limit, full decode). Its width and
 * height come from that check, never from the sidecar, and the thumbnail the check made is kept. An image that fails is removed again and
 * refused with its reason.
 */
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { removeQuietly } from '../../fs';
import type { ImageCheck, ImageCheckResult } from '../../download';
import { sniffImage } from '../../images';
import { isAbort } from './archive-errors';
import type { PlannedImage } from './import-plan';
import { LibraryWriteError, OversizeError, copyToNewFile, type CopiedFile } from './stream-copy';

export interface StagedImage extends CopiedFile {
  /** Width and height to record, as the check read them (displayed size). */
  readonly width?: number;
  readonly height?: number;
  /** The thumbnail the check made (WebP), kept so it is not made again; null when pending. */
  readonly thumbnail?: Buffer | null;
  /** Pictor's own verdict on its Content Credentials (the archive's is not believed). */
  readonly contentCredentials?: ContentCredentials;
}

/** What the check found that the record keeps. */
type Checked = Pick<StagedImage, 'width' | 'height' | 'thumbnail' | 'contentCredentials'>;

export type StageResult =
  | { readonly ok: true; readonly image: StagedImage }
  | { readonly ok: false; readonly reason: Sentence };

function refusalOf(error: unknown): Sentence {
  if (error instanceof OversizeError)
    return sentence('error.library.imageTooLarge', { max: String(error.maxBytes) });
  return sentence('error.library.imageUnreadable');
}

/**
 * The size, thumbnail and credentials verdict to keep, or why the check refused the file (a
 * download's words).
 */
function checked(result: ImageCheckResult): Checked | Sentence {
  if (!('state' in result)) {
    const { contentCredentials } = result;
    return {
      ...('width' in result
        ? { width: result.width, height: result.height, thumbnail: result.thumbnail }
        : {}),
      ...(contentCredentials ? { contentCredentials } : {}),
    };
  }
  // `retry`: the image workers failed (crashed, overran), not the image; it still did not pass.
  if (result.state !== 'invalid') return sentence('error.library.imageNotChecked');
  return result.errorSentence ?? sentence('error.library.imageUnreadable');
}

/**
 * Copies `planned` to the new file `target` and checks it with `check`. On success the file is
 * there, complete and synced; on refusal nothing is. An abort is thrown, with the file removed, and
 * so is a failure to write into the library (a full disk is not the image's fault: it must not be
 * recorded `invalid`; the import stops and takes back what it added, and the next import adds it).
 */
export async function stageImage(
  planned: PlannedImage,
  target: string,
  options: { maxBytes: number; check: ImageCheck; signal?: AbortSignal },
): Promise<StageResult> {
  try {
    const copied = await copyToNewFile(
      await planned.file.open(),
      target,
      options.maxBytes,
      options.signal,
    );
    let reason: Sentence | null = null;
    let size: Checked = {};
    if (planned.listed && planned.listed.sha256 !== copied.sha256) {
      reason = sentence('error.library.imageShaMismatch');
    } else if (sniffImage(copied.head) !== planned.kind) {
      reason = sentence('error.library.imageNotAsNamed');
    } else {
      const result = checked(await options.check(target, planned.kind));
      if ('key' in result) reason = result;
      else size = result;
    }
    if (reason) {
      await removeQuietly(target);
      return { ok: false, reason };
    }
    return { ok: true, image: { ...copied, ...size } };
  } catch (error) {
    await removeQuietly(target);
    if (isAbort(error)) throw error;
    if (error instanceof LibraryWriteError) throw error.cause;
    return { ok: false, reason: refusalOf(error) };
  }
}
