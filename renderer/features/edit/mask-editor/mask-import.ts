/**
 * A mask image the user brings (a file), read into coverage at the source's size. The page's own
 * decoders read it (createImageBitmap, then a canvas for its pixels), in the sandboxed window, and
 * the size is checked before any pixel is read or anything leaves the window: a mask of another
 * size is refused with a sentence, never resampled (a service edits exactly the pixels it says).
 *
 * Either convention is read (shared/domain/mask-png.ts maskCoverage, as the command line's --mask
 * is): where the image has any transparency, alpha 0 means edit (an "alpha-edit" mask);
 * otherwise a pixel brighter than 127 means edit (a white-on-black mask).
 */
import { MAX_INPUT_BYTES } from '../../../../shared/domain/image-inputs';
import { maskCoverage } from '../../../../shared/domain/mask-png';

/** A decoded image: its size at once, its pixels (RGBA, unpremultiplied) when asked. */
export interface DecodedMask {
  readonly width: number;
  readonly height: number;
  rgba(): Uint8ClampedArray;
  close(): void;
}

/** Decodes an image file; rejects when it is not one. Injected by tests. */
export type MaskDecoder = (file: Blob) => Promise<DecodedMask>;

/** Why a mask file was refused, with what its sentence needs. */
export type MaskRefusal =
  | { readonly reason: 'tooLarge' }
  | { readonly reason: 'unreadable' }
  | { readonly reason: 'size'; readonly maskWidth: number; readonly maskHeight: number };

export type MaskImport =
  | { readonly ok: true; readonly coverage: Uint8Array }
  | { readonly ok: false; readonly refusal: MaskRefusal };

/** Reads `file` as a mask for a `width` × `height` source. */
export async function importMask(
  file: Blob,
  size: { readonly width: number; readonly height: number },
  decode: MaskDecoder = pageDecoder,
): Promise<MaskImport> {
  if (file.size > MAX_INPUT_BYTES) return refused({ reason: 'tooLarge' });
  let image: DecodedMask;
  try {
    image = await decode(file);
  } catch {
    return refused({ reason: 'unreadable' });
  }
  try {
    if (image.width !== size.width || image.height !== size.height) {
      return refused({ reason: 'size', maskWidth: image.width, maskHeight: image.height });
    }
    return { ok: true, coverage: maskCoverage(image.rgba()) };
  } catch {
    return refused({ reason: 'unreadable' });
  } finally {
    image.close();
  }
}

function refused(refusal: MaskRefusal): MaskImport {
  return { ok: false, refusal };
}

/** The page's decoder: createImageBitmap without colour conversion, pixels through a canvas. */
async function pageDecoder(file: Blob): Promise<DecodedMask> {
  const bitmap = await createImageBitmap(file, {
    colorSpaceConversion: 'none',
    premultiplyAlpha: 'none',
  });
  return {
    width: bitmap.width,
    height: bitmap.height,
    rgba: () => {
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.drawImage(bitmap, 0, 0);
      return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    },
    close: () => bitmap.close(),
  };
}
