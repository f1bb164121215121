/**
 * A photo's EXIF block carries the user's key (a hostile host echoed it in ImageDescription) and
 * its orientation: the download leaves the block out (download/key-intake.ts), and used to lose
 * the orientation with it, so a portrait photo showed sideways. Now a minimal EXIF holding only
 * the orientation stands in its place (images/metadata-orientation.ts): every orientation 1–8,
 * both byte orders, a JPEG APP1, a PNG eXIf (before IDAT, as decoders read it) and a WebP EXIF
 * chunk (VP8X), real files made with sharp, read back by exiftool and by Pictor's own header
 * check; no form of the key in the file, the pixels the same, nothing else of the block kept.
 * Controls: the form of the block (a PNG eXIf written `Exif\0\0` first, which Chromium reads as
 * no orientation, stays a block of that form) and a PNG eXIf whose checksum fails (read by no
 * one: left out with nothing in its place).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import { type ImageKind, checkHeaderOfBytes } from '../../../electron/core/images';
import { heldKeyScrubberOrNone } from '../../../electron/core/secrets';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { exiftoolRun } from '../../support/exiftool';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { makeRecord } from '../../support/gallery-helpers';
import { withJpegSegment, withWebpChunk } from './download-metadata-keys';
import { ENCODINGS, keyScanner } from './key-encodings';
import { startRawHost, type RawHost } from './raw-hosts';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8];

const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

/**
 * TIFF data whose IFD0 holds ImageDescription = `text` (out of line), Orientation = `value` and
 * Copyright "kept-nowhere", in `order`.
 */
function tiffWith(value: number, text: Buffer, order: 'II' | 'MM'): Buffer {
  const little = order === 'II';
  const copyright = Buffer.from('kept-nowhere\0', 'latin1');
  const data = 8 + 2 + 3 * 12 + 4;
  const tiff = Buffer.alloc(data + text.length + 1 + copyright.length);
  const w16 = (v: number, at: number) =>
    little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at);
  const w32 = (v: number, at: number) =>
    little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at);
  tiff.write(order, 0, 'latin1');
  w16(42, 2);
  w32(8, 4);
  w16(3, 8);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    w16(tag, at);
    w16(type, at + 2);
    w32(count, at + 4);
    if (type === 3) w16(value, at + 8);
    else w32(value, at + 8);
  };
  entry(10, 0x010e, 2, text.length + 1, data);
  entry(22, 0x0112, 3, 1, value);
  entry(34, 0x8298, 2, copyright.length, data + text.length + 1);
  text.copy(tiff, data);
  copyright.copy(tiff, data + text.length + 1);
  return tiff;
}

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');

/** A PNG with `chunk` right after its IHDR (before IDAT, where decoders read an eXIf). */
const afterIhdr = (png: Buffer, chunk: Buffer) =>
  Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);

/** A VP8X WebP with an EXIF chunk holding `tiff`, its flag set. */
function webpWithExif(webp: Buffer, tiff: Buffer): Buffer {
  const out = withWebpChunk(webp, 'EXIF', tiff);
  out[20] = (out[20] ?? 0) | 0x08;
  return out;
}

let host: RawHost;
let dir: string;
let plain: { png: Buffer; jpeg: Buffer; webpX: Buffer };
let served = 0;

beforeAll(async () => {
  host = await startRawHost();
  dir = await tempFolder('orientation');
  const raw = { raw: { width: 40, height: 30, channels: 3 as const } };
  const pixels = Buffer.alloc(40 * 30 * 3, 0).map((_, i) => (i * 37) % 251);
  plain = {
    png: await sharp(pixels, raw).png().toBuffer(),
    jpeg: await sharp(pixels, raw).jpeg().toBuffer(),
    // A VP8X WebP (an ICC profile's flag): the only kind that may hold an EXIF chunk.
    webpX: await sharp(pixels, raw).withIccProfile('srgb').webp().toBuffer(),
  };
});

afterAll(async () => {
  await host.close();
  await removeFolder(dir);
});

async function galleryHoldingKey(name: string, provenance: boolean) {
  const root = join(dir, name);
  const { gallery, intake } = galleryOnServer(root, {
    ...(provenance ? { imageMetadata: { appVersion: 'test' } } : {}),
    keyScrubber: () => heldKeyScrubberOrNone(() => Promise.resolve([KEY])),
  });
  await gallery.init();
  const download = async (bytes: Buffer, kind: ImageKind) => {
    served += 1;
    const path = host.route(`/image/${served}`, () => ({
      headers: { 'Content-Type': MIME[kind], 'Content-Length': String(bytes.length) },
      body: [bytes],
    }));
    const outcome: DownloadOutcome = await intake.downloadImage(
      makeRecord([path], { endpoint: host.origin }),
      0,
      host.origin,
    );
    expect(outcome).toMatchObject({ state: 'saved', keyRemoved: 'metadata' });
    const file = join(root, (outcome as { file: string }).file);
    return { file, bytes: await readFile(file) };
  };
  return download;
}

