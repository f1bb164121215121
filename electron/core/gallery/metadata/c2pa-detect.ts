/**
 * Finds a C2PA manifest store (Content Credentials) in an image by walking its container, the
 * way C2PA embeds one in each format Pictor accepts (image-sniff.ts: PNG, JPEG, WebP):
 *
 * - PNG: a `caBX` chunk (a chunk type C2PA alone uses);
 * - JPEG: APP11 segments carrying JUMBF (`JP`, box instance, sequence number, then a `jumb`
 *   box header), possibly many for one store; any such segment counts, in order or not, labelled
 *   `c2pa` (its first segment's superbox says so) or not;
 * - WebP: a `C2PA` RIFF chunk;
 * - any of them with no store but a remote one named in its XMP (remote-manifest.ts): the walk
 *   notes where the container keeps its XMP, and only that packet is read.
 *
 * Only headers are read, through a small window that moves along the file: the walk reads about
 * a page per chunk header it needs (not the bodies it steps over), holds at most one window of
 * the file, and every count is capped. Nothing is
 * searched for in the bytes: a store is found where the container puts one, or not at all.
 * A file whose structure breaks off is walked as far as it holds together; what was found by then
 * counts (a credential in a file whose other chunks lie is still a credential).
 */
import type { FileHandle } from 'node:fs/promises';
import type { ImageKind } from '../../images';
import {
  JUMBF_PROBE_BYTES,
  JpegJumbfBox,
  type JpegJumbfSegment,
  jpegJumbfSegment,
  opensC2paStore,
} from '../../images';
import {
  MAX_XMP_PROBE_BYTES,
  XMP_PROBE_BYTES,
  opensXmp,
  remoteManifestIn,
} from './remote-manifest';

/** Where the store sits, named after its container (`xmp-provenance`: online, named in the XMP). */
export type C2paContainer = 'png-caBX' | 'jpeg-APP11' | 'webp-C2PA' | 'xmp-provenance';

export type C2paPresence =
  | { readonly found: false; readonly damaged?: string }
  | {
      readonly found: true;
      readonly container: C2paContainer;
      /** The store's bytes as its container declares them (all segments together). */
      readonly bytes: number;
      /** Chunks or segments holding it. */
      readonly parts: number;
      /** Whether its JUMBF superbox says `c2pa` (a `caBX` or `C2PA` chunk counts either way). */
      readonly labelled: boolean;
      readonly damaged?: string;
    };

/** Random access to a file's bytes (the same shape as the header check's byte source). */
export interface ByteSource {
  readonly size: number;
  /**
   * Up to `length` bytes from `offset`; fewer only at the end. They may be a view of a buffer the
   * source reuses: valid until its next read (the walk copies what it keeps).
   */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** More chunks or segments than any real image has (see png-meta.ts, jpeg-meta.ts, webp-meta.ts). */
const MAX_PARTS = 200_000;
/** The most one read brings in. */
const WINDOW = 64 * 1024;
/** A read after a long stride: a page, enough for any header the walk asks for. */
const PAGE = 4 * 1024;
/** Strides up to this long are small chunks in a row: a read of a whole window serves several. */
const SHORT_STRIDE = WINDOW / 4;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Reads through a window refilled only when a read leaves it. The refill's size follows the
 * walk's stride (how far this read is from the one before): short strides (small chunks in a
 * row) get a whole window, long ones (a PNG's IDATs, 64 KiB each) a page. So an image of large
 * chunks costs a page per chunk, not the whole file read in windows, and small ones few reads.
 */
class Window {
  private start = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  private last = 0;

  constructor(private readonly source: ByteSource) {}

  get size(): number {
    return this.source.size;
  }

  /** Exactly `length` (≤ the window) bytes at `offset`, or `null` past the end. */
  async at(offset: number, length: number): Promise<Uint8Array | null> {
    if (offset < 0 || offset + length > this.source.size) return null;
    const stride = Math.abs(offset - this.last);
    this.last = offset;
    const end = this.start + this.bytes.length;
    if (offset < this.start || offset + length > end) {
      const span = stride <= SHORT_STRIDE ? WINDOW : PAGE;
      this.bytes = await this.source.read(offset, Math.max(length, span));
      this.start = offset;
    }
    const slice = this.bytes.subarray(offset - this.start, offset - this.start + length);
    return slice.length === length ? slice : null;
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));
const be16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const be32 = (b: Uint8Array, at: number) => be16(b, at) * 0x10000 + be16(b, at + 2);
const le32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16)) +
  (b[at + 3] ?? 0) * 0x1000000;

