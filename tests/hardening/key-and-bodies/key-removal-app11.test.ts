/**
 * A JPEG's APP11 segments are Content Credentials when they open a JUMBF box (`JP`, box instance,
 * sequence, a `jumb` box header), labelled `c2pa` or not (images/jumbf-box.ts: the one meaning
 * the Content Credentials walk and the key removal share; key-removal-jumbf.test.ts tries it in
 * every format); every other use of the marker (bytes of another kind, a box of another type) is
 * ordinary metadata. The key removal (images/metadata-keys.ts) used to take any APP11 for
 * credentials: a JPEG with an unrelated APP11 and a key in its comment lost that APP11 too and
 * was said to have lost its Content Credentials. Now: unrelated APP11 stays (or goes, when it
 * carries the key) and is no credentials; a JUMBF box goes whole, each of its segments, however
 * its segments came (out of order, twice, its first one missing, its declared length a lie):
 * what may be a store is never left half in an edited file. Real signed JPEGs
 * (tests/fixtures/c2pa), the key in every encoding the finder knows.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectC2paInBytes } from '../../../electron/core/gallery/metadata/c2pa-detect';
import { type MetadataKeyScrubber, withoutKeyMetadata } from '../../../electron/core/images';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { c2paFixture, c2paSuperbox, splitJpegStore } from '../../support/c2pa-hostile';
import { bytesOf, withJpegSegment } from './download-metadata-keys';
import { ENCODING_NAMES, ENCODINGS, heldScrubberFor, keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;
const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

let scrub: MetadataKeyScrubber;
let plain: Buffer;

beforeAll(async () => {
  scrub = await heldScrubberFor(KEY);
  const raw = { raw: { width: 32, height: 24, channels: 3 as const } };
  plain = await sharp(randomBytes(32 * 24 * 3), raw)
    .jpeg()
    .toBuffer();
});

/** The payloads of a JPEG's APP11 segments before its first scan, in order. */
function app11Of(jpeg: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at + 1] !== 0xda;) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (jpeg[at + 1] === 0xeb) found.push(jpeg.subarray(at + 4, end));
    at = end;
  }
  return found;
}

/** One APP11 segment of a JUMBF box (`JP`, instance, sequence) holding `box`. */
const jumbfPayload = (box: Buffer, instance = 7, sequence = 1) => {
  const head = Buffer.from('JP\0\0\0\0\0\0', 'latin1');
  head.writeUInt16BE(instance, 2);
  head.writeUInt32BE(sequence, 4);
  return Buffer.concat([head, box]);
};

/** A JUMBF box of another standard (its own type UUID and label), holding `text`. */
function otherJumbf(text: Buffer): Buffer {
  const box = (type: string, content: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + content.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, content]);
  };
  const uuid = Buffer.from('4a50333630001100800000aa00389b71', 'hex');
  const description = box(
    'jumd',
    Buffer.concat([uuid, Buffer.from([3]), Buffer.from('jpeg360\0')]),
  );
  return box('jumb', Buffer.concat([description, box('json', text)]));
}

/** APP11 uses that are not Content Credentials (no JUMBF box), each holding `text`. */
const NOT_CREDENTIALS: ReadonlyArray<readonly [string, (text: Buffer) => Buffer]> = [
  ['bytes of another kind', (text) => Buffer.concat([Buffer.from('HDRGM\0'), text])],
  [
    'JP, instance and sequence, then a box of another type',
    (text) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + text.length, 0);
      head.write('free', 4, 'latin1');
      return jumbfPayload(Buffer.concat([head, text]));
    },
  ],
];

/** JUMBF boxes that are no C2PA store by their label: Content Credentials all the same. */
const UNLABELLED: ReadonlyArray<readonly [string, (text: Buffer) => Buffer]> = [
  ['a JUMBF box of another standard', (text) => jumbfPayload(otherJumbf(text))],
  [
    'a C2PA-labelled box whose first segment is missing',
    (text) => jumbfPayload(c2paSuperbox(Buffer.concat([Buffer.alloc(8), text])), 7, 2),
  ],
];

const withComment = (jpeg: Buffer, said: string) => withJpegSegment(jpeg, 0xfe, bytesOf(said));

