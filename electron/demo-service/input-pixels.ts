/**
 * What the demo answers an image-input task with, derived from the source's pixels so a test can
 * check known pixels (docs/DEMO-SERVICE.md, "Image inputs"):
 * - edit: the source tinted, each channel `(3 × source + tint) / 4` (rounded down) with the tint
 *   {@link EDIT_TINT}, alpha kept;
 * - fill: the pixels under the mask painted {@link FILL_COLOUR}, every other pixel copied exactly;
 *   a white-edit mask marks a pixel whose grey (mean of R, G, B) is 128 or more, an alpha-edit
 *   mask one whose alpha is below 128;
 * - upscale ×f: nearest neighbour, each source pixel an f × f block;
 * - outpaint: the larger canvas in {@link OUTPAINT_COLOUR} with the source copied at (left, top).
 */
import type { Pixels } from './png-codec';

/** The colour an edit mixes in (a quarter of it). */
export const EDIT_TINT = [255, 160, 0] as const;
/** What a fill paints under the mask, opaque. */
export const FILL_COLOUR = [255, 0, 255, 255] as const;
/** What an outpaint paints around the source, opaque. */
export const OUTPAINT_COLOUR = [128, 128, 128, 255] as const;

/** Pixels added on each side of an expanded image. */
export interface Margins {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** Which pixels a mask marks for editing. */
export type MaskReading = 'white-edit' | 'alpha-edit';

type Image = Omit<Pixels, 'hasAlpha'>;

/** The source tinted (see the file comment). */
export function tinted(source: Image): Image {
  const rgba = Uint8Array.from(source.rgba);
  for (let at = 0; at < rgba.length; at += 4) {
    for (let c = 0; c < 3; c += 1)
      rgba[at + c] = ((rgba[at + c] ?? 0) * 3 + (EDIT_TINT[c] ?? 0)) >> 2;
  }
  return { width: source.width, height: source.height, rgba };
}

/** Whether the mask marks pixel `index` for editing. */
export function marks(mask: Image, index: number, reading: MaskReading): boolean {
  const at = index * 4;
  if (reading === 'alpha-edit') return (mask.rgba[at + 3] ?? 255) < 128;
  const grey = ((mask.rgba[at] ?? 0) + (mask.rgba[at + 1] ?? 0) + (mask.rgba[at + 2] ?? 0)) / 3;
  return grey >= 128;
}

/** The source with the masked pixels painted (the mask is the source's size). */
export function filled(source: Image, mask: Image, reading: MaskReading): Image {
  const rgba = Uint8Array.from(source.rgba);
  for (let index = 0; index < source.width * source.height; index += 1) {
    if (marks(mask, index, reading)) rgba.set(FILL_COLOUR, index * 4);
  }
  return { width: source.width, height: source.height, rgba };
}

/** Nearest neighbour at `factor` times the size. */
export function upscaled(source: Image, factor: number): Image {
  const width = source.width * factor;
  const height = source.height * factor;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const from = Math.floor(y / factor) * source.width;
    for (let x = 0; x < width; x += 1) {
      const at = (from + Math.floor(x / factor)) * 4;
      rgba.set(source.rgba.subarray(at, at + 4), (y * width + x) * 4);
    }
  }
  return { width, height, rgba };
}

/** The larger canvas with the source placed. */
export function expanded(source: Image, margins: Margins): Image {
  const width = source.width + margins.left + margins.right;
  const height = source.height + margins.top + margins.bottom;
  const rgba = new Uint8Array(width * height * 4);
  for (let at = 0; at < rgba.length; at += 4) rgba.set(OUTPAINT_COLOUR, at);
  const stride = source.width * 4;
  for (let y = 0; y < source.height; y += 1) {
    const row = source.rgba.subarray(y * stride, (y + 1) * stride);
    rgba.set(row, ((y + margins.top) * width + margins.left) * 4);
  }
  return { width, height, rgba };
}

/** Whether every pixel of a white-edit mask is grey-like (its channels within 16 of each other). */
export function greyLike(mask: Image): boolean {
  for (let at = 0; at < mask.rgba.length; at += 4) {
    const r = mask.rgba[at] ?? 0;
    const g = mask.rgba[at + 1] ?? 0;
    const b = mask.rgba[at + 2] ?? 0;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 16) return false;
  }
  return true;
}
