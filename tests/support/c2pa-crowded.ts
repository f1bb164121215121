/**
 * Crowded manifest stores: a signed fixture's store (tests/fixtures/c2pa) with `count` more
 * assertions in its assertion store, each a small superbox (a labelled description and a CBOR
 * box) as c2pa-rs writes them, every enclosing box's length made right. A hostile service's
 * "8,000 small assertions" store has this shape; signed for real (c2pa-wasm's builder, 8,000
 * assertions: about 40 s to sign, about 50 s to verify) its signature would check out, here it
 * does not, which the pre-count (core/content-credentials/store-census.ts) never looks at: it
 * counts the boxes before any verification.
 *
 * Each added assertion's label starts with {@link CROWD_LABEL}, so a test's stand-in for the
 * library (selective-c2pa-worker.ts) can tell a crowded store from an honest one.
 */
import { c2paFixture, jpegStore, pngStore, withPngStore, withWebpStore } from './c2pa-hostile';
import { CROWD_LABEL } from './c2pa-crowd-label';

export { CROWD_LABEL };

/** `cbor` then 0011-0010-8000-00AA00389B71: a CBOR content box's JUMBF type. */
const CBOR_TYPE = Buffer.from('63626f7200110010800000aa00389b71', 'hex');
/** jumd toggles: requestable, labelled. */
const TOGGLES = 0x03;

function box(type: string, content: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + content.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, content]);
}

/** One small assertion: `{ "n": index }` under its own label. */
function assertion(index: number): Buffer {
  const label = Buffer.from(`${CROWD_LABEL}${index}\0`, 'latin1');
  const description = box('jumd', Buffer.concat([CBOR_TYPE, Buffer.from([TOGGLES]), label]));
  const value = Buffer.from([0xa1, 0x61, 0x6e, 0x1a, 0, 0, 0, 0]);
  value.writeUInt32BE(index, 4);
  return box('jumb', Buffer.concat([description, box('cbor', value)]));
}

/** The label of the superbox at `at` (its jumd's), or '' when it has none. */
function labelAt(store: Buffer, at: number): string {
  const description = at + 8;
  if (store.toString('latin1', description + 4, description + 8) !== 'jumd') return '';
  const text = store.subarray(description + 8 + 17, at + store.readUInt32BE(at));
  return text.toString('latin1').split('\0')[0] ?? '';
}

/** The offsets of the superboxes from the store down to the assertion store (8-byte headers). */
function pathToAssertions(store: Buffer): number[] {
  const path = [0];
  for (let depth = 0; depth < 2; depth += 1) {
    const parent = path[path.length - 1]!;
    const end = parent + store.readUInt32BE(parent);
    let at = parent + 8;
    at += store.readUInt32BE(at); // its description
    const wanted =
      depth === 0
        ? (label: string) => label.startsWith('urn:')
        : (label: string) => label === 'c2pa.assertions';
    while (
      at < end &&
      !(store.toString('latin1', at + 4, at + 8) === 'jumb' && wanted(labelAt(store, at)))
    ) {
      at += store.readUInt32BE(at);
    }
    if (at >= end) throw new Error('no assertion store in the fixture');
    path.push(at);
  }
  return path;
}

/** `store` with `added` at the end of its (first manifest's) assertion store. */
function addToAssertions(store: Buffer, added: Buffer): Buffer {
  const path = pathToAssertions(store);
  const assertions = path[path.length - 1]!;
  const end = assertions + store.readUInt32BE(assertions);
  const crowded = Buffer.concat([store.subarray(0, end), added, store.subarray(end)]);
  for (const at of path) crowded.writeUInt32BE(crowded.readUInt32BE(at) + added.length, at);
  return crowded;
}

/** `store` with `count` more assertions at the end of its (first manifest's) assertion store. */
export function crowdedStore(store: Buffer, count: number): Buffer {
  return addToAssertions(
    store,
    Buffer.concat(Array.from({ length: count }, (_, index) => assertion(index))),
  );
}

/** `store` with `count` empty `free` boxes (boxes, not assertions) in its assertion store. */
export function boxFilledStore(store: Buffer, count: number): Buffer {
  return addToAssertions(
    store,
    Buffer.concat(Array.from({ length: count }, () => box('free', Buffer.alloc(0)))),
  );
}

const APP11_HEADER = 8; // 'JP', box instance (2), sequence number (4)
/** The most of a box one APP11 segment carries (its length field counts itself too). */
const SEGMENT_PIECE = 65_000;

/** `jpeg` with its manifest store replaced by `store`, split across as many APP11 segments as it needs. */
export function withJpegStore(jpeg: Buffer, store: Buffer): Buffer {
  const { start, end } = jpegStore(jpeg);
  const head = store.subarray(0, 8);
  const body = store.subarray(8);
  const segments: Buffer[] = [];
  for (let at = 0, sequence = 1; at < body.length; at += SEGMENT_PIECE, sequence += 1) {
    const piece = body.subarray(at, at + SEGMENT_PIECE);
    const marker = Buffer.alloc(4 + APP11_HEADER);
    marker.writeUInt16BE(0xffeb, 0);
    marker.writeUInt16BE(2 + APP11_HEADER + head.length + piece.length, 2);
    marker.write('JP', 4, 'latin1');
    marker.writeUInt16BE(1, 6);
    marker.writeUInt32BE(sequence, 8);
    segments.push(Buffer.concat([marker, head, piece]));
  }
  return Buffer.concat([jpeg.subarray(0, start), ...segments, jpeg.subarray(end)]);
}

/** The WebP fixture's store (its `C2PA` chunk). */
function webpStore(webp: Buffer): Buffer {
  for (let at = 12; at + 8 <= webp.length;) {
    const size = webp.readUInt32LE(at + 4);
    if (webp.toString('latin1', at, at + 4) === 'C2PA') return webp.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  throw new Error('no C2PA chunk');
}

/** A signed fixture of `format` whose store carries `count` more assertions. */
export function crowdedImage(format: 'png' | 'jpeg' | 'webp', count: number): Buffer {
  if (format === 'png') {
    const png = c2paFixture('signed.png');
    return withPngStore(png, crowdedStore(pngStore(png), count));
  }
  if (format === 'jpeg') {
    const jpeg = c2paFixture('signed.jpg');
    return withJpegStore(jpeg, crowdedStore(jpegStore(jpeg).store, count));
  }
  const webp = c2paFixture('signed.webp');
  return withWebpStore(webp, crowdedStore(webpStore(webp), count));
}