/** What exiftool reads of each file: its orientation (a number), description and copyright. */
async function exiftool(files: string[]) {
  const tags = ['-Orientation', '-ImageDescription', '-Copyright'];
  const { stdout } = await exiftoolRun(['-j', '-n', ...tags, ...files]);
  return JSON.parse(stdout) as Record<string, unknown>[];
}

const pixelsOf = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

function keyed(kind: ImageKind, value: number, order: 'II' | 'MM', said: Buffer): Buffer {
  const tiff = tiffWith(value, said, order);
  if (kind === 'jpeg') return withJpegSegment(plain.jpeg, 0xe1, Buffer.concat([EXIF_ID, tiff]));
  if (kind === 'png') return afterIhdr(plain.png, pngChunk('eXIf', tiff));
  return webpWithExif(plain.webpX, tiff);
}

const FORMAT = { png: 'png', jpeg: 'jpeg', webp: 'webp' } as const;

describe('a key-carrying EXIF block left out of a downloaded image', () => {
  it.each(
    (['jpeg', 'png', 'webp'] as const).flatMap((kind) =>
      (['II', 'MM'] as const).flatMap((order) =>
        [false, true].map((provenance) => [kind, order, provenance] as const),
      ),
    ),
  )(
    'keeps its orientation, and only that (%s, %s, provenance %s)',
    async (kind, order, provenance) => {
      const download = await galleryHoldingKey(`${kind}-${order}-${provenance}`, provenance);
      const files: string[] = [];
      for (const value of ORIENTATIONS) {
        const said = Buffer.from(ENCODINGS.raw!(KEY, 1), 'latin1');
        const bytes = keyed(kind, value, order, said);
        expect(leaks(bytes)).not.toEqual([]);
        const saved = await download(bytes, kind);
        files.push(saved.file);
        expect(leaks(saved.bytes), `${value}`).toEqual([]);
        expect((await pixelsOf(saved.bytes)).equals(await pixelsOf(bytes)), `${value}`).toBe(true);
        // Pictor's own header check reads it as it read the file served (WebP: decoders never turn).
        const [before, after] = await Promise.all(
          [bytes, saved.bytes].map((each) => checkHeaderOfBytes(each, FORMAT[kind], 1e8)),
        );
        expect(after, `${value}`).toMatchObject({ ok: true });
        expect(after, `${value}`).toEqual(before);
      }
      // What exiftool reads: the orientation, and nothing else of the block.
      expect(await exiftool(files)).toEqual(
        ORIENTATIONS.map((value, i) => ({ SourceFile: files[i], Orientation: value })),
      );
    },
  );

  it('keeps the form of a PNG eXIf written `Exif\\0\\0` first: read by no decoder as before', async () => {
    const download = await galleryHoldingKey('png-prefixed', false);
    const said = Buffer.from(ENCODINGS.raw!(KEY, 1), 'latin1');
    const bytes = afterIhdr(
      plain.png,
      pngChunk('eXIf', Buffer.concat([EXIF_ID, tiffWith(6, said, 'II')])),
    );
    const saved = await download(bytes, 'png');
    expect(leaks(saved.bytes)).toEqual([]);
    const header = await checkHeaderOfBytes(saved.bytes, 'png', 1e8);
    expect(header).toEqual(await checkHeaderOfBytes(bytes, 'png', 1e8));
    expect(header).toMatchObject({ ok: true, header: { orientation: 1 } });
    expect(saved.bytes.includes(Buffer.concat([Buffer.from('eXIf'), EXIF_ID]))).toBe(true);
  });

  it('leaves out a PNG eXIf whose checksum fails, with nothing in its place', async () => {
    const download = await galleryHoldingKey('png-bad-crc', false);
    const said = Buffer.from(ENCODINGS.raw!(KEY, 1), 'latin1');
    const chunk = pngChunk('eXIf', tiffWith(6, said, 'II'));
    chunk.writeUInt32BE((chunk.readUInt32BE(chunk.length - 4) + 1) >>> 0, chunk.length - 4);
    const bytes = afterIhdr(plain.png, chunk);
    const saved = await download(bytes, 'png');
    expect(leaks(saved.bytes)).toEqual([]);
    expect(saved.bytes.includes('eXIf')).toBe(false);
    expect(await checkHeaderOfBytes(saved.bytes, 'png', 1e8)).toEqual(
      await checkHeaderOfBytes(bytes, 'png', 1e8),
    );
  });
});
