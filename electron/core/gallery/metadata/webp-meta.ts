/**
 * WebP: the XMP packet goes in a RIFF `XMP ` chunk at the end. A simple file (one VP8 or VP8L
 * chunk) only holds metadata once it is extended: a VP8X chunk goes first, with the XMP flag and
 * the canvas size read from the bitstream's own header. An extended file gets the XMP flag set.
 * The RIFF size must match the file exactly (a lying size is refused) and is rewritten.
 * `XMP ` chunks already there (from the image host) are dropped.
 */
import { ContainerError, PieceList, fourCc, need, type EditedImage } from './container';

/** More chunks than any real image has (an animation has one per frame). */
const MAX_CHUNKS = 100_000;
const MAX_RIFF = 0xfffffffe;
const XMP_FLAG = 0x04;
const ALPHA_FLAG = 0x10;
/** The largest XMP chunk that is read back. */
export const MAX_READ_XMP = 1024 * 1024;

interface Chunk {
  readonly id: string;
  readonly start: number;
  readonly data: number;
  readonly size: number;
  /** After the pad byte. */
  readonly end: number;
}

function chunks(bytes: Uint8Array): Chunk[] {
  if (bytes.length < 12 || fourCc(bytes, 0) !== 'RIFF' || fourCc(bytes, 8) !== 'WEBP') {
    throw new ContainerError('The file does not start like a WebP image.');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 !== bytes.length) {
    throw new ContainerError('The WebP file size does not match the size it declares.');
  }
  const list: Chunk[] = [];
  for (let at = 12; at < bytes.length;) {
    if (list.length >= MAX_CHUNKS) throw new ContainerError('The WebP image has too many chunks.');
    need(at + 8, bytes.length, 'chunk header');
    const id = fourCc(bytes, at);
    if (!/^[\x20-\x7e]{4}$/.test(id)) throw new ContainerError('A WebP chunk has an invalid name.');
    const size = view.getUint32(at + 4, true);
    const end = at + 8 + size + (size % 2);
    need(end, bytes.length, `${id.trim()} chunk`);
    list.push({ id, start: at, data: at + 8, size, end });
    at = end;
  }
  return list;
}

/** Width, height and alpha of a simple file's bitstream; throws when its header is not valid. */
function canvas(
  bytes: Uint8Array,
  chunk: Chunk,
): { width: number; height: number; alpha: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset + chunk.data, chunk.size);
  if (chunk.id === 'VP8 ' && chunk.size >= 10) {
    const keyframe = ((bytes[chunk.data] ?? 1) & 1) === 0;
    const start =
      bytes[chunk.data + 3] === 0x9d &&
      bytes[chunk.data + 4] === 0x01 &&
      bytes[chunk.data + 5] === 0x2a;
    if (keyframe && start) {
      return {
        width: view.getUint16(6, true) & 0x3fff,
        height: view.getUint16(8, true) & 0x3fff,
        alpha: false,
      };
    }
  }
  if (chunk.id === 'VP8L' && chunk.size >= 5 && bytes[chunk.data] === 0x2f) {
    const bits = view.getUint32(1, true);
    return {
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      alpha: ((bits >>> 28) & 1) === 1,
    };
  }
  throw new ContainerError('The WebP image data does not start with a valid header.');
}

function vp8x(flags: number, width: number, height: number): Buffer {
  if (width < 1 || height < 1) throw new ContainerError('The WebP image says it has no pixels.');
  const out = Buffer.alloc(18);
  out.write('VP8X', 0, 'latin1');
  out.writeUInt32LE(10, 4);
  out[8] = flags;
  out.writeUIntLE(width - 1, 12, 3);
  out.writeUIntLE(height - 1, 15, 3);
  return out;
}

function xmpChunk(xmp: Uint8Array): Buffer {
  const out = Buffer.alloc(8 + xmp.length + (xmp.length % 2));
  out.write('XMP ', 0, 'latin1');
  out.writeUInt32LE(xmp.length, 4);
  out.set(xmp, 8);
  return out;
}

/** The image with `xmp` in place of any XMP it had, extended to VP8X when it was simple. */
export function editWebp(bytes: Uint8Array, xmp: Uint8Array): EditedImage {
  const list = chunks(bytes);
  const first = list[0];
  if (!first) throw new ContainerError('The WebP image has no image data.');
  const out = new PieceList(bytes);
  out.add(Buffer.alloc(12));
  if (first.id === 'VP8X') {
    if (first.size < 10) throw new ContainerError('The WebP extended header is too short.');
    const header = Buffer.from(bytes.subarray(first.start, first.end));
    header[8] = (header[8] ?? 0) | XMP_FLAG;
    out.add(header);
  } else {
    const { width, height, alpha } = canvas(bytes, first);
    out.add(vp8x(XMP_FLAG | (alpha ? ALPHA_FLAG : 0), width, height));
    out.copy(first.start, first.end);
  }
  for (const chunk of list.slice(1)) if (chunk.id !== 'XMP ') out.copy(chunk.start, chunk.end);
  out.add(xmpChunk(xmp));
  const edited = out.done();
  if (edited.length - 8 > MAX_RIFF) throw new ContainerError('The WebP image would be too big.');
  const riff = edited.pieces[0] as Buffer;
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(edited.length - 8, 4);
  riff.write('WEBP', 8, 'latin1');
  return edited;
}

/** The first `XMP ` chunk's packet, or `null`. */
export function readWebpXmp(bytes: Uint8Array): string | null {
  const chunk = chunks(bytes).find((item) => item.id === 'XMP ' && item.size <= MAX_READ_XMP);
  return chunk
    ? Buffer.from(bytes.subarray(chunk.data, chunk.data + chunk.size)).toString('utf8')
    : null;
}

/**
 * The canvas size of a WebP file (its VP8X header, or the bitstream's of a simple file); throws a
 * {@link ContainerError} when the file is not a well-formed WebP.
 */
export function readWebpCanvas(bytes: Uint8Array): { width: number; height: number } {
  const first = chunks(bytes)[0];
  if (!first) throw new ContainerError('The WebP image has no image data.');
  if (first.id !== 'VP8X') return canvas(bytes, first);
  if (first.size < 10) throw new ContainerError('The WebP extended header is too short.');
  const view = new DataView(bytes.buffer, bytes.byteOffset + first.data, first.size);
  const uint24 = (at: number): number => view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
  return { width: uint24(4) + 1, height: uint24(7) + 1 };
}
