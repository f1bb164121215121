/**
 * A hostile image host puts the user's key in a downloaded image's OWN metadata (every carrier of
 * download-metadata-keys.ts, every encoding the key finder knows): the gallery used to keep it as
 * a plaintext file. Now the download leaves out the parts that carry it before the file is kept
 * (download/key-intake.ts): the image is saved, its pixels the same, no form of the key in any
 * file of the gallery, and the image says what was removed. A signed image loses its Content
 * Credentials with them (they would no longer match) and says so; a key where no part can go (a
 * PNG's palette) is a refusal that names no key. Controls: each source carries the key (the
 * test's own scanner finds it, but in compressed text), and images without a key keep their
 * metadata. One case runs through the whole core (submit, poll, download) on loopback.
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import { detectC2paInBytes } from '../../../electron/core/gallery/metadata/c2pa-detect';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { heldKeyScrubberOrNone } from '../../../electron/core/secrets';
import type { ImageKind } from '../../../electron/core/images';
import { listFiles } from '../../e2e/harness/disk';
import { StaticCredentials } from '../../fakes/static-credentials';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { c2paFixture } from '../../support/c2pa-hostile';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { makeRecord } from '../../support/gallery-helpers';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import {
  bytesOf,
  keyedImages,
  paletteSpelling,
  plainImages,
  type Plain,
  withJpegSegment,
  withPngChunk,
  withWebpChunk,
} from './download-metadata-keys';
import { ENCODING_NAMES, ENCODINGS, keyScanner } from './key-encodings';
import { startFakeService, startRawHost, type RawHost } from './raw-hosts';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import { build, chunksOf } from '../../support/png-chunks';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

let host: RawHost;
let dir: string;
let plain: Plain;
let served = 0;

beforeAll(async () => {
  host = await startRawHost();
  dir = await tempFolder('download-keys');
  plain = await plainImages();
});

afterAll(async () => {
  await host.close();
  await removeFolder(dir);
});

function serve(bytes: Buffer, kind: ImageKind): string {
  served += 1;
  return host.route(`/image/${served}`, () => ({
    headers: { 'Content-Type': MIME[kind], 'Content-Length': String(bytes.length) },
    body: [bytes],
  }));
}

/**
 * A gallery whose intake holds the key (as the core's does) and writes provenance (as the core's
 * does), or (`asItCame`) keeps images as they came.
 */
async function galleryHoldingKey(name: string, asItCame = false) {
  const root = join(dir, name);
  const { gallery, intake } = galleryOnServer(root, {
    ...(asItCame ? {} : { imageMetadata: { appVersion: 'test' } }),
    keyScrubber: () => heldKeyScrubberOrNone(() => Promise.resolve([KEY])),
  });
  await gallery.init();
  const download = async (bytes: Buffer, kind: ImageKind): Promise<DownloadOutcome> => {
    const record = makeRecord([serve(bytes, kind)], { endpoint: host.origin });
    return intake.downloadImage(record, 0, host.origin);
  };
  return { root, download };
}

const pixelsOf = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

/** Every file of the gallery (images, thumbnails, temp files) holds no form of the key. */
async function expectNoKeyIn(root: string) {
  const files = await listFiles(root);
  expect(files.filter((file) => file.startsWith('.pictor-tmp/'))).toEqual([]);
  for (const file of files) expect(leaks(await readFile(join(root, file))), file).toEqual([]);
}

