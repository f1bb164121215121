/**
 * WebP: a RIFF file whose first chunk is a VP8 (lossy) or VP8L (lossless) bitstream, whose own
 * header gives the size, or VP8X (extended), whose canvas gives it. A still extended file's
 * bitstream must have the canvas's size (libwebp refuses one that differs: a header that lies);
 * an animated one (flag in VP8X) is kept whole, each frame inside the canvas. Orientation is 1:
 * decoders do not apply EXIF orientation to WebP.
 */
import { fourCc, le16, le24, le32, type BoundedReader } from './byte-source';
import { HeaderError, present, type ParsedHeader } from './header-parse';

const ANIMATION_FLAG = 0x02;
/** Chunks looked at after VP8X for the bitstream (ICCP, ALPH, EXIF, XMP and unknown ones). */
const MAX_CHUNKS = 64;

export function isWebp(head: Uint8Array): boolean {
  return fourCc(head, 0) === 'RIFF' && fourCc(head, 8) === 'WEBP';
}

interface Size {
  readonly width: number;
  readonly height: number;
}

interface Chunk {
  readonly id: string;
  /** Where its payload starts and how long it is. */
  readonly data: number;
  readonly size: number;
}

async function chunkAt(reader: BoundedReader, at: number, end: number): Promise<Chunk> {
  const head = present(
    at + 8 <= end ? await reader.bytes(at, 8) : null,
    'The WebP file ends inside a chunk.',
  );
  const chunk = { id: fourCc(head, 0), data: at + 8, size: le32(head, 4) };
  if (chunk.data + chunk.size > end)
    throw new HeaderError('unreadable', 'The WebP file ends inside a chunk.');
  return chunk;
}

/** The size a VP8 or VP8L bitstream's own header gives, or `null` for any other chunk. */
async function bitstreamSize(reader: BoundedReader, chunk: Chunk): Promise<Size | null> {
  if (chunk.id === 'VP8 ') {
    const b = present(
      chunk.size >= 10 ? await reader.bytes(chunk.data, 10) : null,
      'The WebP lossy header is too short.',
    );
    const keyframe = ((b[0] ?? 1) & 1) === 0;
    const startCode = b[3] === 0x9d && b[4] === 0x01 && b[5] === 0x2a;
    if (!keyframe || !startCode)
      throw new HeaderError(
        'unreadable',
        'The WebP lossy bitstream does not start with a key frame.',
      );
    return { width: le16(b, 6) & 0x3fff, height: le16(b, 8) & 0x3fff };
  }
  if (chunk.id === 'VP8L') {
    const b = present(
      chunk.size >= 5 ? await reader.bytes(chunk.data, 5) : null,
      'The WebP lossless header is too short.',
    );
    const bits = le32(b, 1);
    if (b[0] !== 0x2f || bits >>> 29 !== 0)
      throw new HeaderError('unreadable', 'The WebP lossless header is not valid.');
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

/** The bitstream of a still extended file: the first VP8 or VP8L chunk after VP8X. */
async function stillBitstream(reader: BoundedReader, from: number, end: number): Promise<Size> {
  let at = from;
  for (let seen = 0; seen < MAX_CHUNKS; seen += 1) {
    const chunk = await chunkAt(reader, at, end);
    const size = await bitstreamSize(reader, chunk);
    if (size) return size;
    at = chunk.data + chunk.size + (chunk.size % 2);
  }
  throw new HeaderError('unreadable', 'The WebP file has no image data where it must be.');
}

export async function readWebpHeader(reader: BoundedReader): Promise<ParsedHeader> {
  const riff = present(await reader.bytes(0, 12), 'The WebP file ends inside its header.');
  // Bytes after the RIFF's declared end are not the image's; a declared end past the file is.
  const end = le32(riff, 4) + 8;
  if (end > reader.size)
    throw new HeaderError('unreadable', 'The WebP file is shorter than it declares.');
  const first = await chunkAt(reader, 12, end);
  let size: Size;
  let animated = false;
  if (first.id === 'VP8X') {
    const x = present(
      first.size >= 10 ? await reader.bytes(first.data, 10) : null,
      'The WebP extended header is too short.',
    );
    const canvas = { width: le24(x, 4) + 1, height: le24(x, 7) + 1 };
    animated = ((x[0] ?? 0) & ANIMATION_FLAG) !== 0;
    if (!animated) {
      const inner = await stillBitstream(reader, first.data + first.size + (first.size % 2), end);
      if (inner.width !== canvas.width || inner.height !== canvas.height) {
        throw new HeaderError(
          'unreadable',
          'The WebP canvas and its image disagree about the size.',
        );
      }
    }
    size = canvas;
  } else {
    size = present(
      await bitstreamSize(reader, first),
      'The WebP file does not start with image data.',
    );
  }
  if (size.width === 0 || size.height === 0)
    throw new HeaderError('no_size', 'The WebP image says it has no pixels.');
  return { format: 'webp', ...size, orientation: 1, animated };
}
