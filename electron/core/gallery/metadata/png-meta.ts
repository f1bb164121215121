/**
 * PNG: the XMP packet goes in an iTXt chunk with the keyword `XML:com.adobe.xmp`, and a readable
 * summary in an iTXt chunk with the keyword `parameters` (the convention image tools read), both
 * right after IHDR, so before any IDAT. Every chunk's length and CRC is checked first: a file
 * whose structure lies is refused, not repaired. The chunks already holding XMP or
 * `parameters` (from the image host) are dropped, never kept beside ours.
 */
import { crc32 } from 'node:zlib';
import { ContainerError, PieceList, fourCc, need, type EditedImage } from './container';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const XMP_KEYWORD = 'XML:com.adobe.xmp';
export const TEXT_KEYWORD = 'parameters';
const REPLACED_KEYWORDS = new Set([XMP_KEYWORD, TEXT_KEYWORD]);
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);
/** PNG's own limit on a chunk's length. */
const MAX_CHUNK = 2 ** 31 - 1;
/** More chunks than any real image has (libpng writes 8 KiB IDATs: 8,000 in 64 MiB). */
const MAX_CHUNKS = 200_000;
/** The largest text chunk whose keyword and text are read back. */
export const MAX_READ_TEXT = 1024 * 1024;

interface Chunk {
  readonly type: string;
  readonly start: number;
  /** Start of the data. */
  readonly data: number;
  readonly end: number;
}

/** Every chunk, checked for length and CRC, through IEND; throws a {@link ContainerError}. */
function chunks(bytes: Uint8Array): Chunk[] {
  if (bytes.length < 8 || !SIGNATURE.equals(bytes.subarray(0, 8))) {
    throw new ContainerError('The file does not start like a PNG image.');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const list: Chunk[] = [];
  for (let at = 8; ;) {
    if (list.length >= MAX_CHUNKS) throw new ContainerError('The PNG image has too many chunks.');
    need(at + 8, bytes.length, 'chunk header');
    const length = view.getUint32(at);
    if (length > MAX_CHUNK) throw new ContainerError('A PNG chunk declares an impossible length.');
    const type = fourCc(bytes, at + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new ContainerError('A PNG chunk has an invalid type.');
    need(at + 12 + length, bytes.length, `${type} chunk`);
    const stored = view.getUint32(at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== stored) {
      throw new ContainerError(`A PNG ${type} chunk fails its checksum.`);
    }
    if (list.length === 0 && (type !== 'IHDR' || length !== 13)) {
      throw new ContainerError('The PNG image does not start with its header chunk.');
    }
    list.push({ type, start: at, data: at + 8, end: at + 12 + length });
    at += 12 + length;
    if (type === 'IEND') return list;
  }
}

/** A text chunk's keyword (Latin-1, up to 79 bytes before its NUL), or `null`. */
function keyword(bytes: Uint8Array, chunk: Chunk): string | null {
  const limit = Math.min(chunk.end - 4, chunk.data + 80);
  const nul = bytes.subarray(chunk.data, limit).indexOf(0);
  return nul < 1
    ? null
    : Buffer.from(bytes.subarray(chunk.data, chunk.data + nul)).toString('latin1');
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An uncompressed iTXt chunk with no language tag. */
export function itxtChunk(keywordText: string, text: Uint8Array): Buffer {
  const head = Buffer.from(`${keywordText}\0\0\0\0\0`, 'latin1');
  return chunk('iTXt', Buffer.concat([head, text]));
}

/** The image with `xmp` and `summary` (UTF-8) inserted, replacing any XMP or summary it had. */
export function editPng(bytes: Uint8Array, xmp: Uint8Array, summary: Uint8Array): EditedImage {
  const list = chunks(bytes);
  const out = new PieceList(bytes);
  out.copy(0, 8);
  for (const [index, item] of list.entries()) {
    const replaced =
      TEXT_CHUNKS.has(item.type) && REPLACED_KEYWORDS.has(keyword(bytes, item) ?? '');
    if (!replaced) out.copy(item.start, item.end);
    if (index === 0) {
      out.add(itxtChunk(XMP_KEYWORD, xmp));
      out.add(itxtChunk(TEXT_KEYWORD, summary));
    }
  }
  const iend = list.at(-1);
  // Bytes after IEND are not the image's; they stay as they were.
  if (iend) out.copy(iend.end, bytes.length);
  return out.done();
}

/** The text of the first uncompressed iTXt chunk with `keywordText`, or `null`. */
export function readPngText(bytes: Uint8Array, keywordText: string): string | null {
  for (const item of chunks(bytes)) {
    if (item.type !== 'iTXt' || item.end - item.data - 4 > MAX_READ_TEXT) continue;
    if (keyword(bytes, item) !== keywordText) continue;
    const data = bytes.subarray(item.data + keywordText.length + 1, item.end - 4);
    // Compression flag 0, method, then the language tag and translated keyword (NUL-ended).
    if (data[0] !== 0) continue;
    const language = data.indexOf(0, 2);
    const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
    if (translated < 0) continue;
    return Buffer.from(data.subarray(translated + 1)).toString('utf8');
  }
  return null;
}
