/**
 * The XMP writer on files (embedProvenanceInFile): the container is walked a range at a time and
 * the new file written as copied ranges plus the new chunks, so its memory does not grow with the
 * image. Real files: the compressed image data (PNG IDAT, the JPEG scan, WebP bitstream chunks)
 * is byte for byte the same afterwards, and exiftool reads the XMP back.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageKind } from '../../../../../electron/core/images/image-sniff';
import { embedProvenanceInFile } from '../../../../../electron/core/gallery/metadata/embed';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { exiftool } from '../../../../support/exiftool';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

let root = '';
beforeAll(async () => {
  root = await tempFolder('xmp-stream');
  await mkdir(join(root, '.pictor-tmp'));
});
afterAll(() => removeFolder(root));

/** The bytes that hold the picture itself, by container: what no metadata edit may touch. */
function imageData(bytes: Buffer, kind: ImageKind): Buffer {
  if (kind === 'jpeg') {
    // From the first scan's marker to the end (SOS, entropy-coded data, EOI).
    for (let at = 2; at + 4 <= bytes.length;) {
      const marker = bytes[at + 1];
      if (marker === 0xda) return bytes.subarray(at);
      at += 2 + bytes.readUInt16BE(at + 2);
    }
    throw new Error('no scan');
  }
  const parts: Buffer[] = [];
  const kept = kind === 'png' ? ['IDAT', 'IHDR', 'PLTE', 'tRNS'] : ['VP8 ', 'VP8L', 'ALPH', 'ANMF'];
  for (let at = kind === 'png' ? 8 : 12; at + 8 <= bytes.length;) {
    const png = kind === 'png';
    const size = png ? bytes.readUInt32BE(at) : bytes.readUInt32LE(at + 4);
    const type = bytes.toString('latin1', png ? at + 4 : at, png ? at + 8 : at + 4);
    if (kept.includes(type)) parts.push(bytes.subarray(at + 8, at + 8 + size));
    at += png ? 12 + size : 8 + size + (size % 2);
  }
  return Buffer.concat(parts);
}

async function embedFile(name: string, bytes: Buffer, kind: ImageKind) {
  const file = join(root, '.pictor-tmp', name);
  await writeFile(file, bytes);
  const result = await embedProvenanceInFile(file, kind, sampleProvenance(), {
    root,
    maxBytes: 256 * 1024 * 1024,
  });
  return { file, result, edited: await readFile(file) };
}

describe.each(ENCODINGS)('$name on disk', (encoding) => {
  it('keeps the image data byte for byte, and exiftool reads the XMP', async () => {
    const original = await makeEncoded(encoding, 301, 203, encoding.kind === 'webp');
    const { file, result, edited } = await embedFile(`a-${encoding.name}`, original, encoding.kind);
    expect(result).toEqual({ ok: true, bytes: edited.length });
    expect(imageData(edited, encoding.kind).length).toBeGreaterThan(0);
    expect(imageData(edited, encoding.kind).equals(imageData(original, encoding.kind))).toBe(true);
    const tags = await exiftool(file);
    expect(tags['ExifTool:Warning']).toBeUndefined();
    expect(tags['XMP-dc:Description']).toBe(sampleProvenance().prompt);
    expect(tags['XMP-pictor:Model']).toBe('gpt-image-1');
    // Nothing else was left in the temp folder.
    expect((await readdir(join(root, '.pictor-tmp'))).sort()).toEqual([`a-${encoding.name}`]);
    await rm(file);
  });
});

describe('a large image', () => {
  it('is rewritten in bounded memory: a few windows, not the file', async () => {
    // 64 MiB of noise does not compress: a PNG of about that size.
    const side = 4600;
    const png = await sharp(randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(60 * 1024 * 1024);
    const file = join(root, '.pictor-tmp', 'large.png');
    await writeFile(file, png);
    const before = imageData(png, 'png');
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 0);
    const result = await embedProvenanceInFile(file, 'png', sampleProvenance(), {
      root,
      maxBytes: 256 * 1024 * 1024,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    expect(result.ok).toBe(true);
    // A few 256 KiB windows; the old writer read the whole file into one buffer (+63.6 MB).
    expect(peak - baseline).toBeLessThan(8 * 1024 * 1024);
    const edited = await readFile(file);
    expect(imageData(edited, 'png').equals(before)).toBe(true);
    await rm(file);
  }, 60_000);
});
