/**
 * JUMBF (ISO/IEC 19566-5) box headers, as far as telling a C2PA manifest store from anything else
 * needs: a superbox `jumb` whose first box, its description `jumd`, carries the C2PA manifest
 * store's type UUID and the label `c2pa`. Only the first few dozen bytes are looked at; the
 * store's content is the verifier's business (core/content-credentials), never parsed here.
 *
 * A JPEG carries a box in APP11 segments (`JP`, box instance, sequence number, the box header
 * repeated, a piece of its content): {@link jpegJumbfSegment} reads one, {@link JpegJumbfBox}
 * gathers a box's segments and reads its label whatever order they came in. The one reading for
 * the Content Credentials walk (gallery/metadata/c2pa-detect.ts) and the key removal's
 * (metadata-parts.ts).
 *
 * ONE MEANING, for the walk and the removal alike: a JUMBF box where C2PA keeps a manifest store
 * (a JPEG's APP11 segments that open a `jumb` box, a PNG's `caBX` chunk, a WebP's `C2PA` chunk)
 * is Content Credentials whether it says `c2pa` or not, well formed or not. The label only says
 * whether the store reads as C2PA's own (C2paPresence.labelled); it never decides what is done
 * with the box. Two rules decide it:
 * - Pictor must not corrupt a store it cannot read. Whether a reader takes an unlabelled or
 *   damaged box for the file's manifest is the reader's business (the binding to the file's
 *   bytes is in the box's content, which Pictor never parses): so a file holding one is never
 *   edited (no provenance written into it: the walk finds it), and no box is ever left in part
 *   (half a store is a corrupt one): it stays whole, or goes whole.
 * - The key never leaves in any metadata. Any box, labelled or not, may carry it in its content:
 *   a removal that leaves anything out of the file takes every such box with it, whole (the one
 *   that carries the key because it does, the others because what they sign is no longer the
 *   file), and the image is said to have lost its Content Credentials (ImageRecord.keyRemoved
 *   `credentials`), as the walk said it had them.
 * An APP11 segment that opens no `jumb` box (no `JP` header, another use of the marker) is not
 * JUMBF: ordinary metadata to both.
 */

/** The manifest store's JUMBF type: `c2pa` then 0011-0010-8000-00AA00389B71. */
const C2PA_STORE_UUID = Uint8Array.from([
  0x63, 0x32, 0x70, 0x61, 0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
]);
const LABEL = 'c2pa';
/** jumd toggles: bit 1 says a label follows the UUID and toggles. */
const HAS_LABEL = 0x02;
/** Enough to hold both headers (with a 64-bit length), the UUID, the toggles and `c2pa\0`. */
export const JUMBF_PROBE_BYTES = 64;

export interface BoxHeader {
  readonly type: string;
  /** The whole box's length as declared (0: to the end of its container). */
  readonly length: number;
  /** Bytes of the header itself (8, or 16 with an extended length). */
  readonly headerBytes: number;
}

function u32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] ?? 0) * 0x1000000 +
    (((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0))
  );
}

function type(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

/** The box header at `at`, or `null` when the bytes end inside it or it declares nonsense. */
export function boxHeader(bytes: Uint8Array, at: number): BoxHeader | null {
  if (at + 8 > bytes.length) return null;
  const short = u32(bytes, at);
  if (short === 1) {
    if (at + 16 > bytes.length) return null;
    const length = u32(bytes, at + 8) * 0x1_0000_0000 + u32(bytes, at + 12);
    return length >= 16 ? { type: type(bytes, at + 4), length, headerBytes: 16 } : null;
  }
  if (short !== 0 && short < 8) return null;
  return { type: type(bytes, at + 4), length: short, headerBytes: 8 };
}

/**
 * Whether `bytes` (the start of a JUMBF box, at least {@link JUMBF_PROBE_BYTES} when the box is
 * that long) open a C2PA manifest store: a `jumb` superbox described as `c2pa` by type and label.
 */
export function opensC2paStore(bytes: Uint8Array): boolean {
  const outer = boxHeader(bytes, 0);
  if (outer?.type !== 'jumb') return false;
  const description = boxHeader(bytes, outer.headerBytes);
  if (description?.type !== 'jumd') return false;
  const uuidAt = outer.headerBytes + description.headerBytes;
  const uuid = bytes.subarray(uuidAt, uuidAt + 16);
  if (uuid.length !== 16 || !uuid.every((byte, i) => byte === C2PA_STORE_UUID[i])) return false;
  const toggles = bytes[uuidAt + 16] ?? 0;
  if ((toggles & HAS_LABEL) === 0) return false;
  const label = bytes.subarray(uuidAt + 17, uuidAt + 17 + LABEL.length + 1);
  return type(label, 0) === LABEL && label[LABEL.length] === 0;
}

/** One APP11 JUMBF segment of a JPEG. */
export interface JpegJumbfSegment {
  readonly instance: number;
  readonly sequence: number;
  /** The box header (repeated in every segment of the box) and a piece of its content. */
  readonly content: Uint8Array;
}

/**
 * The APP11 segment whose payload starts with `head` (`JP`, box instance, sequence number, a
 * `jumb` box header: at least 16 bytes), or `null` for any other APP11.
 */
export function jpegJumbfSegment(head: Uint8Array): JpegJumbfSegment | null {
  if (head.length < 16 || head[0] !== 0x4a || head[1] !== 0x50) return null;
  if (boxHeader(head, 8)?.type !== 'jumb') return null;
  const instance = ((head[2] ?? 0) << 8) | (head[3] ?? 0);
  return { instance, sequence: u32(head, 4), content: head.subarray(8) };
}

/**
 * A JUMBF box of a JPEG: its segments, and the first bytes of its content kept by sequence
 * number, so its label reads the same whatever order the segments came in (a repeat adds to the
 * count, the first copy's bytes are kept). Each segment brings at least a byte, so the label is
 * within the first {@link JUMBF_PROBE_BYTES} sequence numbers: no other piece is kept.
 */
export class JpegJumbfBox {
  parts = 0;
  bytes = 0;
  private readonly heads = new Map<number, Uint8Array>();

  add(segment: JpegJumbfSegment, payload: number): void {
    this.parts += 1;
    this.bytes += payload;
    const { sequence } = segment;
    if (sequence < 1 || sequence > JUMBF_PROBE_BYTES || this.heads.has(sequence)) return;
    // The first segment's content starts with the box header; the others repeat it: skip it.
    const piece = sequence === 1 ? segment.content : segment.content.subarray(8);
    // A copy: the caller's bytes may be reused.
    this.heads.set(sequence, piece.slice(0, JUMBF_PROBE_BYTES));
  }

  /** Whether the box, its pieces in sequence from the first, opens a C2PA manifest store. */
  get c2pa(): boolean {
    const probe = new Uint8Array(JUMBF_PROBE_BYTES);
    let length = 0;
    for (let sequence = 1; length < probe.length; sequence += 1) {
      const piece = this.heads.get(sequence);
      if (!piece) break;
      const taken = piece.subarray(0, probe.length - length);
      probe.set(taken, length);
      length += taken.length;
    }
    return opensC2paStore(probe.subarray(0, length));
  }
}
