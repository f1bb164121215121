/**
 * An image file cut into its container's parts, for the search of a held key in its metadata
 * (metadata-keys.ts): each part says which of its bytes are searched, whether it may be left out
 * of the file with the pixels untouched, and whether it holds Content Credentials.
 *
 * Pixels are no text and a scrub reads ~0.5 µs a character (seconds for a large image), so the
 * data of PNG's IDAT/fdAT chunks, of JPEG's scans (the entropy-coded bytes after each SOS header)
 * and of WebP's image chunks (VP8, VP8L, ALPH, also inside an animation's frames) is stepped over:
 * only their headers are searched. A PNG's compressed chunks (zTXt, a compressed iTXt, the ICC
 * profile of an iCCP) are searched inflated too, a stream cut short as far as it goes (what a
 * streaming reader such as Python's zlib or Pillow shows of it); one that cannot be read whole
 * within MAX_INFLATED (it inflates past it, or its data is broken) is `unread`: a key may be in
 * what a more lenient reader or a larger bound finds (exiftool reads a zTXt of any size), so it
 * counts as carrying one. Where the container breaks off, the rest is searched whole and cannot
 * be left out. Past {@link MAX_PARTS} parts (no real encoder's file: a crafted one of millions of
 * empty chunks or markers cost a part object and a view each, ~0.9 µs, seconds for a 64 MB file)
 * the walk stops: the rest is one part, unsearched, that cannot be left out and is `unread`, so
 * such a file counts as carrying a key and cannot be made clean (metadata-keys.ts refuses it).
 *
 * What may be left out: a PNG's ancillary chunks (but an animation's acTL/fcTL/fdAT), a JPEG's
 * APPn and COM segments, a WebP's chunks other than its image, frame and header chunks, and
 * whatever follows the image's end (IEND, EOI). An EXIF block left out keeps its orientation in
 * its place (metadata-orientation.ts).
 */
import { constants, inflateSync } from 'node:zlib';
import type { ImageKind } from './image-sniff';
import { jpegJumbfSegment } from './jumbf-box';

/** What a compressed chunk may inflate to. */
const MAX_INFLATED = 1024 * 1024;
/**
 * What all of a file's compressed chunks may inflate to together: the search's own bound
 * (metadata-keys.ts' MAX_SEARCHED, past which a file counts as carrying a key anyway). A chunk
 * that would take the file past it is `unread`, not inflated: one kilobyte of zTXt inflates to a
 * megabyte, so a 640 KB file of 600 of them held ~800 MB and took 1.5 s of CPU, and the 64 MB
 * a file may be (GALLERY_MAX_IMAGE_BYTES) tens of gigabytes.
 */
const MAX_INFLATED_TOTAL = 4 * 1024 * 1024;

/**
 * The parts a file's walk makes at most (also the chunks or segments metadata-outline.ts reads).
 * Real encoders write far fewer: libpng's 8 KiB IDAT chunks make 8,192 of a 64 MiB file (the most
 * an image may be, GALLERY_MAX_IMAGE_BYTES), a JPEG a few dozen segments and scans, a WebP a few
 * chunks (an animation two a frame). 1 KiB chunks all through a 64 MiB file still fit.
 */
export const MAX_PARTS = 65_536;

export interface MetadataPart {
  /** The part's bytes in the file: [start, end). */
  readonly start: number;
  readonly end: number;
  /** The bytes searched: the whole part, only its header (pixels), and any text inflated. */
  readonly searched: readonly Buffer[];
  /** Whether the file stays the same image without it. */
  readonly removable: boolean;
  /** Whether it holds Content Credentials (PNG caBX, a JPEG's JUMBF box labelled or not, WebP C2PA). */
  readonly credentials: boolean;
  /**
   * It could not be read whole (see the file's comment): compressed data past its bound, or the
   * rest of a file past {@link MAX_PARTS}; taken as a key's.
   */
  readonly unread: boolean;
}