describe('the key removal and a JPEG APP11 segment', () => {
  it.each(ENCODING_NAMES)(
    'keeps an APP11 that is no Content Credentials, and says no credentials went (%s)',
    (encoding) => {
      const said = ENCODINGS[encoding]!(KEY, 1);
      for (const [name, make] of NOT_CREDENTIALS) {
        const app11 = make(Buffer.from('ordinary-text'));
        const bytes = withComment(withJpegSegment(plain, 0xeb, app11), said);
        const removal = withoutKeyMetadata(bytes, 'jpeg', scrub);
        expect(removal, name).toMatchObject({ kind: 'removed', credentials: false });
        const out = (removal as { bytes: Buffer }).bytes;
        expect(leaks(out), name).toEqual([]);
        expect(app11Of(out), name).toEqual([app11]);
      }
    },
  );

  it.each(ENCODING_NAMES)(
    'takes out an APP11 that is no Content Credentials when it carries the key (%s)',
    (encoding) => {
      const said = bytesOf(ENCODINGS[encoding]!(KEY, 1));
      for (const [name, make] of NOT_CREDENTIALS) {
        const bytes = withJpegSegment(plain, 0xeb, make(said));
        const removal = withoutKeyMetadata(bytes, 'jpeg', scrub);
        expect(removal, name).toMatchObject({ kind: 'removed', credentials: false });
        const out = (removal as { bytes: Buffer }).bytes;
        expect(leaks(out), name).toEqual([]);
        expect(app11Of(out), name).toEqual([]);
      }
    },
  );

  it.each(ENCODING_NAMES)(
    'takes out a JUMBF box that is no C2PA store by its label, whole, and says credentials went (%s)',
    async (encoding) => {
      const said = ENCODINGS[encoding]!(KEY, 1);
      for (const [name, make] of UNLABELLED) {
        for (const [where, bytes] of [
          [
            'in its comment',
            withComment(withJpegSegment(plain, 0xeb, make(Buffer.from('x'))), said),
          ],
          ['in the box', withJpegSegment(plain, 0xeb, make(bytesOf(said)))],
        ] as const) {
          expect(await detectC2paInBytes(bytes, 'jpeg'), name).toMatchObject({
            found: true,
            labelled: false,
          });
          const removal = withoutKeyMetadata(bytes, 'jpeg', scrub);
          expect(removal, `${name} ${where}`).toMatchObject({ kind: 'removed', credentials: true });
          const out = (removal as { bytes: Buffer }).bytes;
          expect(leaks(out), name).toEqual([]);
          expect(app11Of(out), `${name} ${where}`).toEqual([]);
        }
      }
    },
  );

  const signed = (): ReadonlyArray<readonly [string, Buffer]> => [
    ['as signed', c2paFixture('signed.jpg')],
    ['split in three', splitJpegStore(c2paFixture('signed.jpg'), 3)],
    ['segments out of order', splitJpegStore(c2paFixture('signed.jpg'), 3, (s) => s.reverse())],
    [
      'a segment twice',
      splitJpegStore(c2paFixture('signed.jpg'), 3, ([a, b, c]) => [a!, b!, b!, c!]),
    ],
    [
      'its last segment missing',
      splitJpegStore(c2paFixture('signed.jpg'), 3, ([a, b]) => [a!, b!]),
    ],
    [
      'its declared length a lie',
      splitJpegStore(c2paFixture('signed.jpg'), 3, (segments) =>
        segments.map((each) => {
          const lying = Buffer.from(each);
          lying.writeUInt32BE(0x7fffffff, 12);
          return lying;
        }),
      ),
    ],
  ];

  it.each(['raw', 'base64', 'hexUpper', 'utf16le'])(
    'takes out every segment of a box that claims c2pa, however formed, and says so; other APP11 stays (%s)',
    async (encoding) => {
      const said = ENCODINGS[encoding]!(KEY, 1);
      const other = NOT_CREDENTIALS[1]![1](Buffer.from('ordinary-text'));
      for (const [name, jpeg] of signed()) {
        expect(await detectC2paInBytes(jpeg, 'jpeg'), name).toMatchObject({
          found: true,
          labelled: true,
        });
        const bytes = withComment(withJpegSegment(jpeg, 0xeb, other), said);
        const removal = withoutKeyMetadata(bytes, 'jpeg', scrub);
        expect(removal, name).toMatchObject({ kind: 'removed', credentials: true });
        const out = (removal as { bytes: Buffer }).bytes;
        expect(leaks(out), name).toEqual([]);
        expect(app11Of(out), name).toEqual([other]);
      }
    },
  );
});
