import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectC2pa,
  detectC2paInBytes,
  detectC2paInOpenFile,
} from '../../../../../electron/core/gallery/metadata/c2pa-detect';
import type { ImageKind } from '../../../../../electron/core/images/image-sniff';
import {
  buildPng,
  c2paFixture,
  c2paSuperbox,
  IRREGULAR_JPEG_STORES,
  jpegStore,
  pngChunks,
  pngStore,
  splitJpegStore,
  withPngStore,
} from '../../../../support/c2pa-hostile';
import { ENCODINGS, makeEncoded } from './meta-helpers';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const SIGNED: Array<[ImageKind, Parameters<typeof c2paFixture>[0], string]> = [
  ['png', 'signed.png', 'png-caBX'],
  ['jpeg', 'signed.jpg', 'jpeg-APP11'],
  ['webp', 'signed.webp', 'webp-C2PA'],
];

/** Walks a PNG in memory, counting the reads the walk asks for and the bytes they cover. */
async function countedWalk(png: Buffer) {
  let read = 0;
  let calls = 0;
  const presence = await detectC2pa(
    {
      size: png.length,
      read: (offset, length) => {
        calls += 1;
        read += length;
        return Promise.resolve(png.subarray(offset, offset + length));
      },
    },
    'png',
  );
  return { presence, calls, read };
}

