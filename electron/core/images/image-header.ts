/**
 * The header check every image passes before any decoder sees a byte of it: the format from its
 * signature (it must be the one expected), the size from its own header (PNG IHDR, JPEG frame
 * header, WebP bitstream or canvas), the EXIF orientation of a JPEG, and the pixel limit. It reads
 * a few small ranges of the file through a budget (byte-source.ts), so a crafted file cannot make
 * it read the whole file or loop, and it never throws for anything in the file.
 *
 * Animated images (APNG, animated WebP) are kept: their size is the canvas, every frame must lie
 * inside it (decoders refuse one that does not), and the thumbnail is the first frame, the image
 * every decoder shows when it does not animate.
 */
import { MAX_IMAGE_SIDE } from '../../../shared/domain/limits';
import type { ImageFormat, ImageHeaderInfo } from '../../ports/image-engine';
import { withRegularFile } from '../fs';
import {
  BoundedReader,
  HEADER_READ_BUDGET,
  ReadBudgetError,
  bufferSource,
  fileSource,
  type ByteSource,
  type ReadBudget,
} from './byte-source';
import { HeaderError, type ParsedHeader } from './header-parse';
import { isJpeg, readJpegHeader } from './jpeg-header';
import { isPng, readPngHeader } from './png-header';
import { isWebp, readWebpHeader } from './webp-header';

/** A header that passed: what the port's engines get, and whether the image is animated. */
export interface CheckedHeader extends ImageHeaderInfo {
  readonly animated: boolean;
}

/** Why a header was refused; `detail` is for the log. */
export type HeaderRefusal =
  | { readonly reason: 'unreadable'; readonly detail: string }
  | { readonly reason: 'type_mismatch'; readonly detail: string }
  | { readonly reason: 'no_size'; readonly detail: string }
  | {
      readonly reason: 'too_many_pixels';
      readonly detail: string;
      readonly width: number;
      readonly height: number;
    };

export type HeaderCheck =
  | { readonly ok: true; readonly header: CheckedHeader }
  | { readonly ok: false; readonly refusal: HeaderRefusal };

const PARSERS: Readonly<Record<ImageFormat, (reader: BoundedReader) => Promise<ParsedHeader>>> = {
  png: readPngHeader,
  jpeg: readJpegHeader,
  webp: readWebpHeader,
};

function formatOf(head: Uint8Array): ImageFormat | null {
  if (isPng(head)) return 'png';
  if (isJpeg(head)) return 'jpeg';
  if (isWebp(head)) return 'webp';
  return null;
}

/** EXIF orientations 5–8 turn the image a quarter: its sides swap on screen. */
function oriented(parsed: ParsedHeader): CheckedHeader {
  const swap = parsed.orientation >= 5;
  return {
    format: parsed.format,
    width: parsed.width,
    height: parsed.height,
    orientation: parsed.orientation,
    orientedWidth: swap ? parsed.height : parsed.width,
    orientedHeight: swap ? parsed.width : parsed.height,
    animated: parsed.animated,
  };
}

async function parse(
  source: ByteSource,
  expected: ImageFormat,
  budget: ReadBudget,
): Promise<HeaderCheck> {
  const reader = new BoundedReader(source, budget);
  const head = await reader.bytes(0, Math.min(12, source.size));
  const format = head && head.length === 12 ? formatOf(head) : null;
  if (!format)
    return {
      ok: false,
      refusal: { reason: 'unreadable', detail: 'The file does not start like an image.' },
    };
  if (format !== expected) {
    return {
      ok: false,
      refusal: { reason: 'type_mismatch', detail: `The file holds ${format}, not ${expected}.` },
    };
  }
  return { ok: true, header: oriented(await PARSERS[format](reader)) };
}

/**
 * The header of the `expected` image in `source`, or why it is refused: damaged or lying,
 * another format, no size, a side Pictor cannot record, or more than `maxPixels` pixels.
 */
export async function checkHeader(
  source: ByteSource,
  expected: ImageFormat,
  maxPixels: number,
  budget: ReadBudget = HEADER_READ_BUDGET,
): Promise<HeaderCheck> {
  let checked: HeaderCheck;
  try {
    checked = await parse(source, expected, budget);
  } catch (error) {
    if (error instanceof HeaderError)
      return { ok: false, refusal: { reason: error.fault, detail: error.message } };
    if (error instanceof ReadBudgetError)
      return { ok: false, refusal: { reason: 'unreadable', detail: error.message } };
    throw error;
  }
  if (!checked.ok) return checked;
  const { width, height } = checked.header;
  if (width * height > maxPixels) {
    return {
      ok: false,
      refusal: { reason: 'too_many_pixels', detail: 'More pixels than the limit.', width, height },
    };
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return {
      ok: false,
      refusal: { reason: 'unreadable', detail: 'A side is longer than Pictor records.' },
    };
  }
  return checked;
}

/** {@link checkHeader} of bytes in memory. */
export function checkHeaderOfBytes(
  bytes: Uint8Array,
  expected: ImageFormat,
  maxPixels: number,
): Promise<HeaderCheck> {
  return checkHeader(bufferSource(bytes), expected, maxPixels);
}

/**
 * {@link checkHeader} of a file, and the file's size: opened only when it is a regular file of at
 * most `maxBytes` inside `root` (never through a link, never blocking: regular-file.ts), read in
 * small ranges.
 * @throws UnsafeFileError, or a file-system error, when the file cannot be opened as one.
 */
export async function checkHeaderOfFile(
  path: string,
  expected: ImageFormat,
  limits: { readonly root: string; readonly maxPixels: number; readonly maxBytes: number },
): Promise<HeaderCheck & { readonly fileBytes: number }> {
  return withRegularFile(limits.root, path, limits.maxBytes, async (handle, size) => ({
    ...(await checkHeader(fileSource(handle, size), expected, limits.maxPixels)),
    fileBytes: size,
  }));
}
