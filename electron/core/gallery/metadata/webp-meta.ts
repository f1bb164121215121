/**
 * WebP: the XMP packet goes in a RIFF `XMP ` chunk at the end. A simple file (one VP8 or VP8L
 * chunk) only holds metadata once it is extended: a VP8X chunk goes first, with the XMP flag and
 * the canvas size read from the bitstream's own header. An extended file gets the XMP flag set.
 * The RIFF size must match the file exactly (a lying size is refused) and is rewritten.
 * `XMP ` chunks already there (from the image host) are dropped. Chunks are walked by their
 * headers; their data is copied, never read whole.
 */
import { ContainerError, PlanBuilder, fourCc, got, need, type EditPlan } from './container';
import { bufferReader, type RangeReader } from './range-reader';

/** More chunks than any real image has (an animation has one per frame). */
const MAX_CHUNKS = 100_000;
const MAX_RIFF = 0xfffffffe;
const XMP_FLAG = 0x04;
const ALPHA_FLAG = 0x10;
/** The largest XMP chunk that is read back. */
const MAX_READ_XMP = 1024 * 1024;

interface Chunk {
  readonly id: string;
  readonly start: number;
  readonly data: number;
  readonly size: number;
  /** After the pad byte. */
  readonly end: number;
}

async function* chunks(reader: RangeReader): AsyncGenerator<Chunk> {
  const riff = await reader.bytes(0, 12);
  if (!riff || fourCc(riff, 0) !== 'RIFF' || fourCc(riff, 8) !== 'WEBP') {
    throw new ContainerError('The file does not start like a WebP image.');
  }
  if (Buffer.from(riff).readUInt32LE(4) + 8 !== reader.size) {
    throw new ContainerError('The WebP file size does not match the size it declares.');
  }
  for (let at = 12, count = 0; at < reader.size; count += 1) {
    if (count >= MAX_CHUNKS) throw new ContainerError('The WebP image has too many chunks.');
    const head = Buffer.from(got(await reader.bytes(at, 8), 'chunk header'));
    const id = fourCc(head, 0);
    if (!/^[\x20-\x7e]{4}$/.test(id)) throw new ContainerError('A WebP chunk has an invalid name.');
    const size = head.readUInt32LE(4);
    const end = at + 8 + size + (size % 2);
    need(end, reader.size, `${id.trim()} chunk`);
    yield { id, start: at, data: at + 8, size, end };
    at = end;
  }
}

/** Width, height and alpha of a simple file's bitstream; throws when its header is not valid. */
async function canvas(
  reader: RangeReader,
  chunk: Chunk,
): Promise<{ width: number; height: number; alpha: boolean }> {
  const head = Buffer.from((await reader.bytes(chunk.data, Math.min(10, chunk.size))) ?? []);
  if (chunk.id === 'VP8 ' && head.length >= 10) {
    const keyframe = ((head[0] ?? 1) & 1) === 0;
    const start = head[3] === 0x9d && head[4] === 0x01 && head[5] === 0x2a;
    if (keyframe && start) {
      return {
        width: head.readUInt16LE(6) & 0x3fff,
        height: head.readUInt16LE(8) & 0x3fff,
        alpha: false,
      };
    }
  }
  if (chunk.id === 'VP8L' && head.length >= 5 && head[0] === 0x2f) {
    const bits = head.readUInt32LE(1);
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

/**
 * The extended header, planned at the first chunk: the image's own VP8X with the XMP flag set
 * (`true`: the chunk is planned), or a new one before a simple image's first chunk (`false`: the
 * chunk itself is still to copy).
 */
async function planHeader(reader: RangeReader, chunk: Chunk, out: PlanBuilder): Promise<boolean> {
  if (chunk.id === 'VP8X') {
    if (chunk.size < 10) throw new ContainerError('The WebP extended header is too short.');
    // Its first 18 bytes with the flag set; anything it carries beyond them is copied.
    const header = Buffer.from(got(await reader.bytes(chunk.start, 18), 'VP8X chunk'));
    header[8] = (header[8] ?? 0) | XMP_FLAG;
    out.add(header);
    out.copy(chunk.start + 18, chunk.end);
    return true;
  }
  const { width, height, alpha } = await canvas(reader, chunk);
  out.add(vp8x(XMP_FLAG | (alpha ? ALPHA_FLAG : 0), width, height));
  return false;
}

/** The plan of the image with `xmp` in place of any XMP, extended to VP8X when it was simple. */
export async function planWebp(reader: RangeReader, xmp: Uint8Array): Promise<EditPlan> {
  const out = new PlanBuilder();
  const riff = Buffer.alloc(12);
  out.add(riff);
  let first = true;
  for await (const chunk of chunks(reader)) {
    const headed = first && (await planHeader(reader, chunk, out));
    first = false;
    if (!headed && chunk.id !== 'XMP ') out.copy(chunk.start, chunk.end);
  }
  if (first) throw new ContainerError('The WebP image has no image data.');
  out.add(xmpChunk(xmp));
  const plan = out.done();
  if (plan.length - 8 > MAX_RIFF) throw new ContainerError('The WebP image would be too big.');
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(plan.length - 8, 4);
  riff.write('WEBP', 8, 'latin1');
  return plan;
}

/** The first `XMP ` chunk's packet, or `null`. */
export async function readWebpXmp(reader: RangeReader): Promise<string | null> {
  for await (const chunk of chunks(reader)) {
    if (chunk.id !== 'XMP ' || chunk.size > MAX_READ_XMP) continue;
    return Buffer.from(got(await reader.bytes(chunk.data, chunk.size), 'XMP chunk')).toString(
      'utf8',
    );
  }
  return null;
}

/**
 * The canvas size of a WebP file (its VP8X header, or the bitstream's of a simple file); throws a
 * {@link ContainerError} when the file is not a well-formed WebP.
 */
export async function readWebpCanvas(
  bytes: Uint8Array,
): Promise<{ width: number; height: number }> {
  const reader = bufferReader(bytes);
  for await (const first of chunks(reader)) {
    if (first.id !== 'VP8X') return canvas(reader, first);
    const head = got(first.size >= 10 ? await reader.bytes(first.data, 10) : null, 'VP8X chunk');
    const uint24 = (at: number) =>
      (head[at] ?? 0) | ((head[at + 1] ?? 0) << 8) | ((head[at + 2] ?? 0) << 16);
    return { width: uint24(4) + 1, height: uint24(7) + 1 };
  }
  throw new ContainerError('The WebP image has no image data.');
}
