/**
 * A held key in an image's own metadata: the one search (an export's signed images:
 * library/archive/export-library.ts; every image the gallery keeps: download/key-intake.ts), and
 * the one removal. A hostile service may echo the user's key in a text chunk, an EXIF or XMP
 * block, a comment or a manifest, in any encoding the key finder knows (secrets/key-echo.ts);
 * the file's parts (metadata-parts.ts) are searched, pixels stepped over.
 *
 * The removal leaves out every part that carries a key and may be left out (the pixels are never
 * touched, nor the container's structure), and makes the container whole again (a WebP's RIFF
 * size and VP8X flags); a key still in what is left (spelt across two parts) takes every part
 * that may go with it. A signed image (Content Credentials) that loses any part no longer
 * matches its signature and would show as tampered: its credentials are left out with it, and
 * the caller says so. An EXIF block left out leaves its orientation in its place (a minimal block
 * holding only that: metadata-orientation.ts), so the image shows turned as it was. Past the
 * search's bound (a crafted file of metadata), every part that may be left out is, unsearched; a
 * part whose compressed text cannot be read whole (`unread`: metadata-parts.ts) is left out as one
 * that carries a key; a key still in what is left (in a structure part: a PNG's palette, say) is a
 * file that cannot be kept, as is one of more parts than a real image has (its rest is `unread`
 * and stays: metadata-parts.ts' MAX_PARTS).
 */
import { type MetadataPart, metadataParts } from './metadata-parts';
import { orientationStandIn } from './metadata-orientation';
import type { ImageKind } from './image-sniff';
import { KEY_RUN } from '../secrets';

/** Text with every key the process holds scrubbed out (secrets/key-echo-many.ts). */
export type MetadataKeyScrubber = (text: string) => string;

/** Characters of metadata searched at most (a few seconds of scrub on a loaded machine). */
const MAX_SEARCHED = 4 * 1024 * 1024;

function searchedOf(parts: readonly MetadataPart[]): Buffer {
  return Buffer.concat(parts.flatMap((each) => each.searched));
}

/**
 * An empty pixel chunk's searched bytes in an outline (metadata-outline.ts, png-stream.ts): its
 * zero length and its type. An 8 MB PNG written in 8 KB IDAT chunks has ~1,000 of them in a row.
 */
const EMPTY_IDAT = Buffer.from('\0\0\0\0IDAT', 'latin1');

/**
 * How many of a run of {@link EMPTY_IDAT} are searched: the search finds exactly what it finds in
 * the whole run. Every view of the text (secrets/key-echo-views.ts) reads the run as the text
 * before it, one piece repeated, and the text after it: its NULs are invisible (dropped), so the
 * raw and unescaped views read `IDAT` repeated; an escape begun before the run reads at most 19 of
 * its letters (a named entity's name) and none of them completes one (no `;`, `+`, `{` nor a
 * hex digit first), and none begins inside it; base64 reads it as a run of digits joined to the
 * digits around it, 3 bytes a copy from the same phase, hex as one byte (`DA`) a copy or nothing;
 * the JSON values hold it whole or not at all (no quote or backslash in it); the spaced view
 * reads `IDAT` a copy. A match is a window of at most KEY_RUN characters of one view: with the
 * piece repeated at least KEY_RUN times (a piece is at least one character) and its letters
 * longer than an entity's name, no window can reach across the run, and every window inside it
 * or at its edges is in the shorter run too. Twice that, for margin.
 */
const EMPTY_IDAT_KEPT = 2 * KEY_RUN;

/**
 * The bytes the search reads ({@link searchedOf}), with each run of more than
 * {@link EMPTY_IDAT_KEPT} empty pixel chunks cut to that many, and the length of the whole (the
 * bound is the whole's).
 */
function searchedCompacted(parts: readonly MetadataPart[]): { bytes: Buffer; length: number } {
  const pieces: Buffer[] = [];
  let length = 0;
  let run = 0;
  for (const each of parts) {
    for (const piece of each.searched) {
      length += piece.length;
      run = piece.equals(EMPTY_IDAT) ? run + 1 : 0;
      if (run <= EMPTY_IDAT_KEPT) pieces.push(piece);
    }
  }
  return { bytes: Buffer.concat(pieces), length };
}

/** Whether `bytes` carry a key `scrub` takes out: read as Latin-1 or as UTF-8 (letters beyond ASCII). */
function carries(bytes: Buffer, scrub: MetadataKeyScrubber): boolean {
  return [bytes.toString('latin1'), bytes.toString('utf8')].some((text) => scrub(text) !== text);
}

/** Whether a part of `parts` holds compressed text that could not be read whole. */
const anyUnread = (parts: readonly MetadataPart[]) => parts.some((each) => each.unread);

