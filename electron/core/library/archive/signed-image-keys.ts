/**
 * A signed image (Content Credentials) goes into an archive byte for byte: editing it would break
 * its signature, so Pictor's packet is never made again in it (gallery copy-packet.ts). Its own
 * metadata is the service's, and a hostile service may have echoed the key in it (a text chunk,
 * its XMP, its manifest); a key the user adds later may be in an image saved before. An archive
 * leaves the computer, so such an image is left out of it, and named: the library keeps it as it
 * is. An unsigned copy with the key cut out was the other way; it was not taken: a copy that no
 * longer matches its credentials would be shown in an archive as a tampered image, and cutting
 * bytes out of a file's metadata is an edit Pictor makes nowhere else.
 *
 * Everything in the file but its pixels is searched: the data of PNG's IDAT chunks, of JPEG's
 * scans (the entropy-coded bytes after each SOS header) and of WebP's image chunks (VP8, VP8L,
 * ALPH, also inside an animation's frames) is stepped over, since a scrub reads ~0.5 µs a
 * character (seconds for a large image) and pixels are no text. A PNG's compressed text (zTXt,
 * a compressed iTXt) is searched inflated too. Where the container breaks off, the rest is
 * searched whole; past a bound (a crafted file of metadata), the image counts as carrying one.
 */
import { inflateSync } from 'node:zlib';
import type { ImageKind } from '../../images';
import type { ExportKeyScrubber } from './export-scrub';

/** Characters of metadata searched at most (a few seconds of scrub on a loaded machine). */
const MAX_SEARCHED = 4 * 1024 * 1024;
/** What a compressed text chunk may inflate to. */
const MAX_INFLATED = 1024 * 1024;

/** The file's parts that are no pixel data (see the file's comment). */
function metadataParts(bytes: Buffer, kind: ImageKind): Buffer[] {
  if (kind === 'png') return pngParts(bytes);
  if (kind === 'jpeg') return jpegParts(bytes);
  return webpParts(bytes, 12, bytes.length, [bytes.subarray(0, 12)]);
}

function inflated(data: Buffer): Buffer[] {
  try {
    return [inflateSync(data, { maxOutputLength: MAX_INFLATED })];
  } catch {
    return [];
  }
}

/** A zTXt's or a compressed iTXt's text, inflated (the chunk's own bytes are searched too). */
function pngText(type: string, data: Buffer): Buffer[] {
  const keyword = data.indexOf(0);
  if (keyword < 0) return [];
  if (type === 'zTXt') return inflated(data.subarray(keyword + 2));
  if (type !== 'iTXt' || data[keyword + 1] !== 1) return [];
  const language = data.indexOf(0, keyword + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  return translated < 0 ? [] : inflated(data.subarray(translated + 1));
}

function pngParts(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) break;
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, end - 4);
    parts.push(type === 'IDAT' ? bytes.subarray(at, at + 8) : bytes.subarray(at, end));
    parts.push(...pngText(type, data));
    at = end;
  }
  parts.push(bytes.subarray(at));
  return parts;
}

/** Where a scan's entropy-coded data starting at `at` ends: its next marker (not RSTn, not FF00). */
function scanEnd(bytes: Buffer, at: number): number {
  for (let n = bytes.indexOf(0xff, at); n >= 0; n = bytes.indexOf(0xff, n + 1)) {
    const next = bytes[n + 1];
    if (next === undefined) return bytes.length;
    if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) return n;
  }
  return bytes.length;
}

function jpegParts(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    // A fill byte before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9) {
      at += 2;
      break;
    }
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length) break;
    parts.push(bytes.subarray(at, end));
    at = marker === 0xda ? scanEnd(bytes, end) : end;
  }
  parts.push(bytes.subarray(at));
  return parts;
}

const WEBP_PIXELS = new Set(['VP8 ', 'VP8L', 'ALPH']);

function webpParts(bytes: Buffer, from: number, to: number, parts: Buffer[]): Buffer[] {
  let at = from;
  while (at + 8 <= to) {
    const end = at + 8 + bytes.readUInt32LE(at + 4);
    if (end > to) break;
    const type = bytes.toString('latin1', at, at + 4);
    if (type === 'ANMF' && end - at >= 24) {
      parts.push(bytes.subarray(at, at + 24));
      webpParts(bytes, at + 24, end, parts);
    } else parts.push(WEBP_PIXELS.has(type) ? bytes.subarray(at, at + 8) : bytes.subarray(at, end));
    at = end + (end % 2);
  }
  parts.push(bytes.subarray(Math.min(at, to), to));
  return parts;
}

/**
 * Whether `bytes` (a `kind` file) may carry a key `scrub` takes out, outside its pixels: in its
 * bytes read as Latin-1 or as UTF-8 (a key spelt out in letters beyond ASCII), or in its
 * compressed text; true too for metadata past the bound.
 */
export function metadataCarriesKey(
  bytes: Buffer,
  kind: ImageKind,
  scrub: ExportKeyScrubber,
): boolean {
  const whole = Buffer.concat(metadataParts(bytes, kind));
  if (whole.length > MAX_SEARCHED) return true;
  return [whole.toString('latin1'), whole.toString('utf8')].some((text) => scrub(text) !== text);
}
