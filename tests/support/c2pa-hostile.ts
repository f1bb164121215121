/**
 * The signed fixtures (tests/fixtures/c2pa) and hostile variants made from them: manifest stores
 * moved, split, nested, inflated, and files whose other chunks lie. Each builder makes a
 * structurally plausible container (lengths and CRCs right unless the point is that they lie).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

export const C2PA_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'c2pa');
export const TEST_CA_PEM = join(C2PA_FIXTURES, 'test-ca.pem');

/** One of the committed fixtures, as bytes. */
export function c2paFixture(
  name: 'signed.png' | 'signed.jpg' | 'signed.webp' | 'signed-split.jpg' | 'signed-other.png',
): Buffer {
  return readFileSync(join(C2PA_FIXTURES, name));
}

export interface PngChunk {
  type: string;
  data: Buffer;
  /** A stored CRC that lies; absent: the right one. */
  crc?: number;
}

export function pngChunks(png: Buffer): PngChunk[] {
  const list: PngChunk[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    list.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return list;
}

export function buildPng(chunks: readonly PngChunk[]): Buffer {
  const parts = [png8()];
  for (const chunk of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(chunk.data.length, 0);
    head.write(chunk.type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(chunk.crc ?? crc32(Buffer.concat([head.subarray(4), chunk.data])), 0);
    parts.push(head, chunk.data, crc);
  }
  return Buffer.concat(parts);
}

function png8(): Buffer {
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
}

/** The manifest store (JUMBF) of a signed PNG. */
export function pngStore(png: Buffer): Buffer {
  const store = pngChunks(png).find((chunk) => chunk.type === 'caBX');
  if (!store) throw new Error('no caBX chunk');
  return Buffer.from(store.data);
}

/** `png` with its caBX chunk's data replaced (lengths and CRC made right). */
export function withPngStore(png: Buffer, store: Buffer): Buffer {
  return buildPng(
    pngChunks(png).map((chunk) => (chunk.type === 'caBX' ? { type: 'caBX', data: store } : chunk)),
  );
}

function box(type: string, content: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + content.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, content]);
}

const C2PA_UUID = Buffer.from('6332706100110010800000aa00389b71', 'hex');

/** A `jumb` superbox labelled as a C2PA manifest store holding `inner`. */
export function c2paSuperbox(inner: Buffer, label = 'c2pa'): Buffer {
  const description = box(
    'jumd',
    Buffer.concat([C2PA_UUID, Buffer.from([0x03]), Buffer.from(`${label}\0`)]),
  );
  return box('jumb', Buffer.concat([description, inner]));
}

/**
 * A store of `depth` superboxes, each inside the one before. A superbox is its header and its
 * description followed by its content, so the whole is each level's prefix in order: built in one
 * pass (nesting by concatenation would copy the inner boxes at every level).
 */
export function nestedJumbf(depth: number): Buffer {
  const descriptions = Array.from({ length: depth + 1 }, (_, level) =>
    box(
      'jumd',
      Buffer.concat([
        C2PA_UUID,
        Buffer.from([0x03]),
        Buffer.from(level === 0 ? 'c2pa\0' : `n${level}\0`),
      ]),
    ),
  );
  const lengths = new Array<number>(depth + 1);
  let inner = 0;
  for (let level = depth; level >= 0; level -= 1) {
    inner += 8 + descriptions[level]!.length;
    lengths[level] = inner;
  }
  const parts: Buffer[] = [];
  for (let level = 0; level <= depth; level += 1) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(lengths[level]!, 0);
    head.write('jumb', 4, 'latin1');
    parts.push(head, descriptions[level]!);
  }
  return Buffer.concat(parts);
}

/** A store whose superbox declares (with a 64-bit length) far more bytes than the file holds. */
export function hugeDeclaredJumbf(): Buffer {
  const store = c2paSuperbox(Buffer.alloc(64));
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write('jumb', 4, 'latin1');
  head.writeBigUInt64BE(2n ** 40n, 8);
  return Buffer.concat([head, store.subarray(8)]);
}

const APP11_HEADER = 8; // 'JP', box instance (2), sequence number (4)

/** The JUMBF store a JPEG carries in its APP11 segments, put back together. */
export function jpegStore(jpeg: Buffer): { store: Buffer; start: number; end: number } {
  const payloads: Buffer[] = [];
  let start = -1;
  let end = -1;
  for (let at = 2; at < jpeg.length;) {
    const marker = jpeg[at + 1];
    const length = jpeg.readUInt16BE(at + 2);
    if (marker === 0xda) break;
    if (marker === 0xeb && jpeg.toString('latin1', at + 4, at + 6) === 'JP') {
      if (start < 0) start = at;
      end = at + 2 + length;
      const data = jpeg.subarray(at + 4 + APP11_HEADER, at + 2 + length);
      // Every segment after the first repeats the box's 8-byte header.
      payloads.push(payloads.length === 0 ? data : data.subarray(8));
    }
    at += 2 + length;
  }
  return { store: Buffer.concat(payloads), start, end };
}