/**
 * Whether `bytes` (a `kind` file) may carry a key `scrub` takes out, outside its pixels: in its
 * bytes read as Latin-1 or as UTF-8 (a key spelt out in letters beyond ASCII), or in its
 * compressed text; true too for metadata past the bound, and compressed text not read whole.
 */
export function metadataCarriesKey(
  bytes: Buffer,
  kind: ImageKind,
  scrub: MetadataKeyScrubber,
): boolean {
  const parts = metadataParts(bytes, kind);
  if (anyUnread(parts)) return true;
  const whole = searchedCompacted(parts);
  return whole.length > MAX_SEARCHED || carries(whole.bytes, scrub);
}

/** What {@link withoutKeyMetadata} made. */
type KeyMetadataRemoval =
  /** The file carries no key: keep it as it is. */
  | { readonly kind: 'clean' }
  /** The file without its key-carrying parts; `credentials`: its Content Credentials went too. */
  | { readonly kind: 'removed'; readonly bytes: Buffer; readonly credentials: boolean }
  /** A key is where it cannot be left out: the file may not be kept. */
  | { readonly kind: 'carried' };

/** A WebP's VP8X flags for what is still in it (ICC 0x20, EXIF 0x08, XMP 0x04). */
function webpMended(out: Buffer, kept: readonly MetadataPart[]): Buffer {
  if (out.length >= 8) out.writeUInt32LE(out.length - 8, 4);
  const types = new Set(kept.map((each) => out.toString('latin1', each.start, each.start + 4)));
  const vp8x = kept.find((each) => out.toString('latin1', each.start, each.start + 4) === 'VP8X');
  if (!vp8x || vp8x.end - vp8x.start < 9) return out;
  const flags = out[vp8x.start + 8] ?? 0;
  const off = (types.has('ICCP') ? 0 : 0x20) | (types.has('EXIF') ? 0 : 0x08);
  out[vp8x.start + 8] = flags & ~(off | (types.has('XMP ') ? 0 : 0x04));
  return out;
}

/**
 * `parts` of a `kind` file's `bytes` but those in `left`, end to end, an EXIF block left out
 * standing in as its orientation alone (metadata-orientation.ts); the parts' places in the new
 * file.
 */
function without(
  bytes: Buffer,
  kind: ImageKind,
  parts: readonly MetadataPart[],
  left: Set<MetadataPart>,
) {
  const kept: MetadataPart[] = [];
  const pieces: Buffer[] = [];
  let at = 0;
  for (const each of parts) {
    const own = bytes.subarray(each.start, each.end);
    const piece = left.has(each) ? orientationStandIn(own, kind) : own;
    if (!piece) continue;
    kept.push({ ...each, start: at, end: at + piece.length });
    pieces.push(piece);
    at += piece.length;
  }
  return { out: Buffer.concat(pieces), kept };
}

/**
 * The parts to leave out: those that carry a key or were not read whole, or (past the bound)
 * every one that may go.
 */
function partsToLeave(parts: readonly MetadataPart[], scrub: MetadataKeyScrubber) {
  const removable = parts.filter((each) => each.removable);
  if (searchedOf(parts).length > MAX_SEARCHED) return new Set(removable);
  return new Set(removable.filter((each) => each.unread || carries(searchedOf([each]), scrub)));
}

/**
 * `bytes` (a `kind` file) without the metadata that carries a key `scrub` takes out (see the
 * file's comment); its pixels' bytes are the same.
 */
export function withoutKeyMetadata(
  bytes: Buffer,
  kind: ImageKind,
  scrub: MetadataKeyScrubber,
): KeyMetadataRemoval {
  const parts = metadataParts(bytes, kind);
  // Not read whole and not to be left out (the rest past MAX_PARTS): nothing makes it clean.
  if (parts.some((each) => each.unread && !each.removable)) return { kind: 'carried' };
  const whole = searchedOf(parts);
  if (whole.length <= MAX_SEARCHED && !anyUnread(parts) && !carries(whole, scrub))
    return { kind: 'clean' };
  const credentials = parts.filter((each) => each.credentials);
  const signed = credentials.length > 0;
  // The parts that carry one; then, for a key split across parts, every part that may go.
  for (const left of [
    partsToLeave(parts, scrub),
    new Set(parts.filter((each) => each.removable)),
  ]) {
    if (left.size === 0) continue;
    credentials.forEach((each) => left.add(each));
    const { out, kept } = without(bytes, kind, parts, left);
    const mended = kind === 'webp' ? webpMended(out, kept) : out;
    if (!metadataCarriesKey(mended, kind, scrub)) {
      return { kind: 'removed', bytes: mended, credentials: signed };
    }
  }
  return { kind: 'carried' };
}