function part(
  bytes: Buffer,
  start: number,
  end: number,
  how: {
    searchedEnd?: number;
    removable?: boolean;
    credentials?: boolean;
    more?: Buffer[];
    unread?: boolean;
  } = {},
): MetadataPart {
  return {
    start,
    end,
    searched: [bytes.subarray(start, how.searchedEnd ?? end), ...(how.more ?? [])],
    removable: how.removable ?? false,
    credentials: how.credentials ?? false,
    unread: how.unread ?? false,
  };
}

/** The rest of a file whose walk reached {@link MAX_PARTS}: one part, unsearched, `unread`. */
const rest = (bytes: Buffer, at: number, end: number) =>
  part(bytes, at, end, { searchedEnd: at, unread: true });

/**
 * A compressed stream inflated: as far as it goes when cut short, `null` when it inflates past
 * `maxBytes` or its data is broken (a reader may still find text in it).
 */
function inflated(data: Buffer, maxBytes: number): Buffer | null {
  if (maxBytes < 1) return null;
  try {
    return inflateSync(data, {
      maxOutputLength: maxBytes,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch {
    return null;
  }
}

/**
 * The compressed stream of a PNG chunk: a zTXt's or a compressed iTXt's text, an iCCP's profile
 * (zTXt and iCCP: a name, NUL, the method byte, the stream); undefined for any other chunk.
 */
function compressedOf(type: string, data: Buffer): Buffer | undefined {
  const keyword = data.indexOf(0);
  if (keyword < 0) return undefined;
  if (type === 'zTXt' || type === 'iCCP') return data.subarray(keyword + 2);
  if (type !== 'iTXt' || data[keyword + 1] !== 1) return undefined;
  const language = data.indexOf(0, keyword + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  return translated < 0 ? undefined : data.subarray(translated + 1);
}

/**
 * What a PNG chunk's compressed data adds to its search (the chunk's own bytes are searched too),
 * inflated within `budget.left` bytes, which it uses up.
 */
function pngInflated(
  type: string,
  data: Buffer,
  budget: { left: number },
): { more?: Buffer[]; unread?: boolean } {
  const compressed = compressedOf(type, data);
  if (compressed === undefined) return {};
  const text = inflated(compressed, Math.min(MAX_INFLATED, budget.left));
  if (text === null) return { unread: true };
  budget.left -= text.length;
  return { more: [text] };
}

/** An animated PNG's chunks: ancillary by their names, but the animation needs them. */
const PNG_ANIMATION = new Set(['acTL', 'fcTL', 'fdAT']);

function pngParts(bytes: Buffer): MetadataPart[] {
  const parts = [part(bytes, 0, 8)];
  const budget = { left: MAX_INFLATED_TOTAL };
  let at = 8;
  let ended = false;
  while (!ended && at + 12 <= bytes.length) {
    if (parts.length >= MAX_PARTS) {
      parts.push(rest(bytes, at, bytes.length));
      return parts;
    }
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) break;
    const type = bytes.toString('latin1', at + 4, at + 8);
    const pixels = type === 'IDAT' || type === 'fdAT';
    // An ancillary chunk's name starts with a small letter (PNG 5.4).
    const ancillary = (bytes[at + 4] ?? 0) >= 0x61 && !PNG_ANIMATION.has(type);
    parts.push(
      part(bytes, at, end, {
        ...(pixels ? { searchedEnd: at + 8 } : {}),
        removable: ancillary,
        credentials: type === 'caBX',
        ...pngInflated(type, bytes.subarray(at + 8, end - 4), budget),
      }),
    );
    ended = type === 'IEND';
    at = end;
  }
  if (at < bytes.length) parts.push(part(bytes, at, bytes.length, { removable: ended }));
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

/**
 * The APP11 parts of a JPEG that hold Content Credentials: every segment of a JUMBF box, labelled
 * `c2pa` or not, however its segments came (out of order, repeated, missing, lengths that
 * disagree): the walk that finds credentials counts each such box (jumbf-box.ts' one meaning), so
 * the removal takes each whole or not at all, and says the credentials went. Any other APP11
 * (another use of the marker, a segment that opens no `jumb` box) is ordinary metadata.
 */
function jpegCredentials(bytes: Buffer, app11: readonly MetadataPart[]): Set<MetadataPart> {
  return new Set(
    app11.filter((each) => jpegJumbfSegment(bytes.subarray(each.start + 4, each.end)) !== null),
  );
}

function jpegParts(bytes: Buffer): MetadataPart[] {
  const app11: MetadataPart[] = [];
  const parts = jpegWalk(bytes, app11);
  const credentials = jpegCredentials(bytes, app11);
  return parts.map((each) => (credentials.has(each) ? { ...each, credentials: true } : each));
}

/** The JPEG's parts; its APP11 segments' parts put in `app11` too. */
function jpegWalk(bytes: Buffer, app11: MetadataPart[]): MetadataPart[] {
  const parts = [part(bytes, 0, 2)];
  let at = 2;
  let ended = false;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    if (parts.length >= MAX_PARTS) {
      parts.push(rest(bytes, at, bytes.length));
      return parts;
    }
    const marker = bytes[at + 1] ?? 0;
    // A fill byte before a marker: kept with the marker's part.
    if (marker === 0xff) {
      parts.push(part(bytes, at, at + 1));
      at += 1;
      continue;
    }
    if (marker === 0xd9) {
      parts.push(part(bytes, at, at + 2));
      at += 2;
      ended = true;
      break;
    }
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length) break;
    const app = marker >= 0xe0 && marker <= 0xef;
    if (marker === 0xda) {
      const scan = scanEnd(bytes, end);
      parts.push(part(bytes, at, scan, { searchedEnd: end }));
      at = scan;
    } else {
      const segment = part(bytes, at, end, { removable: app || marker === 0xfe });
      parts.push(segment);
      if (marker === 0xeb) app11.push(segment);
      at = end;
    }
  }
  if (at < bytes.length) parts.push(part(bytes, at, bytes.length, { removable: ended }));
  return parts;
}

const WEBP_PIXELS = new Set(['VP8 ', 'VP8L', 'ALPH']);
/** A WebP's chunks the image needs (the rest is metadata: EXIF, XMP, ICCP, C2PA, unknown). */
const WEBP_STRUCTURE = new Set(['VP8X', 'ANIM', 'ANMF', ...WEBP_PIXELS]);

/**
 * The WebP chunks in [from, to) of `bytes` put in `parts`; false when the walk reached
 * {@link MAX_PARTS} (the rest of the file is then one part).
 */
function webpParts(
  bytes: Buffer,
  parts: MetadataPart[],
  range: { from: number; to: number },
  inFrame: boolean,
): boolean {
  const { to } = range;
  let at = range.from;
  while (at + 8 <= to) {
    if (parts.length >= MAX_PARTS) {
      parts.push(rest(bytes, at, bytes.length));
      return false;
    }
    const end = at + 8 + bytes.readUInt32LE(at + 4);
    if (end > to) break;
    const type = bytes.toString('latin1', at, at + 4);
    const next = Math.min(end + (end % 2), to);
    if (type === 'ANMF' && end - at >= 24) {
      parts.push(part(bytes, at, at + 24));
      if (!webpParts(bytes, parts, { from: at + 24, to: end }, true)) return false;
      if (next > end) parts.push(part(bytes, end, next));
    } else {
      const pixels = WEBP_PIXELS.has(type);
      parts.push(
        part(bytes, at, next, {
          ...(pixels ? { searchedEnd: at + 8 } : {}),
          removable: !inFrame && !WEBP_STRUCTURE.has(type),
          credentials: type === 'C2PA',
        }),
      );
    }
    at = next;
  }
  if (at < to) parts.push(part(bytes, at, to));
  return true;
}

/** The parts of `bytes`, a `kind` image, in the file's order, end to end. */
export function metadataParts(bytes: Buffer, kind: ImageKind): MetadataPart[] {
  if (kind === 'png') return pngParts(bytes);
  if (kind === 'jpeg') return jpegParts(bytes);
  const parts = [part(bytes, 0, Math.min(12, bytes.length))];
  webpParts(bytes, parts, { from: 12, to: bytes.length }, false);
  return parts;
}
