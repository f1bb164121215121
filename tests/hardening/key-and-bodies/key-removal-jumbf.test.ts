/**
 * A JUMBF box where C2PA keeps a manifest store (a PNG `caBX` chunk, a JPEG's APP11 segments, a
 * WebP `C2PA` chunk) has one meaning for the Content Credentials walk and the key removal alike
 * (images/jumbf-box.ts): Content Credentials, labelled `c2pa` or not, well formed or not. The
 * walk finds it (so nothing is written into the file), and the removal, when it leaves anything
 * out, takes the box whole (never a piece of a store) and says the credentials went. Before, a
 * JPEG's unlabelled or damaged box was found by the walk but was ordinary metadata to the
 * removal: a key in one of its segments took that segment alone, leaving the rest of the box in
 * the file, and a key elsewhere left the box in an edited file while the image was said to have
 * lost no credentials. An APP11 segment that opens no `jumb` box stays ordinary metadata to both.
 * Each file is read back with exiftool where it reads JUMBF (PNG, JPEG).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectC2paInBytes } from '../../../electron/core/gallery/metadata/c2pa-detect';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import {
  type ImageKind,
  type MetadataKeyScrubber,
  withoutKeyMetadata,
} from '../../../electron/core/images';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { c2paSuperbox, splitJpegStore } from '../../support/c2pa-hostile';
import { EXIFTOOL, exiftoolRun } from '../../support/exiftool';
import { needing } from '../../support/tools';
import {
  bytesOf,
  plainImages,
  type Plain,
  withJpegSegment,
  withPngChunk,
  withWebpChunk,
} from './download-metadata-keys';
import { ENCODINGS, heldScrubberFor, keyScanner } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

let scrub: MetadataKeyScrubber;
let plain: Plain;
let dir: string;

beforeAll(async () => {
  scrub = await heldScrubberFor(KEY);
  plain = await plainImages();
  dir = await tempFolder('exif40-jumbf');
});
afterAll(async () => {
  await removeFolder(dir);
});

function box(type: string, content: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + content.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, content]);
}

/** Some text, padded so a JPEG box split in three has it in its middle segment. */
const content = (text: Buffer) =>
  box('json', Buffer.concat([Buffer.alloc(96, 0x2e), text, Buffer.alloc(96, 0x2e)]));

/** The boxes, each holding `text`, and whether the walk reads it as labelled `c2pa`. */
const BOXES: ReadonlyArray<readonly [string, boolean, (text: Buffer) => Buffer]> = [
  ['labelled c2pa', true, (text) => c2paSuperbox(content(text))],
  ['unlabelled (another label)', false, (text) => c2paSuperbox(content(text), 'xxxx')],
  [
    'unlabelled (another standard’s type)',
    false,
    (text) => {
      const uuid = Buffer.from('4a50333630001100800000aa00389b71', 'hex');
      const description = box('jumd', Buffer.concat([uuid, Buffer.from([3]), bytesOf('j360\0')]));
      return box('jumb', Buffer.concat([description, content(text)]));
    },
  ],
  [
    'malformed (no description, its length a lie)',
    false,
    (text) => {
      const lying = box('jumb', Buffer.concat([bytesOf('garbage'), content(text)]));
      lying.writeUInt32BE(0x7fffff00, 0);
      return lying;
    },
  ],
];

/** One APP11 segment's payload of a JUMBF box (`JP`, instance, sequence 1). */
const jumbfPayload = (jumbf: Buffer) => {
  const head = Buffer.from('JP\0\x07\0\0\0\x01', 'latin1');
  return Buffer.concat([head, jumbf]);
};

/** `jumbf` where `kind` keeps a store (a JPEG's in three APP11 segments), `other` elsewhere. */
function withBox(kind: ImageKind, jumbf: Buffer, other: Buffer): Buffer {
  if (kind === 'png') {
    const withText = withPngChunk(
      plain.png,
      pngChunk('tEXt', Buffer.concat([bytesOf('Note\0'), other])),
    );
    return withPngChunk(withText, pngChunk('caBX', jumbf));
  }
  if (kind === 'jpeg') {
    const stored = withJpegSegment(plain.jpeg, 0xeb, jumbfPayload(jumbf));
    return withJpegSegment(splitJpegStore(stored, 3), 0xfe, Buffer.concat([other, bytesOf('.')]));
  }
  return withWebpChunk(withWebpChunk(plain.webp, 'C2PA', jumbf), 'NOTE', other);
}

/** What exiftool reads of `bytes`: its tags by group (`JUMBF:JUMDLabel`…). */
async function exiftoolTags(bytes: Buffer, name: string): Promise<Record<string, unknown>> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const { stdout } = await exiftoolRun(['-j', '-G1', '-a', file]);
  return (JSON.parse(stdout) as Record<string, unknown>[])[0] ?? {};
}
const jumbfTags = (tags: Record<string, unknown>) =>
  Object.keys(tags).filter((name) => name.startsWith('JUMBF:'));

