/**
 * One image of an imported task, copied into a file of Pictor's own naming and checked on the
 * way: its bytes counted against the image cap, its SHA-256 against the manifest, its kind sniffed
 * from its first bytes (the name's extension must agree), its size read from its header when the
 * sidecar's cannot be trusted. An image that fails is removed again and refused with its reason.
 */
import type { ImageRecord } from '../../../shared/domain/task-record';
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
  | { readonly ok: false; readonly reason: string };

async function dimensions(
  path: string,
  planned: PlannedImage,
  record: ImageRecord | undefined,
  maxBytes: number,
): Promise<{ width?: number; height?: number }> {
  if (record?.mime === IMAGE_MIME[planned.kind] && record.width && record.height) {
    return { width: record.width, height: record.height };
  }
  // Read back from our own copy, through a checked handle.
  const bytes = await readRegularFile(path, maxBytes);
  try {
    const header = await readImageHeader(bytes);
    if (header.format !== planned.kind || !header.orientedWidth || !header.orientedHeight) {
      throw new Error('The file does not hold the image its name says.');
    }
    return { width: header.orientedWidth, height: header.orientedHeight };
  } catch (error) {
    if (error instanceof ImagesUnavailableError) return {};
    throw error;
  }
}

function refusalOf(error: unknown): string {
  if (error instanceof OversizeError)
    return `The image is larger than the ${error.maxBytes} bytes allowed.`;
  if (error instanceof Error && error.message.startsWith('The file')) return error.message;
  return 'The image could not be read from the source.';
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
    const refuse = (reason: string): StageResult => ({ ok: false, reason });
    if (planned.listed && planned.listed.sha256 !== copied.sha256) {
      await removeQuietly(target);
      return refuse('The image does not match the manifest (its SHA-256 differs).');
    }
    if (sniffImage(copied.head) !== planned.kind) {
      await removeQuietly(target);
      return refuse('The file does not hold the image its name says.');
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
