/**
 * JPEG: the XMP packet goes in an APP1 segment starting `http://ns.adobe.com/xap/1.0/\0`, after
 * SOI and the leading APP0 (JFIF) and APP1 (Exif) segments. A segment holds at most 65,533 bytes,
 * so the packet is at most {@link MAX_JPEG_XMP} bytes (xmp-packet.ts shortens the prompt to fit).
 * Only the segments before the scan are walked; the compressed data after SOS is copied as it is.
 * APP1 segments holding XMP or extended XMP (from the image host) are dropped.
 */
import { ContainerError, PieceList, need, type EditedImage } from './container';

const XMP_NS = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const EXTENDED_XMP_NS = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
const EXIF_ID = Buffer.from('Exif\0', 'latin1');
/** 65,535 (the length field's maximum) − 2 (the field) − 29 (the namespace), minus 2 to spare. */
export const MAX_JPEG_XMP = 65_502;
/** More header segments than any real image has. */
const MAX_SEGMENTS = 10_000;

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;

interface Segment {
  readonly marker: number;
  readonly start: number;
  /** Start of the payload (after the length field). */
  readonly data: number;
  readonly end: number;
}

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array, end: number): boolean {
  return (
    end - at >= prefix.length && Buffer.from(prefix).equals(bytes.subarray(at, at + prefix.length))
  );
}

/** The segments before the scan, SOS last; throws a {@link ContainerError}. */
function segments(bytes: Uint8Array): Segment[] {
  if (bytes[0] !== 0xff || bytes[1] !== SOI)
    throw new ContainerError('The file does not start like a JPEG image.');
  const list: Segment[] = [];
  for (let at = 2; ;) {
    if (list.length >= MAX_SEGMENTS)
      throw new ContainerError('The JPEG image has too many segments.');
    need(at + 2, bytes.length, 'segment marker');
    if (bytes[at] !== 0xff)
      throw new ContainerError('A JPEG segment does not start with a marker.');
    let markerAt = at;
    // Fill bytes (0xFF) may pad the space before a marker.
    while (markerAt + 1 < bytes.length && bytes[markerAt + 1] === 0xff) markerAt += 1;
    const marker = bytes[markerAt + 1] ?? 0;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      list.push({ marker, start: at, data: markerAt + 2, end: markerAt + 2 });
      at = markerAt + 2;
      continue;
    }
    if (marker === EOI || marker === SOI || marker === 0) {
      throw new ContainerError('The JPEG image has no image data.');
    }
    need(markerAt + 4, bytes.length, 'segment length');
    const length = ((bytes[markerAt + 2] ?? 0) << 8) | (bytes[markerAt + 3] ?? 0);
    if (length < 2) throw new ContainerError('A JPEG segment declares an impossible length.');
    need(markerAt + 2 + length, bytes.length, 'segment');
    list.push({ marker, start: at, data: markerAt + 4, end: markerAt + 2 + length });
    at = markerAt + 2 + length;
    if (marker === SOS) return list;
  }
}

function isXmp(bytes: Uint8Array, segment: Segment): boolean {
  return (
    segment.marker === APP1 &&
    (startsWith(bytes, segment.data, XMP_NS, segment.end) ||
      startsWith(bytes, segment.data, EXTENDED_XMP_NS, segment.end))
  );
}

function leading(bytes: Uint8Array, segment: Segment): boolean {
  return (
    segment.marker === APP0 ||
    (segment.marker === APP1 && startsWith(bytes, segment.data, EXIF_ID, segment.end))
  );
}

/** The image with `xmp` (at most {@link MAX_JPEG_XMP} bytes) in place of any XMP it had. */
export function editJpeg(bytes: Uint8Array, xmp: Uint8Array): EditedImage {
  if (xmp.length > MAX_JPEG_XMP)
    throw new ContainerError('The metadata is too big for a JPEG segment.');
  const list = segments(bytes);
  const out = new PieceList(bytes);
  out.copy(0, 2);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + XMP_NS.length + xmp.length, 2);
  let inserted = false;
  for (const segment of list) {
    if (!inserted && !leading(bytes, segment)) {
      out.add(Buffer.concat([header, XMP_NS, xmp]));
      inserted = true;
    }
    if (!isXmp(bytes, segment)) out.copy(segment.start, segment.end);
  }
  const last = list.at(-1);
  if (last) out.copy(last.end, bytes.length);
  return out.done();
}

/** The packet of the first (standard) XMP segment, or `null`. */
export function readJpegXmp(bytes: Uint8Array): string | null {
  for (const segment of segments(bytes)) {
    if (segment.marker === APP1 && startsWith(bytes, segment.data, XMP_NS, segment.end)) {
      return Buffer.from(bytes.subarray(segment.data + XMP_NS.length, segment.end)).toString(
        'utf8',
      );
    }
  }
  return null;
}
