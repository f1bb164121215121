/**
 * PNG: the XMP packet goes in an iTXt chunk with the keyword `XML:com.adobe.xmp`, and a readable
 * summary in an iTXt chunk with the keyword `parameters` (the convention image tools read), both
 * right after IHDR, so before any IDAT. Every chunk's length and CRC is checked first (the CRC a
 * window at a time, never the chunk whole): a file whose structure lies is refused, not repaired.
 * The chunks already holding XMP or `parameters` (from the image host) are dropped, never kept
 * beside ours.
 */
import { crc32 } from 'node:zlib';
import { ContainerError, PlanBuilder, fourCc, got, need, type EditPlan } from './container';
import { WINDOW_BYTES, type RangeReader } from './range-reader';

export const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const XMP_KEYWORD = 'XML:com.adobe.xmp';
const TEXT_KEYWORD = 'parameters';
export const REPLACED_KEYWORDS = new Set([XMP_KEYWORD, TEXT_KEYWORD]);
export const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);
/** PNG's own limit on a chunk's length. */
export const MAX_CHUNK = 2 ** 31 - 1;
/** More chunks than any real image has (libpng writes 8 KiB IDATs: 8,000 in 64 MiB). */
export const MAX_CHUNKS = 200_000;
/** How much of a text chunk's data its keyword is read from. */
export const KEYWORD_BYTES = 80;
/** The largest text chunk whose keyword and text are read back. */
export const MAX_READ_TEXT = 1024 * 1024;

interface Chunk {
  readonly type: string;
  readonly start: number;
  /** Start of the data. */
  readonly data: number;
  readonly end: number;
  /** A text chunk's keyword (Latin-1, before its NUL), else `null`. */
  readonly keyword: string | null;
}

async function checkCrc(reader: RangeReader, at: number, length: number, type: string) {
  let crc = 0;
  for (let from = at + 4; from < at + 8 + length; from += WINDOW_BYTES) {
    const part = got(
      await reader.bytes(from, Math.min(WINDOW_BYTES, at + 8 + length - from)),
      `${type} chunk`,
    );
    crc = crc32(part, crc);
  }
  const stored = got(await reader.bytes(at + 8 + length, 4), `${type} chunk`);
  if (crc !== Buffer.from(stored).readUInt32BE(0)) {
    throw new ContainerError(`A PNG ${type} chunk fails its checksum.`);
  }
}

/** A text chunk's keyword, read from the first {@link KEYWORD_BYTES} of its data, or null. */
export function keywordIn(head: Uint8Array): string | null {
  const nul = head.indexOf(0);
  return nul < 1 ? null : Buffer.from(head.subarray(0, nul)).toString('latin1');
}

async function keywordOf(
  reader: RangeReader,
  data: number,
  length: number,
): Promise<string | null> {
  return keywordIn(got(await reader.bytes(data, Math.min(KEYWORD_BYTES, length)), 'text chunk'));
}

/** Every chunk, checked for length and CRC, through IEND; throws a {@link ContainerError}. */
async function* chunks(reader: RangeReader): AsyncGenerator<Chunk> {
  const signature = await reader.bytes(0, 8);
  if (!signature || !SIGNATURE.equals(signature)) {
    throw new ContainerError('The file does not start like a PNG image.');
  }
  for (let at = 8, count = 0; ; count += 1) {
    if (count >= MAX_CHUNKS) throw new ContainerError('The PNG image has too many chunks.');
    const head = Buffer.from(got(await reader.bytes(at, 8), 'chunk header'));
    const length = head.readUInt32BE(0);
    if (length > MAX_CHUNK) throw new ContainerError('A PNG chunk declares an impossible length.');
    const type = fourCc(head, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new ContainerError('A PNG chunk has an invalid type.');
    need(at + 12 + length, reader.size, `${type} chunk`);
    await checkCrc(reader, at, length, type);
    if (count === 0 && (type !== 'IHDR' || length !== 13)) {
      throw new ContainerError('The PNG image does not start with its header chunk.');
    }
    const keyword = TEXT_CHUNKS.has(type) ? await keywordOf(reader, at + 8, length) : null;
    yield { type, start: at, data: at + 8, end: at + 12 + length, keyword };
    at += 12 + length;
    if (type === 'IEND') return;
  }
}

/** A PNG chunk of `type` holding `data`, its CRC computed. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An uncompressed iTXt chunk with no language tag. */
function itxtChunk(keywordText: string, text: Uint8Array): Buffer {
  const head = Buffer.from(`${keywordText}\0\0\0\0\0`, 'latin1');
  return pngChunk('iTXt', Buffer.concat([head, text]));
}

/** The chunks Pictor puts right after IHDR: the XMP packet, then the summary (UTF-8). */
export function provenanceChunks(xmp: Uint8Array, summary: Uint8Array): Buffer {
  return Buffer.concat([itxtChunk(XMP_KEYWORD, xmp), itxtChunk(TEXT_KEYWORD, summary)]);
}

/**
 * The plan of the image with `inserted` ({@link provenanceChunks}) right after IHDR, replacing
 * any XMP or summary it had.
 */
export async function planPng(reader: RangeReader, inserted: Uint8Array): Promise<EditPlan> {
  const out = new PlanBuilder();
  out.copy(0, 8);
  let end = 8;
  for await (const item of chunks(reader)) {
    if (!REPLACED_KEYWORDS.has(item.keyword ?? '')) out.copy(item.start, item.end);
    if (item.type === 'IHDR') out.add(inserted);
    end = item.end;
  }
  // Bytes after IEND are not the image's; they stay as they were.
  out.copy(end, reader.size);
  return out.done();
}

/** The text of the first uncompressed iTXt chunk with `keywordText`, or `null`. */
export async function readPngText(
  reader: RangeReader,
  keywordText: string,
): Promise<string | null> {
  for await (const item of chunks(reader)) {
    if (item.type !== 'iTXt' || item.keyword !== keywordText) continue;
    if (item.end - item.data - 4 > MAX_READ_TEXT) continue;
    const data = got(
      await reader.bytes(
        item.data + keywordText.length + 1,
        item.end - 4 - item.data - keywordText.length - 1,
      ),
      'text chunk',
    );
    // Compression flag 0, method, then the language tag and translated keyword (NUL-ended).
    if (data[0] !== 0) continue;
    const language = data.indexOf(0, 2);
    const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
    if (translated < 0) continue;
    return Buffer.from(data.subarray(translated + 1)).toString('utf8');
  }
  return null;
}