/**
 * `jpeg` with its manifest store re-split across `count` APP11 segments in its place; `arrange`
 * may reorder, repeat or drop the segments (each one whole: marker, JP header, box header, piece).
 */
export function splitJpegStore(
  jpeg: Buffer,
  count: number,
  arrange: (segments: Buffer[]) => Buffer[] = (segments) => segments,
): Buffer {
  const { store, start, end } = jpegStore(jpeg);
  const boxHead = store.subarray(0, 8);
  const body = store.subarray(8);
  const size = Math.ceil(body.length / count);
  const segments: Buffer[] = [];
  for (let part = 0; part < count; part += 1) {
    const slice = body.subarray(part * size, (part + 1) * size);
    const head = Buffer.alloc(4 + APP11_HEADER);
    head.writeUInt16BE(0xffeb, 0);
    head.writeUInt16BE(2 + APP11_HEADER + 8 + slice.length, 2);
    head.write('JP', 4, 'latin1');
    head.writeUInt16BE(1, 6);
    head.writeUInt32BE(part + 1, 8);
    segments.push(Buffer.concat([head, boxHead, slice]));
  }
  return Buffer.concat([jpeg.subarray(0, start), ...arrange(segments), jpeg.subarray(end)]);
}

/** `jpeg` with its store's `c2pa` label (the first segment's superbox) written as `xxxx`. */
export function unlabelledJpegStore(jpeg: Buffer): Buffer {
  const { start } = jpegStore(jpeg);
  const relabelled = Buffer.from(jpeg);
  const label = relabelled.indexOf('c2pa\0', start + 12 + 8 + 8 + 16);
  relabelled.write('xxxx', label, 'latin1');
  return relabelled;
}

/**
 * JPEGs whose APP11 JUMBF store a strict reader might not take for C2PA's: its segments out of
 * order, one of them twice, its superbox not labelled `c2pa`. Each is still a store, so a file
 * holding one must never be edited.
 */
export const IRREGULAR_JPEG_STORES: ReadonlyArray<readonly [string, () => Buffer]> = [
  ['segments out of order', () => splitJpegStore(c2paFixture('signed.jpg'), 3, (s) => s.reverse())],
  [
    'a segment twice',
    () => splitJpegStore(c2paFixture('signed.jpg'), 3, ([a, b, c]) => [a!, a!, b!, c!]),
  ],
  ['no c2pa label', () => unlabelledJpegStore(c2paFixture('signed.jpg'))],
];

/** A RIFF WebP's chunks; `withWebpChunk` rebuilds it with one chunk's data replaced. */
export function withWebpStore(webp: Buffer, store: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 12; at + 8 <= webp.length;) {
    const id = webp.toString('latin1', at, at + 4);
    const size = webp.readUInt32LE(at + 4);
    const data = id === 'C2PA' ? store : webp.subarray(at + 8, at + 8 + size);
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    parts.push(head, data, Buffer.alloc(data.length % 2));
    at += 8 + size + (size % 2);
  }
  const body = Buffer.concat(parts);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, body]);
}

/** An XMP packet whose `dcterms:provenance` (under `prefix`) names a remote manifest store. */
export function provenancePacket(address: string, prefix = 'dcterms'): string {
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:${prefix}="http://purl.org/dc/terms/" ${prefix}:provenance="${address}"/>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

/**
 * `image` with `packet` where its container keeps XMP: a PNG `iTXt` chunk after IHDR (its text
 * deflated when `compressed`), a JPEG APP1 segment after SOI, a WebP `XMP ` chunk at the end.
 */
export function withXmp(
  kind: 'png' | 'jpeg' | 'webp',
  image: Buffer,
  packet: string,
  compressed = false,
): Buffer {
  const text = Buffer.from(packet, 'utf8');
  if (kind === 'png') {
    const head = Buffer.from(`XML:com.adobe.xmp\0${compressed ? '\x01' : '\0'}\0\0\0`, 'latin1');
    const chunks = pngChunks(image);
    chunks.splice(1, 0, {
      type: 'iTXt',
      data: Buffer.concat([head, compressed ? deflateSync(text) : text]),
    });
    return buildPng(chunks);
  }
  if (kind === 'jpeg') {
    const data = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), text]);
    const marker = Buffer.from([0xff, 0xe1, 0, 0]);
    marker.writeUInt16BE(data.length + 2, 2);
    return Buffer.concat([image.subarray(0, 2), marker, data, image.subarray(2)]);
  }
  const chunk = Buffer.alloc(8);
  chunk.write('XMP ', 0, 'latin1');
  chunk.writeUInt32LE(text.length, 4);
  const riff = Buffer.concat([image, chunk, text, Buffer.alloc(text.length % 2)]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}
