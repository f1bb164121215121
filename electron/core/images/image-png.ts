/**
 * An image of the gallery as PNG bytes (the clipboard's common format, the drag icon): its header
 * is checked first, with the pixel limit, like any image before a decoder sees it (a gallery
 * folder may hold a crafted file), then the engine converts it, and its answer must be a PNG of
 * the size asked for.
 */
import type { ImageEngine } from '../../ports/image-engine';
import { sniffImage } from './image-sniff';
import { checkHeaderOfBytes } from './image-header';

/** The bytes are not an image Pictor converts; `message` is for the log. */
class NotConvertibleError extends Error {
  override readonly name = 'NotConvertibleError';
}

/**
 * `bytes` as a PNG; fitting inside `maxSide` on each side when it is given (never enlarged), else
 * at its own size (a PNG is then returned as it is).
 * @throws NotConvertibleError; an ImageEngineError from the engine.
 */
export async function pngOfImage(
  bytes: Uint8Array,
  engine: Pick<ImageEngine, 'toPng'>,
  limits: { readonly maxPixels: number; readonly maxSide?: number },
): Promise<Uint8Array> {
  const kind = sniffImage(bytes.subarray(0, 12));
  if (!kind) throw new NotConvertibleError('The file is not an image.');
  const checked = await checkHeaderOfBytes(bytes, kind, limits.maxPixels);
  if (!checked.ok) throw new NotConvertibleError(checked.refusal.detail);
  if (kind === 'png' && limits.maxSide === undefined) return bytes;
  const png = await engine.toPng(bytes, limits.maxSide);
  const out = await checkHeaderOfBytes(png, 'png', limits.maxPixels);
  if (!out.ok) throw new NotConvertibleError(`The engine answered no PNG: ${out.refusal.detail}`);
  const { orientedWidth, orientedHeight } = checked.header;
  const fits =
    limits.maxSide === undefined
      ? out.header.width === orientedWidth && out.header.height === orientedHeight
      : out.header.width <= limits.maxSide && out.header.height <= limits.maxSide;
  if (!fits) throw new NotConvertibleError('The engine answered a PNG of another size.');
  return png;
}
