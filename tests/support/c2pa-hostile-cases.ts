/**
 * The hostile manifest table: each case a crafted file made from the signed fixtures and the
 * type it is served as. Every verifier must answer each one `invalid` or `unreadable` within its
 * bounds: the worker thread through the download path (tests/hardening/hostile), the image
 * renderer's page (tests/integration/image-renderer). Also the signed fixtures and what an honest
 * verifier says of them.
 */
import { crc32 } from 'node:zlib';
import { MAX_STORE_BYTES } from '../../electron/core/gallery/metadata/c2pa-verdict';
import type { ImageFormat } from '../../electron/ports/image-engine';
import {
  buildPng,
  c2paFixture,
  c2paSuperbox,
  hugeDeclaredJumbf,
  nestedJumbf,
  pngChunks,
  pngStore,
  splitJpegStore,
  withPngStore,
  withWebpStore,
} from './c2pa-hostile';

/** A PNG chunk whose stored CRC is wrong (decoders skip an ancillary chunk's CRC). */
function lyingChunk(): { type: string; data: Buffer; crc: number } {
  const data = Buffer.from('Comment\0the other chunks lie');
  const head = Buffer.from('tEXt', 'latin1');
  return { type: 'tEXt', data, crc: (crc32(Buffer.concat([head, data])) ^ 0x5a5a) >>> 0 };
}

export const HOSTILE_MANIFESTS: Array<
  [string, () => Buffer, 'image/png' | 'image/jpeg' | 'image/webp']
> = [
  [
    'a JUMBF box that declares a terabyte',
    () => withPngStore(c2paFixture('signed.png'), hugeDeclaredJumbf()),
    'image/png',
  ],
  [
    'a real store bigger than the store cap',
    () =>
      withPngStore(
        c2paFixture('signed.png'),
        c2paSuperbox(Buffer.alloc(MAX_STORE_BYTES + 1024, 0x41)),
      ),
    'image/png',
  ],
  [
    'a JUMBF nested 50,000 deep',
    () => withPngStore(c2paFixture('signed.png'), nestedJumbf(50_000)),
    'image/png',
  ],
  [
    'a WebP store nested 50,000 deep',
    () => withWebpStore(c2paFixture('signed.webp'), nestedJumbf(50_000)),
    'image/webp',
  ],
  [
    'a manifest that claims another file’s hash',
    () => withPngStore(c2paFixture('signed.png'), pngStore(c2paFixture('signed-other.png'))),
    'image/png',
  ],
  [
    'a credential in a file whose other chunks lie',
    () => {
      const chunks = pngChunks(c2paFixture('signed.png'));
      chunks.splice(2, 0, lyingChunk());
      return buildPng(chunks);
    },
    'image/png',
  ],
  [
    'a store split across 1,000 APP11 segments',
    () => splitJpegStore(c2paFixture('signed.jpg'), 1000),
    'image/jpeg',
  ],
];

/** The signed fixtures and their formats. */
export const SIGNED_FIXTURES: Array<[ImageFormat, Parameters<typeof c2paFixture>[0]]> = [
  ['png', 'signed.png'],
  ['jpeg', 'signed.jpg'],
  ['webp', 'signed.webp'],
  ['jpeg', 'signed-split.jpg'],
];

/** What each signed fixture verifies as against the test trust list. */
export const SIGNED_VERDICT = {
  state: 'valid',
  signer: 'Pictor Test Signer',
  generator: 'Pictor Test Image Service 1.0',
  trusted: true,
  aiGenerated: true,
} as const;

/** What they verify as against the list Pictor ships, which does not hold the test CA. */
export const SIGNED_VERDICT_UNTRUSTED = { ...SIGNED_VERDICT, trusted: false } as const;

/** The signed PNG with a pixel byte changed after signing: its data hash no longer matches. */
export function pixelsChangedPng(): Buffer {
  const chunks = pngChunks(c2paFixture('signed.png'));
  const idat = chunks.find((chunk) => chunk.type === 'IDAT')!;
  const changed = Buffer.from(idat.data);
  changed[changed.length - 10]! ^= 0xff;
  idat.data = changed;
  return buildPng(chunks);
}