describe('a downloaded image whose own metadata carries a held key', () => {
  it.each(
    ENCODING_NAMES.flatMap((encoding) => [
      [encoding, 'provenance'],
      [encoding, 'as it came'],
    ]),
  )('is saved without it, pixels untouched (%s, %s)', async (encoding, how) => {
    const said = ENCODINGS[encoding]!(KEY, 1);
    const asItCame = how === 'as it came';
    const { root, download } = await galleryHoldingKey(`encoding-${encoding}-${how}`, asItCame);
    for (const [name, { kind, bytes }] of Object.entries(keyedImages(plain, said))) {
      // The control: the key is in the file as served (compressed text: only inflated).
      if (!/zTXt|compressed/.test(name)) expect(leaks(bytes), name).not.toEqual([]);
      const outcome = await download(bytes, kind);
      // Pictor's own XMP takes the place of a JPEG's or a WebP's (gallery/metadata/): the key
      // went with it already.
      const replaced = !asItCame && / XMP/.test(name);
      const removed = replaced ? {} : { keyRemoved: 'metadata' };
      expect(outcome, name).toMatchObject({ state: 'saved', ...removed });
      const saved = await readFile(join(root, (outcome as { file: string }).file));
      expect(leaks(saved), name).toEqual([]);
      expect((await pixelsOf(saved)).equals(await pixelsOf(bytes)), name).toBe(true);
    }
    await expectNoKeyIn(root);
  });

  it('keeps the metadata of images that carry no key', async () => {
    const { root, download } = await galleryHoldingKey('ordinary');
    for (const [name, { kind, bytes }] of Object.entries(keyedImages(plain, 'ordinary-text'))) {
      const outcome = await download(bytes, kind);
      expect(outcome, name).toMatchObject({ state: 'saved' });
      expect(outcome, name).not.toHaveProperty('keyRemoved');
      const saved = await readFile(join(root, (outcome as { file: string }).file));
      if (!/zTXt|compressed|XMP/.test(name))
        expect(saved.includes('ordinary-text'), name).toBe(true);
    }
  });

  it.each(['raw', 'base64', 'hexUpper', 'utf16le'])(
    'a signed image loses its Content Credentials with the key, and says so (%s)',
    async (encoding) => {
      const text = bytesOf(ENCODINGS[encoding]!(KEY, 1));
      const signed = {
        png: withPngChunk(
          c2paFixture('signed.png'),
          pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), text])),
        ),
        jpeg: withJpegSegment(c2paFixture('signed.jpg'), 0xfe, text),
        webp: withWebpChunk(c2paFixture('signed.webp'), 'NOTE', text),
      };
      const { root, download } = await galleryHoldingKey(`signed-${encoding}`);
      for (const [kind, bytes] of Object.entries(signed) as [ImageKind, Buffer][]) {
        expect((await detectC2paInBytes(bytes, kind)).found, kind).toBe(true);
        const outcome = await download(bytes, kind);
        expect(outcome, kind).toMatchObject({ state: 'saved', keyRemoved: 'credentials' });
        expect(outcome, kind).not.toHaveProperty('contentCredentials');
        const saved = await readFile(join(root, (outcome as { file: string }).file));
        expect((await detectC2paInBytes(saved, kind)).found, kind).toBe(false);
        expect((await pixelsOf(saved)).equals(await pixelsOf(bytes)), kind).toBe(true);
      }
      await expectNoKeyIn(root);
    },
  );

  it.each(['provenance', 'as it came'])(
    'finds a key after IEND in bytes shaped as a pixel chunk (%s)',
    async (how) => {
      // After IEND nothing is a chunk: the outline's walk stepped over this "IDAT" as pixels.
      const said = bytesOf(ENCODINGS.raw!(KEY, 1));
      const fake = Buffer.concat([Buffer.alloc(4), Buffer.from('IDAT'), said, Buffer.alloc(4)]);
      fake.writeUInt32BE(said.length, 0);
      const bytes = Buffer.concat([plain.png, fake]);
      expect(leaks(bytes)).not.toEqual([]);
      const { root, download } = await galleryHoldingKey(`after-iend-${how}`, how !== 'provenance');
      const outcome = await download(bytes, 'png');
      expect(outcome).toMatchObject({ state: 'saved', keyRemoved: 'metadata' });
      await expectNoKeyIn(root);
    },
  );

  it('searches a PNG of many pixel chunks without reading it back a chunk at a time', async () => {
    // An encoder writes pixel data in chunks of 8 KB: ~1,000 in an 8 MB image. The edit as it
    // downloads walks them already; the search read each one's head back from the file, a read
    // per chunk (most of a download's CPU). Counted on the file handles' own reads.
    const [ihdr, ...rest] = chunksOf(plain.png);
    const iend = rest.pop()!;
    const data = Buffer.concat(rest.filter((c) => c.type === 'IDAT').map((c) => c.data));
    const idats = Array.from({ length: data.length }, (_, n) => ({
      type: 'IDAT',
      data: data.subarray(n, n + 1),
    }));
    const said = bytesOf(ENCODINGS.base64!(KEY, 1));
    const comment = { type: 'tEXt', data: Buffer.concat([Buffer.from('Comment\0'), said]) };
    const many = build([ihdr!, comment, ...idats, iend]);
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
    await probe.close();
    const read = proto.read;
    let reads = 0;
    proto.read = function (this: unknown, ...args: unknown[]) {
      reads += 1;
      return read.apply(this, args);
    };
    try {
      const { root, download } = await galleryHoldingKey('many-chunks');
      expect(await download(many, 'png')).toMatchObject({ state: 'saved', keyRemoved: 'metadata' });
      await expectNoKeyIn(root);
    } finally {
      proto.read = read;
    }
    expect(idats.length).toBeGreaterThan(1000);
    expect(reads).toBeLessThan(100);
  });

  it('keeps a signed image without a key exactly as it came', async () => {
    const { root, download } = await galleryHoldingKey('signed-clean');
    const bytes = c2paFixture('signed.png');
    const outcome = await download(bytes, 'png');
    expect(outcome).toMatchObject({ state: 'saved' });
    expect(outcome).not.toHaveProperty('keyRemoved');
    expect((await readFile(join(root, (outcome as { file: string }).file))).equals(bytes)).toBe(
      true,
    );
  });

  it('refuses an image whose key is where nothing can go (a palette), naming no key', async () => {
    const { root, download } = await galleryHoldingKey('palette');
    for (const encoding of ['raw', 'base64', 'hexLower']) {
      const bytes = paletteSpelling(bytesOf(ENCODINGS[encoding]!(KEY, 1)));
      expect(leaks(bytes), encoding).not.toEqual([]);
      // The control: the image decodes (the refusal is the key's, not the file's).
      await expect(pixelsOf(bytes)).resolves.toBeInstanceOf(Buffer);
      const outcome = await download(bytes, 'png');
      expect(outcome, encoding).toMatchObject({ state: 'invalid' });
      expect((outcome as { error: string }).error).toMatch(/carries an API key this computer/);
      expect(leaks(Buffer.from(JSON.stringify(outcome)))).toEqual([]);
    }
    expect(await listFiles(root)).toEqual([]);
  });

  it('through the whole core: the record says what was removed, no file holds the key', async () => {
    const bytes = keyedImages(plain, ENCODINGS.base64!(KEY, 2))['JPEG comment']!.bytes;
    const url = serve(bytes, 'jpeg');
    const service = await startFakeService(() => ({ images: [url] }));
    const root = join(dir, 'core-gallery');
    const core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'core-data'),
      galleryDir: root,
      fetch: (to, init) => fetch(to, init),
      credentials: new StaticCredentials(service.origin, KEY),
      clock: systemClock,
      engine: { pollIntervalMs: 100, maxBackoffMs: 300 },
      ...bundledCoreWorkers(),
    });
    try {
      core.engine.start();
      const [task] = await core.engine.submit(
        { prompt: 'a key echo' },
        targetAt(service.origin),
        1,
      );
      const [done] = await core.engine.whenSettled([task!.localId]);
      expect(done?.images[0]).toMatchObject({ state: 'saved', keyRemoved: 'metadata' });
      expect(core.history.get(task!.localId)?.images[0]?.keyRemoved).toBe('metadata');
    } finally {
      await core.close();
      await service.close();
    }
    await expectNoKeyIn(root);
  });
});
