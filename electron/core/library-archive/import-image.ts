/**
 * One image of an imported task, copied into a file of Pictor's own naming and checked on the
 * way: its bytes counted against the image cap, its SHA-256 against the manifest, its kind sniffed
 * from its first bytes (the name's extension must agree), its size read from its header when the
 * sidecar's cannot be trusted. An image that fails is removed again and refused with its reason.
 */
import { dirname } from 'node:path';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { removeQuietly } from '../gallery/atomic-file';
import { IMAGE_MIME, sniffImage } from '../gallery/image-sniff';
import { readRegularFile } from '../gallery/regular-file';
import { readImageHeader } from '../images/image-ops';
import { ImagesUnavailableError } from '../images/image-workers';
import { isAbort } from './archive-errors';
import type { PlannedImage } from './import-plan';
import { OversizeError, copyToNewFile, type CopiedFile } from './stream-copy';

export interface StagedImage extends CopiedFile {
  /** Width and height to record (absent when the image code is unavailable). */
  readonly width?: number;
  readonly height?: number;
}

export type StageResult =
  | { readonly ok: true; readonly image: StagedImage }
  | { readonly ok: false; readonly reason: Sentence };

async function dimensions(
  path: string,
  planned: PlannedImage,
  record: ImageRecord | undefined,
  maxBytes: number,
): Promise<{ width?: number; height?: number }> {
  if (record?.mime === IMAGE_MIME[planned.kind] && record.width && record.height) {
    return { width: record.width, height: record.height };
  }
  // Read back from our own copy, through a checked handle, inside the folder it was copied to.
  const bytes = await readRegularFile(dirname(path), path, maxBytes);
  try {
    const header = await readImageHeader(bytes);
    if (header.format !== planned.kind || !header.orientedWidth || !header.orientedHeight) {
      throw new NotAsNamedError('The file does not hold the image its name says.');
    }
    return { width: header.orientedWidth, height: header.orientedHeight };
  } catch (error) {
    if (error instanceof ImagesUnavailableError) return {};
    throw error;
  }
}

/** Thrown when the file's header is not the image its name says (see {@link refusalOf}). */
class NotAsNamedError extends Error {
  override readonly name = 'NotAsNamedError';
}

function refusalOf(error: unknown): Sentence {
  if (error instanceof OversizeError)
    return sentence('error.library.imageTooLarge', { max: String(error.maxBytes) });
  if (error instanceof NotAsNamedError) return sentence('error.library.imageNotAsNamed');
  return sentence('error.library.imageUnreadable');
}

/**
 * Copies `planned` to the new file `target`. On success the file is there, complete and synced;
 * on refusal nothing is. An abort is thrown, with the file removed.
 */
export async function stageImage(
  planned: PlannedImage,
  record: ImageRecord | undefined,
  target: string,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<StageResult> {
  try {
    const copied = await copyToNewFile(
      await planned.file.open(),
      target,
      options.maxBytes,
      options.signal,
    );
    const refuse = (reason: Sentence): StageResult => ({ ok: false, reason });
    if (planned.listed && planned.listed.sha256 !== copied.sha256) {
      await removeQuietly(target);
      return refuse(sentence('error.library.imageShaMismatch'));
    }
    if (sniffImage(copied.head) !== planned.kind) {
      await removeQuietly(target);
      return refuse(sentence('error.library.imageNotAsNamed'));
    }
    const size = await dimensions(target, planned, record, options.maxBytes).catch(
      async (error: unknown) => {
        await removeQuietly(target);
        throw error;
      },
    );
    return { ok: true, image: { ...copied, ...size } };
  } catch (error) {
    await removeQuietly(target);
    if (isAbort(error)) throw error;
    return { ok: false, reason: refusalOf(error) };
  }
}
