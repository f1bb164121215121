/**
 * The orientation tag (0x0112) of an EXIF block, read with a bounds check on every offset: a TIFF
 * header (II or MM, 42), IFD0's entries. A JPEG's APP1 segment puts `Exif\0\0` before it; a
 * PNG's eXIf chunk holds the TIFF data alone. Only IFD0 is read, as decoders do; an entry count
 * that runs past the block is cut at its end.
 */
import { be16, be32, le16, le32 } from './byte-source';

const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;
const ENTRY_BYTES = 12;

/**
 * The orientation (1–8) when `segment` is an EXIF block; 1 when it is one without a valid tag;
 * `null` when it is not an EXIF block at all (another APP1, such as XMP).
 */
export function exifOrientation(segment: Uint8Array): number | null {
  if (!EXIF_ID.every((byte, i) => segment[i] === byte)) return null;
  return tiffOrientation(segment.subarray(EXIF_ID.length));
}

/**
 * The orientation (1–8) of a PNG's eXIf chunk: TIFF data alone, as the PNG specification puts it
 * and Chromium reads it; 1 when it holds no valid tag. A chunk that starts `Exif\0\0` (as some
 * writers put it) is not TIFF data: Chromium shows that PNG unturned, and so it reads here.
 */
export function pngExifOrientation(chunk: Uint8Array): number {
  return tiffOrientation(chunk);
}

/** The orientation tag of TIFF data's IFD0 (1–8); 1 when there is none or it is not valid. */
function tiffOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  const big = tiff[0] === 0x4d && tiff[1] === 0x4d;
  if (!little && !big) return 1;
  const u16 = (at: number) => (little ? le16(tiff, at) : be16(tiff, at));
  const u32 = (at: number) => (little ? le32(tiff, at) : be32(tiff, at));
  if (u16(2) !== 42) return 1;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return 1;
  const count = Math.min(u16(ifd), Math.floor((tiff.length - ifd - 2) / ENTRY_BYTES));
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * ENTRY_BYTES;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    if (u16(entry + 2) !== SHORT || u32(entry + 4) < 1) return 1;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