/** Where the first chunk or segment holding XMP has its data (`at` -1: none met). */
interface XmpNote {
  readonly kind: ImageKind;
  at: number;
  length: number;
}

/** Collects the store's parts as the walk meets them. */
class Found {
  bytes = 0;
  parts = 0;
  labelled = false;

  constructor(
    readonly container: C2paContainer,
    /** The first chunk or segment holding XMP, noted for the caller. */
    readonly xmp: XmpNote,
  ) {}

  presence(damaged?: string): C2paPresence {
    if (this.parts === 0) return damaged ? { found: false, damaged } : { found: false };
    const { container, bytes, parts, labelled } = this;
    return { found: true, container, bytes, parts, labelled, ...(damaged ? { damaged } : {}) };
  }
}

/** Notes the chunk or segment whose data (`at`, `length`) holds XMP, when it is the first. */
async function noteXmp(window: Window, found: Found, at: number, length: number) {
  if (found.xmp.at >= 0) return;
  const head = await window.at(at, Math.min(length, XMP_PROBE_BYTES));
  if (head && opensXmp(found.xmp.kind, head)) Object.assign(found.xmp, { at, length });
}

async function labelled(window: Window, offset: number, available: number): Promise<boolean> {
  const probe = await window.at(offset, Math.min(JUMBF_PROBE_BYTES, available));
  return probe !== null && opensC2paStore(probe);
}

async function walkPng(window: Window, xmp: XmpNote): Promise<C2paPresence> {
  const found = new Found('png-caBX', xmp);
  const signature = await window.at(0, 8);
  if (!signature?.every((byte, i) => byte === PNG_SIGNATURE[i])) {
    return found.presence('The file does not start like a PNG image.');
  }
  for (let at = 8, count = 0; ; count += 1) {
    if (count >= MAX_PARTS) return found.presence('The PNG image has too many chunks.');
    const header = await window.at(at, 8);
    if (!header) return found.presence('The PNG image ends inside a chunk header.');
    const length = be32(header, 0);
    const type = ascii(header, 4, 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > window.size) {
      return found.presence(`The PNG ${type} chunk runs past the end of the file.`);
    }
    if (type === 'caBX') {
      found.parts += 1;
      found.bytes += length;
      found.labelled ||= await labelled(window, at + 8, length);
    }
    if (type === 'iTXt') await noteXmp(window, found, at + 8, length);
    if (type === 'IEND') return found.presence();
    at = end;
  }
}

async function walkWebp(window: Window, xmp: XmpNote): Promise<C2paPresence> {
  const found = new Found('webp-C2PA', xmp);
  const riff = await window.at(0, 12);
  if (!riff || ascii(riff, 0, 4) !== 'RIFF' || ascii(riff, 8, 12) !== 'WEBP') {
    return found.presence('The file does not start like a WebP image.');
  }
  // The RIFF size bounds the walk; a file longer than it declares has bytes that are not its own.
  const end = Math.min(window.size, le32(riff, 4) + 8);
  for (let at = 12, count = 0; at + 8 <= end; count += 1) {
    if (count >= MAX_PARTS) return found.presence('The WebP image has too many chunks.');
    const header = await window.at(at, 8);
    if (!header) break;
    const size = le32(header, 4);
    if (at + 8 + size > end) return found.presence('A WebP chunk runs past the end of the file.');
    if (ascii(header, 0, 4) === 'C2PA') {
      found.parts += 1;
      found.bytes += size;
      found.labelled ||= await labelled(window, at + 8, size);
    }
    if (ascii(header, 0, 4) === 'XMP ') await noteXmp(window, found, at + 8, size);
    at += 8 + size + (size % 2);
  }
  return found.presence();
}

const SOS = 0xda;
const APP1 = 0xe1;
const APP11 = 0xeb;

/** The APP11 segment whose data is at `data` (`length` bytes), when it carries JUMBF. */
async function jumbfSegment(
  window: Window,
  data: number,
  length: number,
): Promise<JpegJumbfSegment | null> {
  const head = await window.at(data, Math.min(length, 8 + 16 + JUMBF_PROBE_BYTES));
  return head ? jpegJumbfSegment(head) : null;
}

