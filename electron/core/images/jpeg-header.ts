/**
 * JPEG: the markers from SOI to the first scan (SOS) are walked by their lengths, never through
 * the entropy-coded data: the size comes from the frame header (SOF0–SOF15 but DHT, JPG and DAC),
 * the orientation from the first EXIF APP1 segment before the scan, as decoders take it. Fill
 * bytes, standalone markers, a second frame header and a scan before any frame are handled as
 * libjpeg does (the last two refused). At most {@link MAX_SEGMENTS} segments are looked at.
 */
import { be16, type BoundedReader } from './byte-source';
import { exifOrientation } from './exif-orientation';
import { jpegMarkerAt, type MarkerProblem } from './jpeg-markers';
import { HeaderError, present, type ParsedHeader } from './header-parse';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP1 = 0xe1;
/** Frame headers: 0xC0–0xCF, but DHT (C4), JPG (C8) and DAC (CC) are other segments. */
const isFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers with no length: TEM and the restart markers. */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
/** Segments looked at before the scan; a C2PA store may be split across a thousand. */
const MAX_SEGMENTS = 4_096;
/** The largest payload a segment can have (its length field is 16 bits, itself included). */
const MAX_PAYLOAD = 0xffff - 2;

export function isJpeg(head: Uint8Array): boolean {
  return head[0] === 0xff && head[1] === SOI && head[2] === 0xff;
}

interface Frame {
  readonly width: number;
  readonly height: number;
}

/** Why a marker (fill bytes skipped) could not be read. */
const markerRefusal = (problem: MarkerProblem): HeaderError =>
  new HeaderError(
    'unreadable',
    problem === 'ends'
      ? 'The JPEG file ends before its image data.'
      : 'A JPEG segment does not start with a marker.',
  );

async function readFrame(reader: BoundedReader, payload: number, length: number): Promise<Frame> {
  if (length < 6) throw new HeaderError('unreadable', 'The JPEG frame header is too short.');
  const frame = present(
    await reader.bytes(payload, 6),
    'The JPEG file ends inside its frame header.',
  );
  const height = be16(frame, 1);
  const width = be16(frame, 3);
  if (frame[5] === 0)
    throw new HeaderError('unreadable', 'The JPEG frame has no colour components.');
  if (width === 0 || height === 0)
    throw new HeaderError('no_size', 'The JPEG frame header gives no size.');
  return { width, height };
}

export async function readJpegHeader(reader: BoundedReader): Promise<ParsedHeader> {
  let frame: Frame | null = null;
  let orientation: number | null = null;
  let at = 2;
  for (let seen = 0; seen < MAX_SEGMENTS; seen += 1) {
    const { marker, next } = await jpegMarkerAt(reader, at, markerRefusal);
    if (isStandalone(marker)) {
      at = next;
      continue;
    }
    if (marker === 0 || marker === SOI || marker === EOI) {
      throw new HeaderError('unreadable', 'The JPEG file has no image data.');
    }
    const field = present(await reader.bytes(next, 2), 'The JPEG file ends inside a segment.');
    const length = be16(field, 0) - 2;
    if (length < 0)
      throw new HeaderError('unreadable', 'A JPEG segment declares an impossible length.');
    if (next + 2 + length > reader.size)
      throw new HeaderError('unreadable', 'The JPEG file ends inside a segment.');
    if (marker === SOS) {
      if (!frame)
        throw new HeaderError('unreadable', 'The JPEG scan comes before its frame header.');
      return { format: 'jpeg', ...frame, orientation: orientation ?? 1, animated: false };
    }
    if (isFrame(marker)) {
      if (frame) throw new HeaderError('unreadable', 'The JPEG file has two frame headers.');
      frame = await readFrame(reader, next + 2, length);
    } else if (marker === APP1 && orientation === null) {
      const payload = await reader.bytes(next + 2, Math.min(length, MAX_PAYLOAD));
      orientation = payload ? exifOrientation(payload) : null;
    }
    at = next + 2 + length;
  }
  throw new HeaderError('unreadable', 'The JPEG file has more segments than any real image.');
}
