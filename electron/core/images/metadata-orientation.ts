/**
 * What stands in an EXIF block's place when the key removal leaves it out (metadata-keys.ts): a
 * minimal block of the same form holding only the orientation its readers took from it, so a
 * portrait photo still shows upright and nothing else of the block is kept. The block stays where
 * it was (the first EXIF of a JPEG is the one decoders read; a PNG's eXIf counts before its first
 * IDAT only), in the byte order it had, and with or without the `Exif\0\0` its writer put first:
 * a reader that took no orientation from the old block takes none from the new (a PNG eXIf whose
 * checksum fails is read by none and is left out with nothing in its place).
 */
import { crc32 } from 'node:zlib';
import { exifOrientation, pngExifOrientation } from './exif-orientation';
import type { ImageKind } from './image-sniff';

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/** TIFF data whose IFD0 holds the one entry Orientation = `value`, in `order`. */
function orientationTiff(value: number, little: boolean): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  const w16 = (v: number, at: number) =>
    little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at);
  const w32 = (v: number, at: number) =>
    little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at);
  tiff.write(little ? 'II' : 'MM', 0, 'latin1');
  w16(42, 2);
  w32(8, 4);
  w16(1, 8);
  w16(ORIENTATION_TAG, 10);
  w16(SHORT, 12);
  w32(1, 14);
  w16(value, 18);
  return tiff;
}

/** A block of `data`'s form (`Exif\0\0` first or not, its byte order) holding only `value`. */
function sameForm(data: Buffer, value: number): Buffer {
  const prefixed = data.subarray(0, EXIF_ID.length).equals(EXIF_ID);
  const tiff = prefixed ? data.subarray(EXIF_ID.length) : data;
  const stand = orientationTiff(value, !(tiff[0] === 0x4d && tiff[1] === 0x4d));
  return prefixed ? Buffer.concat([EXIF_ID, stand]) : stand;
}

function jpegStandIn(part: Buffer): Buffer | null {
  if (part[1] !== 0xe1) return null;
  const value = exifOrientation(part.subarray(4));
  if (value === null) return null;
  const body = sameForm(part.subarray(4), value);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

function pngStandIn(part: Buffer): Buffer | null {
  if (part.length < 12 || part.toString('latin1', 4, 8) !== 'eXIf') return null;
  const data = part.subarray(8, part.length - 4);
  if (crc32(part.subarray(4, part.length - 4)) !== part.readUInt32BE(part.length - 4)) return null;
  const body = sameForm(data, pngExifOrientation(data));
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write('eXIf', 4, 'latin1');
  body.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return chunk;
}

/** A WebP's EXIF chunk: TIFF data (or, from some writers, `Exif\0\0` and TIFF data). */
function webpStandIn(part: Buffer): Buffer | null {
  if (part.length < 8 || part.toString('latin1', 0, 4) !== 'EXIF') return null;
  const data = part.subarray(8, 8 + part.readUInt32LE(4));
  const prefixed = data.subarray(0, EXIF_ID.length).equals(EXIF_ID);
  const value = prefixed ? exifOrientation(data) : pngExifOrientation(data);
  const body = sameForm(data, value ?? 1);
  const head = Buffer.from('EXIF\0\0\0\0', 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

const STAND_INS: Record<ImageKind, (part: Buffer) => Buffer | null> = {
  jpeg: jpegStandIn,
  png: pngStandIn,
  webp: webpStandIn,
};

/**
 * What takes the place of `part` (a whole chunk or segment of a `kind` file) when it is left out:
 * an EXIF block holding only its orientation; null for any other part.
 */
export function orientationStandIn(part: Buffer, kind: ImageKind): Buffer | null {
  return STAND_INS[kind](part);
}
