/**
 * PNG: the size from IHDR, which must be the first chunk (13 bytes, valid depth and colour type),
 * and whether an `acTL` chunk before the first IDAT makes it an animation (APNG). Only chunk
 * headers are read on the way (never a chunk's data), at most {@link MAX_CHUNKS} of them.
 */
import { crc32 } from 'node:zlib';
import { be32, fourCc, type BoundedReader } from './byte-source';
import { HeaderError, present, type ParsedHeader } from './header-parse';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each colour type allows (PNG specification, IHDR). */
const DEPTHS: Readonly<Record<number, readonly number[]>> = {
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

export function isPng(head: Uint8Array): boolean {
  return SIGNATURE.every((byte, i) => head[i] === byte);
}

/** An `acTL` chunk before the first IDAT; a file that ends on the way is the decoder's to judge. */
async function isAnimated(reader: BoundedReader, firstChunk: number): Promise<boolean> {
  let at = firstChunk;
  for (let seen = 0; seen < MAX_CHUNKS; seen += 1) {
    const head = await reader.bytes(at, 8);
    if (!head) return false;
    const type = fourCc(head, 4);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    const length = be32(head, 0);
    if (length > MAX_PNG_INT)
      throw new HeaderError('unreadable', 'A PNG chunk length is impossible.');
    at += 12 + length;
  }
  return false;
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
    (DEPTHS[colour]?.includes(depth) ?? false) &&
    compression === 0 &&
    filter === 0 &&
    (interlace === 0 || interlace === 1);
  if (!valid)
    throw new HeaderError('unreadable', 'The PNG header holds values PNG does not allow.');
  return { format: 'png', width, height, orientation: 1, animated: await isAnimated(reader, 33) };
}
