/**
 * A held key in a PNG's compressed chunks, where the search read nothing before: an iCCP's
 * profile (never inflated: exiftool shows a profile's description), and a zTXt's or compressed
 * iTXt's text that cannot be inflated whole within the search's 1 MiB (metadata-parts.ts): one
 * that inflates past it (exiftool reads a zTXt of any size), one cut short (Python's zlib and so
 * Pillow read a stream as far as it goes), one broken after the key (a streaming reader has read
 * the key by then). Each was `clean` to the search, so a downloaded or exported image kept the
 * key. Now what a stream holds is read as far as it goes, and a chunk that cannot be read whole
 * is left out as one carrying a key; pixels untouched. Compressed chunks that carry no key and
 * inflate whole stay.
 */
import { randomInt } from 'node:crypto';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import {
  type MetadataKeyScrubber,
  metadataCarriesKey,
  withoutKeyMetadata,
} from '../../../electron/core/images';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { plainImages, withPngChunk } from './download-metadata-keys';
import { heldScrubberFor, keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;
const scanner = keyScanner(KEY);
/** The search's bound on what one compressed chunk inflates to (metadata-parts.ts). */
const BOUND = 1024 * 1024;

let scrub: MetadataKeyScrubber;
let png: Buffer;

beforeAll(async () => {
  scrub = await heldScrubberFor(KEY);
  png = (await plainImages()).png;
});

const text = (...pieces: (string | Buffer)[]) =>
  Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));

/** `count` random small letters: text that compresses, but not to nothing. */
const letters = (count: number) =>
  Buffer.from(Array.from({ length: count }, () => 0x61 + randomInt(26)));

/** A compressed stream, and what a reader reads of it (its control). */
interface Stream {
  readonly stream: Buffer;
  readonly read: Buffer;
}

/** The ways a stream holding `said` reaches the file. */
const STREAMS: Record<string, (said: Buffer) => Stream> = {
  whole: (said) => ({ stream: deflateSync(said), read: said }),
  'cut short': (said) => {
    // Letters after the text, so the stream is coded (not stored) and the cut takes only them.
    const whole = deflateSync(text(said, letters(8_000)));
    const stream = whole.subarray(0, whole.length - 400);
    // What Python's zlib.decompressobj (Pillow's reader) gives: the stream as far as it goes.
    return { stream, read: inflateSync(stream, { finishFlush: constants.Z_SYNC_FLUSH }) };
  },
  'past the bound': (said) => {
    const read = text(said, Buffer.alloc(BOUND + 16, 0x20));
    return { stream: deflateSync(read), read };
  },
  'broken after the key': (said) => {
    // Flushed to a byte boundary after the text, then a block of the reserved type 3.
    const start = deflateSync(said, { finishFlush: constants.Z_FULL_FLUSH });
    const stream = text(start, Buffer.from([0xff, 0xff, 0xff, 0xff]));
    expect(() => inflateSync(stream)).toThrow();
    return { stream, read: inflateSync(start, { finishFlush: constants.Z_SYNC_FLUSH }) };
  },
};

/** The compressed chunks of a PNG, each holding `stream`. */
const CARRIERS: Record<string, (stream: Buffer) => Buffer> = {
  zTXt: (stream) => pngChunk('zTXt', text('Comment\0\0', stream)),
  'iTXt (compressed)': (stream) => pngChunk('iTXt', text('Comment\0\x01\0\0\0', stream)),
  iCCP: (stream) => pngChunk('iCCP', text('icc\0\0', stream)),
};

const pixelsOf = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

describe('a held key in a PNG’s compressed chunk', () => {
  const cases = Object.keys(CARRIERS).flatMap((carrier) =>
    Object.keys(STREAMS).map((how) => [carrier, how] as const),
  );

  it.each(cases)('is found and left out (%s, %s)', async (carrier, how) => {
    const { stream, read } = STREAMS[how]!(text('profile: ', KEY, ' end'));
    // The control: a reader reads the key out of the chunk.
    expect(scanner.leaks(read.toString('latin1'))).not.toEqual([]);
    const chunk = CARRIERS[carrier]!(stream);
    // Only inflated: no form of the key in the chunk's own bytes.
    expect(scanner.leaks(chunk.toString('latin1'))).toEqual([]);
    const bytes = withPngChunk(png, chunk);
    expect(metadataCarriesKey(bytes, 'png', scrub)).toBe(true);
    const removal = withoutKeyMetadata(bytes, 'png', scrub);
    expect(removal).toMatchObject({ kind: 'removed', credentials: false });
    const kept = (removal as { bytes: Buffer }).bytes;
    expect(kept.includes(chunk)).toBe(false);
    expect(kept.length).toBe(png.length);
    expect(metadataCarriesKey(kept, 'png', scrub)).toBe(false);
    expect((await pixelsOf(kept)).equals(await pixelsOf(png))).toBe(true);
  });
});

describe('a compressed chunk without a key', () => {
  it.each(Object.keys(CARRIERS))('stays when it inflates whole (%s)', (carrier) => {
    const bytes = withPngChunk(png, CARRIERS[carrier]!(deflateSync(text('ordinary text '))));
    expect(metadataCarriesKey(bytes, 'png', scrub)).toBe(false);
    expect(withoutKeyMetadata(bytes, 'png', scrub)).toEqual({ kind: 'clean' });
  });

  it('stays when it is a real profile (sharp’s, in an iCCP)', async () => {
    const profiled = await sharp(png).withIccProfile('p3').png().toBuffer();
    expect(profiled.includes('iCCP')).toBe(true);
    expect(withoutKeyMetadata(profiled, 'png', scrub)).toEqual({ kind: 'clean' });
  });
});
