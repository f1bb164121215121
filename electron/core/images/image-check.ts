/**
 * The one image check: the download, the thumbnails made later (pending-thumbnails.ts) and every
 * other place that takes an image in call this. The header check runs first, in TypeScript, so
 * no decoder sees an image whose header was refused or whose pixel count is over the limit; then
 * the engine decodes the whole file and makes the thumbnail; then its answer is checked
 * (engine-answer.ts) before anything of it is used.
 */
import {
  ImageEngineError,
  type ImageEngine,
  type ImageEngineFailure,
  type ImageFormat,
} from '../../ports/image-engine';
import { checkThumbnailAnswer } from './engine-answer';
import { checkHeaderOfFile, type CheckedHeader, type HeaderRefusal } from './image-header';

export interface ImageCheckOptions {
  /** The file is opened only inside this folder (the gallery's root). */
  readonly root: string;
  readonly engine: ImageEngine;
  readonly maxPixels: number;
  /** A file larger than this is not opened (the download's byte cap). */
  readonly maxBytes: number;
  readonly thumbnailSize: number;
  readonly signal?: AbortSignal;
}

export type ImageCheck =
  /** The header was refused: no decoder saw the file. */
  | { readonly kind: 'refused'; readonly refusal: HeaderRefusal }
  /** The decoder refused the bytes, or its answer did not pass; `detail` is for the log. */
  | { readonly kind: 'undecodable'; readonly header: CheckedHeader; readonly detail: string }
  /** The engine failed for a reason of its own (crashed, too slow, stopped): try again later. */
  | { readonly kind: 'engine_failed'; readonly why: Exclude<ImageEngineFailure, 'unavailable'> }
  /** No engine here decodes: sized from its header, its thumbnail made later. */
  | { readonly kind: 'pending'; readonly header: CheckedHeader }
  | {
      readonly kind: 'thumbnail';
      readonly header: CheckedHeader;
      /** Displayed size (EXIF orientation applied). */
      readonly width: number;
      readonly height: number;
      readonly webp: Uint8Array;
    };

/**
 * Checks `file` (a regular file Pictor wrote or copied) as a `kind` image and makes its thumbnail.
 * @throws UnsafeFileError or a file-system error when the file cannot be opened; anything else an
 * engine throws that is not an {@link ImageEngineError} (a bug).
 */
export async function checkImageFile(
  file: string,
  kind: ImageFormat,
  options: ImageCheckOptions,
): Promise<ImageCheck> {
  const checked = await checkHeaderOfFile(file, kind, options);
  if (!checked.ok) return { kind: 'refused', refusal: checked.refusal };
  const { header } = checked;
  let answer;
  try {
    answer = await options.engine.thumbnail({
      file,
      root: options.root,
      header,
      thumbnailSize: options.thumbnailSize,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (!(error instanceof ImageEngineError)) throw error;
    // An engine that cannot start is one that decodes nothing: the header-only path.
    if (error.why === 'unavailable') return { kind: 'pending', header };
    return { kind: 'engine_failed', why: error.why };
  }
  if (answer.kind === 'pending') return { kind: 'pending', header };
  if (answer.kind === 'undecodable') return { kind: 'undecodable', header, detail: answer.detail };
  const used = await checkThumbnailAnswer(answer, header, options);
  if (!used.ok) return { kind: 'undecodable', header, detail: used.detail };
  return { kind: 'thumbnail', header, width: used.width, height: used.height, webp: used.webp };
}