async function walkJpeg(window: Window, xmp: XmpNote): Promise<C2paPresence> {
  const found = new Found('jpeg-APP11', xmp);
  const soi = await window.at(0, 2);
  if (soi?.[0] !== 0xff || soi[1] !== 0xd8)
    return found.presence('The file does not start like a JPEG image.');
  const boxes = new Map<number, JpegJumbfBox>();
  // Every JUMBF box counts, as a PNG's caBX does: one whose segments come out of order, twice, or
  // without the c2pa label may still be a store a reader accepts, and editing the file would
  // break its signature. The label only says whether it reads as C2PA's own. The key removal
  // holds every such box as credentials too (images/jumbf-box.ts: one meaning for both).
  const result = (damaged?: string): C2paPresence => {
    for (const box of boxes.values()) {
      found.parts += box.parts;
      found.bytes += box.bytes;
      found.labelled ||= box.c2pa;
    }
    return found.presence(damaged);
  };
  for (let at = 2, count = 0; ; count += 1) {
    if (count >= MAX_PARTS) return result('The JPEG image has too many segments.');
    const marker = await window.at(at, 4);
    if (!marker || marker[0] !== 0xff)
      return result('A JPEG segment does not start with a marker.');
    if (marker[1] === 0xff) {
      at += 1; // a fill byte before the marker
      continue;
    }
    const code = marker[1] ?? 0;
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      at += 2;
      continue;
    }
    if (code === 0xd8 || code === 0xd9 || code === 0)
      return result('The JPEG image has no image data.');
    const length = be16(marker, 2);
    if (length < 2 || at + 2 + length > window.size)
      return result('A JPEG segment runs past the end of the file.');
    // Metadata lives before the first scan; the entropy-coded data after it is never walked.
    if (code === SOS) return result();
    if (code === APP1) await noteXmp(window, found, at + 4, length - 2);
    if (code === APP11) {
      const segment = await jumbfSegment(window, at + 4, length - 2);
      if (segment) {
        const box = boxes.get(segment.instance) ?? new JpegJumbfBox();
        box.add(segment, length - 2);
        boxes.set(segment.instance, box);
      }
    }
    at += 2 + length;
  }
}

const WALKERS: Record<ImageKind, (window: Window, xmp: XmpNote) => Promise<C2paPresence>> = {
  png: walkPng,
  jpeg: walkJpeg,
  webp: walkWebp,
};

/**
 * Whether the image in `source` carries a C2PA manifest store, or names a remote one in its XMP;
 * never throws for its content.
 */
export async function detectC2pa(source: ByteSource, kind: ImageKind): Promise<C2paPresence> {
  const window = new Window(source);
  const xmp: XmpNote = { kind, at: -1, length: 0 };
  const presence = await WALKERS[kind](window, xmp);
  if (presence.found || xmp.at < 0) return presence;
  const data = await window.at(xmp.at, Math.min(xmp.length, MAX_XMP_PROBE_BYTES));
  if (!data || remoteManifestIn(kind, data) === null) return presence;
  const { damaged } = presence;
  const remote = { container: 'xmp-provenance', bytes: 0, parts: 0, labelled: false } as const;
  return { found: true, ...remote, ...(damaged ? { damaged } : {}) };
}

/**
 * {@link detectC2pa} on the first `size` bytes of a file the caller opened (inside its folder, a
 * regular file: credentials-step.ts) and closes; never opens a path itself.
 */
export function detectC2paInOpenFile(
  handle: FileHandle,
  size: number,
  kind: ImageKind,
): Promise<C2paPresence> {
  // One buffer for the whole walk (ByteSource.read's views): a buffer per read was a window's
  // worth of garbage per chunk, megabytes per image for the collector to catch up with.
  const scratch = Buffer.allocUnsafe(Math.min(WINDOW, size));
  return detectC2pa(
    {
      size,
      async read(offset, length) {
        const wanted = Math.max(0, Math.min(length, size - offset));
        const into = wanted <= scratch.length ? scratch : Buffer.allocUnsafe(wanted);
        const { bytesRead } = await handle.read(into, 0, wanted, offset);
        return into.subarray(0, bytesRead);
      },
    },
    kind,
  );
}

/** {@link detectC2pa} on bytes in memory (tests, small buffers). */
export function detectC2paInBytes(bytes: Uint8Array, kind: ImageKind): Promise<C2paPresence> {
  return detectC2pa(
    {
      size: bytes.length,
      read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
    },
    kind,
  );
}