describe('detecting a C2PA manifest store by the container structure', () => {
  it.each(SIGNED)(
    'finds the store of a signed %s where C2PA puts it',
    async (kind, name, container) => {
      const presence = await detectC2paInBytes(c2paFixture(name), kind);
      expect(presence).toMatchObject({ found: true, container, parts: 1, labelled: true });
      expect(presence.found && presence.bytes).toBeGreaterThan(1000);
      expect(presence).not.toHaveProperty('damaged');
    },
  );

  it.each(ENCODINGS.map((encoding) => [encoding.name, encoding] as const))(
    'finds nothing in an unsigned %s',
    async (_name, encoding) => {
      const bytes = await makeEncoded(encoding, 64, 48);
      await expect(detectC2paInBytes(bytes, encoding.kind)).resolves.toEqual({ found: false });
    },
  );

  it('counts every APP11 segment of a store split across several (and 1,000)', async () => {
    await expect(detectC2paInBytes(c2paFixture('signed-split.jpg'), 'jpeg')).resolves.toMatchObject(
      {
        found: true,
        parts: 3,
      },
    );
    const thousand = splitJpegStore(c2paFixture('signed.jpg'), 1000);
    await expect(detectC2paInBytes(thousand, 'jpeg')).resolves.toMatchObject({
      found: true,
      parts: 1000,
      labelled: true,
    });
  });

  it('does not take the bytes of a store for one when they sit where no store goes', async () => {
    // The store's bytes inside a tEXt chunk of an unsigned PNG: a byte search would find `c2pa`.
    const plain = await makeEncoded(ENCODINGS[0]!, 32, 32);
    const store = pngStore(c2paFixture('signed.png'));
    const chunks = pngChunks(plain);
    chunks.splice(1, 0, { type: 'tEXt', data: Buffer.concat([Buffer.from('c2pa\0'), store]) });
    await expect(detectC2paInBytes(buildPng(chunks), 'png')).resolves.toEqual({ found: false });
  });

  it.each(IRREGULAR_JPEG_STORES)(
    'counts an APP11 JUMBF store with %s, as a PNG counts any caBX',
    async (name, make) => {
      const presence = await detectC2paInBytes(make(), 'jpeg');
      const labelled = name !== 'no c2pa label';
      expect(presence).toMatchObject({ found: true, container: 'jpeg-APP11', labelled });
      const parts = name === 'a segment twice' ? 4 : name === 'segments out of order' ? 3 : 1;
      expect(presence.found && presence.parts).toBe(parts);
    },
  );

  it('takes an APP11 segment for JUMBF only when it opens with JP and a jumb box', async () => {
    const jpeg = c2paFixture('signed.jpg');
    const { start } = jpegStore(jpeg);
    const notJp = Buffer.from(jpeg);
    notJp.write('XX', start + 4, 'latin1');
    await expect(detectC2paInBytes(notJp, 'jpeg')).resolves.toEqual({ found: false });
    const notJumb = Buffer.from(jpeg);
    notJumb.write('jumx', start + 4 + 8 + 4, 'latin1');
    await expect(detectC2paInBytes(notJumb, 'jpeg')).resolves.toEqual({ found: false });
  });

  it('keeps a caBX chunk as a credential even when its content is not a labelled store', async () => {
    const garbage = withPngStore(c2paFixture('signed.png'), Buffer.from('not jumbf at all'));
    await expect(detectC2paInBytes(garbage, 'png')).resolves.toMatchObject({
      found: true,
      labelled: false,
    });
    const other = withPngStore(c2paFixture('signed.png'), c2paSuperbox(Buffer.alloc(10), 'cawg'));
    await expect(detectC2paInBytes(other, 'png')).resolves.toMatchObject({
      found: true,
      labelled: false,
    });
  });

  it('still finds the store of a file whose later chunks lie, and says it is damaged', async () => {
    const chunks = pngChunks(c2paFixture('signed.png'));
    const iend = chunks.pop()!;
    const lying = Buffer.concat([
      buildPng(chunks),
      Buffer.from([0x7f, 0xff, 0xff, 0xf0]),
      Buffer.from('IDAT'),
    ]);
    const presence = await detectC2paInBytes(lying, 'png');
    expect(presence).toMatchObject({ found: true, labelled: true });
    expect(presence.damaged).toMatch(/runs past the end/);
    expect(iend.type).toBe('IEND');
    // A truncated JPEG whose store came before the cut.
    const jpeg = c2paFixture('signed.jpg');
    const cut = jpeg.subarray(0, jpegStore(jpeg).end + 30);
    await expect(detectC2paInBytes(cut, 'jpeg')).resolves.toMatchObject({
      found: true,
      labelled: true,
    });
  });

  it('reads a few windows of a big file, never the whole of it', async () => {
    // 2,000 chunks of 8 KiB before the store: the walk reads headers through a 64 KiB window.
    const chunks = pngChunks(c2paFixture('signed.png'));
    const filler = Array.from({ length: 2000 }, () => ({
      type: 'tEXt',
      data: Buffer.alloc(8192, 0x41),
    }));
    chunks.splice(1, 0, ...filler);
    const big = buildPng(chunks);
    const { presence, calls, read } = await countedWalk(big);
    expect(presence).toMatchObject({ found: true, labelled: true });
    expect(calls).toBeLessThan(400);
    expect(calls).toBeLessThan(big.length / 8192 / 4);
    expect(read).toBeLessThan(big.length * 1.5);
  });

  it('steps over large chunks reading their headers only, not their bodies', async () => {
    // Encoders write IDAT in chunks of about 64 KiB: a window read at each header would read
    // (and allocate) the whole image to find a store that is usually not there.
    const chunks = pngChunks(c2paFixture('signed.png'));
    const idats = Array.from({ length: 100 }, () => ({ type: 'IDAT', data: Buffer.alloc(65_536) }));
    chunks.splice(chunks.length - 1, 0, ...idats);
    const big = buildPng(chunks);
    const { presence, calls, read } = await countedWalk(big);
    expect(presence).toMatchObject({ found: true, labelled: true });
    expect(calls).toBeLessThan(120);
    // A page per chunk header: 100 × 4 KiB and the small chunks' reads, not 6.5 MB.
    expect(read).toBeLessThan(1024 * 1024);
  });

  describe('on files', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await tempFolder('c2pa-detect');
    });
    afterAll(() => removeFolder(folder));

    it.each(SIGNED)('finds the store of a signed %s file', async (kind, name) => {
      const file = join(folder, name);
      await writeFile(file, c2paFixture(name));
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        await expect(detectC2paInOpenFile(handle, size, kind)).resolves.toMatchObject({
          found: true,
        });
      } finally {
        await handle.close();
      }
    });
  });
});
