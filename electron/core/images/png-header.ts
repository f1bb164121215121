/**
 * PNG: the size from IHDR, which must be the first chunk (13 bytes, valid depth and colour type);
 * whether an `acTL` chunk before the first IDAT makes it an animation (APNG); and the EXIF
 * orientation of an `eXIf` chunk before the first IDAT, which Chromium and libvips apply to a PNG
 * as to a JPEG (shown turned, its sides swap for 5–8). Only chunk headers are read on the way,
 * at most {@link MAX_CHUNKS} of them, and of the data only the first eXIf's first
 * {@link EXIF_READ_BYTES} bytes.
 */
import { crc32 } from 'node:zlib';
import { be32, fourCc, type BoundedReader } from './byte-source';
import { pngExifOrientation } from './exif-orientation';
import { HeaderError, present, type ParsedHeader } from './header-parse';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each colour type allows (PNG specification, IHDR). */
export const PNG_BIT_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** PNG's own limit on a side and on a chunk's length. */
const MAX_PNG_INT = 2 ** 31 - 1;
/** Chunks looked at before the first IDAT; real files have a few dozen at most. */
const MAX_CHUNKS = 256;
/** How much of an eXIf chunk is read: IFD0, where the orientation is, comes first. */
const EXIF_READ_BYTES = 64 * 1024;

export function isPng(head: Uint8Array): boolean {
  return SIGNATURE.every((byte, i) => head[i] === byte);
}

/** What the chunks before the first IDAT say beyond the size. */
interface Ancillary {
  animated: boolean;
  orientation: number;
}

/**
 * An `acTL` chunk and the first `eXIf` chunk before the first IDAT; a file that ends on the way
 * is the decoder's to judge. An eXIf whose checksum fails is not read (decoders drop it too).
 */
async function readAncillary(reader: BoundedReader, firstChunk: number): Promise<Ancillary> {
  const found: Ancillary = { animated: false, orientation: 1 };
  let exifSeen = false;
  let at = firstChunk;
  for (let seen = 0; seen < MAX_CHUNKS; seen += 1) {
    const head = await reader.bytes(at, 8);
    if (!head) break;
    const type = fourCc(head, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    const length = be32(head, 0);
    if (length > MAX_PNG_INT)
      throw new HeaderError('unreadable', 'A PNG chunk length is impossible.');
    if (type === 'acTL') found.animated = true;
    if (type === 'eXIf' && !exifSeen) {
      exifSeen = true;
      found.orientation = await exifChunkOrientation(reader, at, length);
    }
    at += 12 + length;
  }
  return found;
}

/** The orientation an eXIf chunk at `at` holds; 1 when it is cut short or its checksum fails. */
async function exifChunkOrientation(
  reader: BoundedReader,
  at: number,
  length: number,
): Promise<number> {
  if (length <= EXIF_READ_BYTES) {
    const chunk = await reader.bytes(at + 4, 4 + length + 4);
    if (!chunk || crc32(chunk.subarray(0, 4 + length)) !== be32(chunk, 4 + length)) return 1;
    return pngExifOrientation(chunk.subarray(4, 4 + length));
  }
  // Larger than any IFD0 needs: its start is read, its checksum is the decoder's to judge.
  const start = await reader.bytes(at + 8, EXIF_READ_BYTES);
  return start ? pngExifOrientation(start) : 1;
}

export async function readPngHeader(reader: BoundedReader): Promise<ParsedHeader> {
  const head = present(await reader.bytes(0, 33), 'The PNG file ends inside its header.');
  const ihdr = head.subarray(12, 29);
  if (be32(head, 8) !== 13 || fourCc(head, 12) !== 'IHDR') {
    throw new HeaderError('unreadable', 'The PNG file does not start with its header chunk.');
  }
  if (crc32(ihdr) !== be32(head, 29)) {
    throw new HeaderError('unreadable', 'The PNG header chunk fails its checksum.');
  }
  const width = be32(head, 16);
  const height = be32(head, 20);
  const [depth = 0, colour = 0, compression, filter, interlace] = head.subarray(24, 29);
  if (width === 0 || height === 0)
    throw new HeaderError('no_size', 'The PNG says it has no pixels.');
  if (width > MAX_PNG_INT || height > MAX_PNG_INT) {
    throw new HeaderError('unreadable', 'The PNG size is beyond what PNG allows.');
  }
  const valid =
    (PNG_BIT_DEPTHS[colour]?.includes(depth) ?? false) &&
    compression === 0 &&
    filter === 0 &&
    (interlace === 0 || interlace === 1);
  if (!valid)
    throw new HeaderError('unreadable', 'The PNG header holds values PNG does not allow.');
  const { animated, orientation } = await readAncillary(reader, 33);
  return { format: 'png', width, height, orientation, animated };
}
