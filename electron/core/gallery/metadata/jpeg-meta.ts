/**
 * JPEG: the XMP packet goes in an APP1 segment starting `http://ns.adobe.com/xap/1.0/\0`, after
 * SOI and the leading APP0 (JFIF) and APP1 (Exif) segments. A segment holds at most 65,533 bytes,
 * so the packet is at most {@link MAX_JPEG_XMP} bytes (xmp-packet.ts shortens the prompt to fit).
 * Only the segments before the scan are walked, by their headers; the compressed data after SOS
 * is copied as it is. APP1 segments holding XMP or extended XMP (from the image host) are dropped.
 */
import { ContainerError, PlanBuilder, got, need, type EditPlan } from './container';
import type { RangeReader } from './range-reader';
import { jpegMarkerAt, type MarkerProblem } from '../../images';

const XMP_NS = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const EXTENDED_XMP_NS = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
const EXIF_ID = Buffer.from('Exif\0', 'latin1');
/** 65,535 (the length field's maximum) − 2 (the field) − 29 (the namespace), minus 2 to spare. */
export const MAX_JPEG_XMP = 65_502;
/** More header segments than any real image has. */
const MAX_SEGMENTS = 10_000;
/** Enough of a segment's payload to tell XMP, extended XMP and Exif apart. */
const PREFIX = EXTENDED_XMP_NS.length;

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
  /** The payload's first bytes (at most {@link PREFIX}), for APP1 segments. */
  readonly prefix: Uint8Array;
}

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  bytes.length >= prefix.length && Buffer.from(prefix).equals(bytes.subarray(0, prefix.length));

/** Why a marker (after any fill bytes) could not be read. */
const markerRefusal = (problem: MarkerProblem): ContainerError =>
  new ContainerError(
    problem === 'ends'
      ? 'The image file ends inside its segment marker.'
      : 'A JPEG segment does not start with a marker.',
  );

/** The segments before the scan, SOS last; throws a {@link ContainerError}. */
async function* segments(reader: RangeReader): AsyncGenerator<Segment> {
  const soi = await reader.bytes(0, 2);
  if (!soi || soi[0] !== 0xff || soi[1] !== SOI)
    throw new ContainerError('The file does not start like a JPEG image.');
  for (let at = 2, count = 0; ; count += 1) {
    if (count >= MAX_SEGMENTS) throw new ContainerError('The JPEG image has too many segments.');
    const { marker, next } = await jpegMarkerAt(reader, at, markerRefusal);
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      yield { marker, start: at, data: next, end: next, prefix: new Uint8Array(0) };
      at = next;
      continue;
    }
    if (marker === EOI || marker === SOI || marker === 0) {
      throw new ContainerError('The JPEG image has no image data.');
    }
    const field = Buffer.from(got(await reader.bytes(next, 2), 'segment length'));
    const length = field.readUInt16BE(0);
    if (length < 2) throw new ContainerError('A JPEG segment declares an impossible length.');
    const end = next + length;
    need(end, reader.size, 'segment');
    const prefix =
      marker === APP0 || marker === APP1
        ? Uint8Array.from(
            got(await reader.bytes(next + 2, Math.min(PREFIX, length - 2)), 'segment'),
          )
        : new Uint8Array(0);
    yield { marker, start: at, data: next + 2, end, prefix };
    at = end;
    if (marker === SOS) return;
  }
}

const isXmp = (segment: Segment) =>
  segment.marker === APP1 &&
  (startsWith(segment.prefix, XMP_NS) || startsWith(segment.prefix, EXTENDED_XMP_NS));

const leading = (segment: Segment) =>
  segment.marker === APP0 || (segment.marker === APP1 && startsWith(segment.prefix, EXIF_ID));

/** The plan of the image with `xmp` (at most {@link MAX_JPEG_XMP} bytes) in place of any XMP. */
export async function planJpeg(reader: RangeReader, xmp: Uint8Array): Promise<EditPlan> {
  if (xmp.length > MAX_JPEG_XMP)
    throw new ContainerError('The metadata is too big for a JPEG segment.');
  const out = new PlanBuilder();
  out.copy(0, 2);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + XMP_NS.length + xmp.length, 2);
  let inserted = false;
  let end = 2;
  for await (const segment of segments(reader)) {
    if (!inserted && !leading(segment)) {
      out.add(Buffer.concat([header, XMP_NS, xmp]));
      inserted = true;
    }
    if (!isXmp(segment)) out.copy(segment.start, segment.end);
    end = segment.end;
  }
  out.copy(end, reader.size);
  return out.done();
}

/** The packet of the first (standard) XMP segment, or `null`. */
export async function readJpegXmp(reader: RangeReader): Promise<string | null> {
  for await (const segment of segments(reader)) {
    if (segment.marker === APP1 && startsWith(segment.prefix, XMP_NS)) {
      const packet = got(
        await reader.bytes(
          segment.data + XMP_NS.length,
          segment.end - segment.data - XMP_NS.length,
        ),
        'segment',
      );
      return Buffer.from(packet).toString('utf8');
    }
  }
  return null;
}
