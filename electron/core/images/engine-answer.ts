/**
 * The check every engine answer passes before Pictor uses it. An engine decodes hostile bytes
 * (in a sandboxed renderer, or native code): what it says back is checked like any other input.
 * A thumbnail answer must report the decoded size the header check computed (the oriented size:
 * a decoder that saw another image, or a header that lied, fails here), and its bytes must be a
 * WebP file, whole, within the byte limit, whose own header fits the thumbnail size.
 */
import type { ImageHeaderInfo, ThumbnailAnswer } from '../../ports/image-engine';
import { checkHeaderOfBytes } from './image-header';

/** A thumbnail larger than this is refused (a 384-pixel WebP is some tens of KiB). */
const MAX_THUMBNAIL_BYTES = 1024 * 1024;

export type CheckedAnswer =
  | {
      readonly ok: true;
      readonly width: number;
      readonly height: number;
      readonly webp: Uint8Array;
    }
  | { readonly ok: false; readonly detail: string };

const refuse = (detail: string): CheckedAnswer => ({ ok: false, detail });

/** The answer's thumbnail when it can be used; otherwise why not (for the log). */
export async function checkThumbnailAnswer(
  answer: Extract<ThumbnailAnswer, { kind: 'thumbnail' }>,
  header: ImageHeaderInfo,
  limits: { readonly thumbnailSize: number; readonly maxBytes?: number },
): Promise<CheckedAnswer> {
  const { width, height, webp } = answer;
  if (width !== header.orientedWidth || height !== header.orientedHeight) {
    return refuse(
      `The decoder read ${String(width)}×${String(height)}, the header says ${String(header.orientedWidth)}×${String(header.orientedHeight)}.`,
    );
  }
  if (!(webp instanceof Uint8Array)) return refuse('The thumbnail is not bytes.');
  if (webp.length > (limits.maxBytes ?? MAX_THUMBNAIL_BYTES))
    return refuse('The thumbnail is larger than the limit.');
  const view = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
  // The RIFF must end where the bytes do: nothing appended, nothing cut.
  if (webp.length < 20 || view.getUint32(4, true) + 8 !== webp.length) {
    return refuse('The thumbnail is not one whole RIFF file.');
  }
  const size = limits.thumbnailSize;
  const own = await checkHeaderOfBytes(webp, 'webp', size * size);
  if (!own.ok) return refuse(`The thumbnail is not a WebP image: ${own.refusal.detail}`);
  if (own.header.width > size || own.header.height > size) {
    return refuse('The thumbnail is larger than the thumbnail size.');
  }
  return { ok: true, width, height, webp };
}
