/**
 * The mask's two PNGs, encoded here without a canvas: a canvas would colour-manage, premultiply or
 * resize what a service reads pixel by pixel, and a 1-bit decision must arrive as exactly 0 or 255.
 *
 * - `white`: grayscale (colour type 0, 8-bit), 255 where the image is to be edited, 0 elsewhere
 *   (BFL's and Replicate's fill, DashScope's masked edit).
 * - `alpha`: RGBA (colour type 6, 8-bit), black, alpha 0 where edited and 255 elsewhere (the
 *   OpenAI-style edits of the demo's own dialect).
 *
 * The zlib stream comes from the caller (the page's CompressionStream, Node's zlib), or from
 * stored (uncompressed) deflate blocks, which every decoder reads. The window's mask editor and
 * the command line's --mask (converted to the convention the model reads) share this code, and
 * {@link maskCoverage}, which reads either convention back into coverage.
 */

/** Both masks of one coverage, each a whole PNG file. */
export interface MaskPngs {
  readonly white: Uint8Array;
  readonly alpha: Uint8Array;
}

/** Makes a zlib stream (RFC 1950) of `bytes`. */
export type Deflate = (bytes: Uint8Array) => Promise<Uint8Array>;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GRAY = 0;
const RGBA = 6;

/**
 * Both PNGs of `coverage` (one byte per pixel, non-zero = edit) at `width` × `height`, or null
 * when nothing is to be edited.
 */
export async function maskPngs(
  coverage: Uint8Array,
  width: number,
  height: number,
  deflate: Deflate,
): Promise<MaskPngs | null> {
  if (!coverage.some((value) => value !== 0)) return null;
  const white = rows(width, height, 1, (pixel, out, at) => {
    out[at] = coverage[pixel] ? 255 : 0;
  });
  const alpha = rows(width, height, 4, (pixel, out, at) => {
    out[at + 3] = coverage[pixel] ? 0 : 255;
  });
  const [whitePng, alphaPng] = await Promise.all([
    encodePng({ width, height, colourType: GRAY }, white, deflate),
    encodePng({ width, height, colourType: RGBA }, alpha, deflate),
  ]);
  return { white: whitePng, alpha: alphaPng };
}

/** The filtered scanlines (filter 0 before each row) of a `channels`-byte-per-pixel image. */
function rows(
  width: number,
  height: number,
  channels: number,
  write: (pixel: number, out: Uint8Array, at: number) => void,
): Uint8Array {
  const stride = width * channels + 1;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) write(y * width + x, out, y * stride + 1 + x * channels);
  }
  return out;
}

async function encodePng(
  { width, height, colourType }: { width: number; height: number; colourType: number },
  scanlines: Uint8Array,
  deflate: Deflate,
): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, colourType, 0, 0, 0], 8);
  return concat([
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', await deflate(scanlines)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** One chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let index = 0; index < 4; index += 1) out[4 + index] = type.charCodeAt(index);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Largest stored deflate block. */
const STORED_MAX = 65_535;

/** A zlib stream of `bytes` in stored (uncompressed) deflate blocks, with its Adler-32. */
export function storedDeflate(bytes: Uint8Array): Promise<Uint8Array> {
  const blocks = Math.max(1, Math.ceil(bytes.length / STORED_MAX));
  const out = new Uint8Array(2 + blocks * 5 + bytes.length + 4);
  out.set([0x78, 0x01]);
  let at = 2;
  for (let block = 0; block < blocks; block += 1) {
    const part = bytes.subarray(block * STORED_MAX, (block + 1) * STORED_MAX);
    out[at] = block === blocks - 1 ? 1 : 0;
    out[at + 1] = part.length & 0xff;
    out[at + 2] = part.length >>> 8;
    out[at + 3] = ~part.length & 0xff;
    out[at + 4] = (~part.length >>> 8) & 0xff;
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  new DataView(out.buffer).setUint32(at, adler32(bytes));
  return Promise.resolve(out);
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < bytes.length; start += 5552) {
    const end = Math.min(bytes.length, start + 5552);
    for (let index = start; index < end; index += 1) {
      a += bytes[index] ?? 0;
      b += a;
    }
    a %= 65_521;
    b %= 65_521;
  }
  return ((b << 16) | a) >>> 0;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let bit = 0; bit < 8; bit += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The parts one after another in one array. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * One byte per pixel (255 = edit) from RGBA pixels, in whichever convention they use: where the
 * image has any transparency, alpha 0 means edit (an "alpha-edit" mask); otherwise a pixel
 * brighter than 127 means edit (a white-on-black mask).
 */
export function maskCoverage(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const pixels = rgba.length >> 2;
  const coverage = new Uint8Array(pixels);
  let transparent = false;
  for (let pixel = 0; pixel < pixels && !transparent; pixel += 1) {
    transparent = (rgba[pixel * 4 + 3] ?? 255) < 255;
  }
  for (let pixel = 0; pixel < pixels; pixel += 1) {
    const at = pixel * 4;
    const edit = transparent
      ? rgba[at + 3] === 0
      : 0.299 * (rgba[at] ?? 0) + 0.587 * (rgba[at + 1] ?? 0) + 0.114 * (rgba[at + 2] ?? 0) > 127;
    coverage[pixel] = edit ? 255 : 0;
  }
  return coverage;
}