const KINDS: readonly ImageKind[] = ['png', 'jpeg', 'webp'];
const CASES = KINDS.flatMap((kind) =>
  BOXES.flatMap(([name, labelled, make]) =>
    (['in the box', 'elsewhere'] as const).map((where) => ({ kind, name, labelled, make, where })),
  ),
);

describe('a JUMBF box where C2PA keeps a store: one meaning for the walk and the key removal', () => {
  it.each(CASES)(
    '$kind, $name, the key $where: found, and taken out whole, said as credentials',
    async ({ kind, labelled, make, where }) => {
      for (const encoding of ['raw', 'base64']) {
        const said = bytesOf(ENCODINGS[encoding]!(KEY, 1));
        const ordinary = bytesOf('ordinary-text');
        const jumbf = make(where === 'in the box' ? said : ordinary);
        const bytes = withBox(kind, jumbf, where === 'in the box' ? ordinary : said);
        expect(await detectC2paInBytes(bytes, kind)).toMatchObject({ found: true, labelled });

        const removal = withoutKeyMetadata(bytes, kind, scrub);
        expect(removal).toMatchObject({ kind: 'removed', credentials: true });
        const out = (removal as { bytes: Buffer }).bytes;
        expect(leaks(out)).toEqual([]);
        // Whole: no piece of the box is left (its header, its content, any segment of it).
        expect(out.indexOf('jumb', 0, 'latin1')).toBe(-1);
        expect(out.indexOf(Buffer.alloc(48, 0x2e))).toBe(-1);
        expect(await detectC2paInBytes(out, kind)).toEqual({ found: false });
      }
    },
  );

  it.each(KINDS)('%s: with no key anywhere, the file is kept as it is, box and all', (kind) => {
    for (const [name, , make] of BOXES) {
      const bytes = withBox(kind, make(bytesOf('ordinary')), bytesOf('also-ordinary'));
      expect(withoutKeyMetadata(bytes, kind, scrub), name).toEqual({ kind: 'clean' });
    }
  });

  it('a JPEG APP11 that opens no jumb box is ordinary metadata to both', async () => {
    const said = bytesOf(ENCODINGS.raw!(KEY, 1));
    // `JP`, instance and sequence, then a box of another type: not JUMBF.
    const notJumbf = (text: Buffer) => jumbfPayload(box('free', content(text)));
    const kept = withJpegSegment(
      withJpegSegment(plain.jpeg, 0xeb, notJumbf(bytesOf('ordinary'))),
      0xfe,
      said,
    );
    expect(await detectC2paInBytes(kept, 'jpeg')).toEqual({ found: false });
    const keptOut = withoutKeyMetadata(kept, 'jpeg', scrub);
    expect(keptOut).toMatchObject({ kind: 'removed', credentials: false });
    expect((keptOut as { bytes: Buffer }).bytes.indexOf('free', 0, 'latin1')).toBeGreaterThan(0);

    const carrying = withJpegSegment(plain.jpeg, 0xeb, notJumbf(said));
    const gone = withoutKeyMetadata(carrying, 'jpeg', scrub);
    expect(gone).toMatchObject({ kind: 'removed', credentials: false });
    expect(leaks((gone as { bytes: Buffer }).bytes)).toEqual([]);
  });

  it.skipIf(!EXIFTOOL.path)(
    needing(
      EXIFTOOL,
      'exiftool reads the box before and no JUMBF after, the image whole (PNG, JPEG)',
    ),
    async () => {
      const said = bytesOf(ENCODINGS.raw!(KEY, 1));
      const ordinary = bytesOf('ordinary');
      for (const kind of ['png', 'jpeg'] as const) {
        for (const [name, labelled, make] of BOXES) {
          for (const inBox of [true, false]) {
            const bytes = withBox(kind, make(inBox ? said : ordinary), inBox ? ordinary : said);
            const file = `${kind}-${name.replace(/\W+/g, '-')}-${inBox}`;
            const before = await exiftoolTags(bytes, `${file}-before.${kind}`);
            // exiftool reads a well-formed box, labelled or not; a malformed one it may not.
            if (!name.startsWith('malformed')) expect(jumbfTags(before), name).not.toEqual([]);
            if (labelled) expect(before['JUMBF:JUMDLabel'], name).toBe('c2pa');
            const out = (withoutKeyMetadata(bytes, kind, scrub) as { bytes: Buffer }).bytes;
            const after = await exiftoolTags(out, `${file}-after.${kind}`);
            expect(jumbfTags(after), name).toEqual([]);
            expect(after['Composite:ImageSize'], name).toBe('40x30');
            expect(JSON.stringify(after), name).not.toContain(KEY);
          }
        }
      }
    },
  );
});
