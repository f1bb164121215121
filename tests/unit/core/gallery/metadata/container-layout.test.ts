/**
 * Where the metadata lands in each container, read from the bytes: PNG text chunks right after
 * IHDR (before IDAT, CRCs right); JPEG's XMP segment after SOI, JFIF and Exif; a simple WebP
 * extended to VP8X with the XMP flag, its alpha flag and the canvas size of its bitstream, and a
 * RIFF size that matches. exiftool's own validation finds nothing wrong.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { EXIFTOOL, exiftoolRun } from '../../../../support/exiftool';
import { needing } from '../../../../support/tools';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('layout');
});
afterAll(async () => {
  await removeFolder(dir);
});

/** Every edited file, for exiftool's validation at the end (skipped, saying so, without it). */
const written = new Map<string, Buffer>();

async function validate(bytes: Buffer, name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const { stdout } = await exiftoolRun(['-validate', '-warning', '-a', '-s3', file]);
  return stdout.trim();
}

it('PNG: iTXt XMP and parameters straight after IHDR, every CRC right', async () => {
  const edited = await embedProvenanceInBuffer(
    await makeEncoded(ENCODINGS[0]!, 30, 20),
    'png',
    sampleProvenance(),
  );
  const chunks: string[] = [];
  for (let at = 8; at < edited.length;) {
    const length = edited.readUInt32BE(at);
    const type = edited.toString('latin1', at + 4, at + 8);
    expect(crc32(edited.subarray(at + 4, at + 8 + length))).toBe(
      edited.readUInt32BE(at + 8 + length),
    );
    chunks.push(
      type === 'iTXt'
        ? `iTXt:${edited.toString('latin1', at + 8, edited.indexOf(0, at + 8))}`
        : type,
    );
    at += 12 + length;
  }
  expect(chunks.slice(0, 3)).toEqual(['IHDR', 'iTXt:XML:com.adobe.xmp', 'iTXt:parameters']);
  expect(chunks.indexOf('IDAT')).toBeGreaterThan(2);
  expect(chunks.at(-1)).toBe('IEND');
  written.set('layout.png', edited);
});

it('JPEG: the XMP segment after SOI, JFIF and Exif, before the rest', async () => {
  const withExif = await sharp(await makeEncoded(ENCODINGS[1]!, 30, 20))
    .withExif({ IFD0: { Copyright: 'someone' } })
    .jpeg()
    .toBuffer();
  const edited = await embedProvenanceInBuffer(withExif, 'jpeg', sampleProvenance());
  const markers: string[] = [];
  for (let at = 2; ;) {
    const marker = edited[at + 1]!;
    const length = edited.readUInt16BE(at + 2);
    const id = edited.toString('latin1', at + 4, at + 8);
    markers.push(`${marker.toString(16)}:${marker === 0xe0 || marker === 0xe1 ? id : ''}`);
    if (marker === 0xda) break;
    at += 2 + length;
  }
  const exif = markers.indexOf('e1:Exif');
  expect(exif).toBeGreaterThanOrEqual(0);
  expect(markers[exif + 1]).toBe('e1:http');
  expect(markers.filter((marker) => marker === 'e1:http')).toHaveLength(1);
  written.set('layout.jpg', edited);
});

it.each([
  ['lossy', ENCODINGS[2]!, false, 'VP8 '],
  ['lossless', ENCODINGS[3]!, false, 'VP8L'],
  ['lossless with alpha', ENCODINGS[3]!, true, 'VP8L'],
])(
  'WebP %s: extended to VP8X with the right flags and canvas',
  async (_name, encoding, alpha, bitstream) => {
    const simple = await makeEncoded(encoding, 301, 77, alpha);
    expect(simple.toString('latin1', 12, 16)).toBe(bitstream);
    const edited = await embedProvenanceInBuffer(simple, 'webp', sampleProvenance());
    expect(edited.readUInt32LE(4)).toBe(edited.length - 8);
    expect(edited.toString('latin1', 12, 16)).toBe('VP8X');
    const flags = edited[20]!;
    expect(flags & 0x04).toBe(0x04);
    expect(flags & 0x10).toBe(alpha ? 0x10 : 0);
    expect([edited.readUIntLE(24, 3) + 1, edited.readUIntLE(27, 3) + 1]).toEqual([301, 77]);
    expect(edited.toString('latin1', 30, 34)).toBe(bitstream);
    written.set(`layout-${_name.replace(/ /g, '-')}.webp`, edited);
  },
);

it.skipIf(!EXIFTOOL.path)(
  needing(EXIFTOOL, "exiftool's validation finds nothing wrong in any of them"),
  async () => {
    expect([...written.keys()]).toHaveLength(5);
    for (const [name, bytes] of written) expect(await validate(bytes, name), name).toBe('OK');
  },
);
