/**
 * The key search over a downloaded PNG's outline reads a run of empty pixel chunks (~1,000 of an
 * 8 MB PNG in 8 KB IDAT chunks, each `\0\0\0\0IDAT` in the outline) cut to a few dozen
 * (images/metadata-keys.ts `searchedCompacted`): the search must find exactly what it finds over
 * the whole run. Checked against the search over every byte (the parts' searched bytes end to end,
 * as before the cut), for keys in every encoding the test's own encoders make (key-encodings.ts),
 * spelt out, split across two JSON values and in fullwidth UTF-8, cut at every byte around the
 * run (the key's start before it, its end after it, in a broken tail or after IEND), for runs
 * shorter than, as long as and longer than the part kept; for keys the run itself spells in a
 * view (`IDATIDAT…`, its base64 and hex bytes); and for random texts around random runs. And the
 * cut is made: an outline of 1,000 empty IDAT chunks is searched in under 1,000 characters, not
 * its ~8,000.
 */
import fc from 'fast-check';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metadataCarriesKey } from '../../../electron/core/images';
import { metadataOutline } from '../../../electron/core/images/metadata-outline';
import { metadataParts } from '../../../electron/core/images/metadata-parts';
import { scrubKey } from '../../../electron/core/secrets';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { ENCODINGS } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const EMPTY_IDAT = Buffer.from('\0\0\0\0IDAT', 'latin1');
const SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** A chunk with the four CRC bytes given: the walk reads them as they are. */
function chunk(type: string, data: Buffer, crc: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc.subarray(0, 4)]);
}

const IHDR = chunk('IHDR', Buffer.from('00000010000000100802000000', 'hex'), Buffer.alloc(4));
const IEND = chunk('IEND', Buffer.alloc(0), Buffer.from('ae426082', 'hex'));

/**
 * An outline: `before` ends right where the run begins (its last four bytes are the CRC of the
 * chunk that holds the rest), `runs` empty IDAT chunks, then `after`: right after the run as a
 * broken tail, or after IEND.
 */
function outline(before: Buffer, runs: number, after: Buffer, afterIend: boolean): Buffer {
  const padded = Buffer.concat([Buffer.alloc(Math.max(0, 4 - before.length), 0x5a), before]);
  const text = chunk(
    'tEXt',
    Buffer.concat([Buffer.from('Comment\0'), padded.subarray(0, padded.length - 4)]),
    padded.subarray(padded.length - 4),
  );
  const run = Array.from({ length: runs }, () => Buffer.concat([EMPTY_IDAT, Buffer.alloc(4)]));
  // Right after the run, `after` must not read as a whole chunk: its first word, a length past
  // the file's end, makes it a broken tail (searched whole).
  const tail = afterIend ? [IEND, after] : [Buffer.from([0xff, 0xff, 0xff, 0xff]), after];
  return Buffer.concat([SIGNATURE, IHDR, text, ...run, ...tail]);
}

/** The search over every searched byte, as metadata-keys.ts made it before the cut. */
function searchedWhole(bytes: Buffer, scrub: (text: string) => string): boolean {
  const whole = Buffer.concat(metadataParts(bytes, 'png').flatMap((each) => each.searched));
  return [whole.toString('latin1'), whole.toString('utf8')].some((text) => scrub(text) !== text);
}

const scrubberOf = (key: string) => (text: string) => scrubKey(text, key);

const KEY = QUIRKY_KEYS.alice;

const toFullwidth = (text: string) =>
  [...text]
    .map((c) => (c > ' ' && c < '\x7f' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
    .join('');

/** The key's forms as bytes: every test encoder's, spelt out, two JSON values, fullwidth. */
function formsOf(key: string): [string, Buffer][] {
  const half = Math.floor(key.length / 2);
  const texts: [string, string][] = [
    ...Object.entries(ENCODINGS).map(
      ([name, encode]) => [name, encode(key, 1)] as [string, string],
    ),
    ['spelt out', [...key].join(' ')],
    ['two JSON values', `{"a":"${key.slice(0, half)}","b":"${key.slice(half)}"}`],
    ['fullwidth', toFullwidth(key)],
  ];
  return texts.map(([name, text]) => [name, Buffer.from(text, 'utf8')]);
}

/**
 * Runs longer than the part kept (twice KEY_RUN: 24), one chunk over and far over: a run of 24 or
 * fewer is searched whole either way. Taken in turn with the cut, as is the tail's place.
 */
const RUNS = [25, 60];

describe('the key search over a run of empty pixel chunks', () => {
  it('finds a key in every form, cut at every byte around the run, as the search over every byte does', () => {
    const scrub = scrubberOf(KEY);
    const disagreements: string[] = [];
    let found = 0;
    for (const [name, form] of formsOf(KEY)) {
      for (let cut = 0; cut <= form.length; cut += 1) {
        const runs = RUNS[cut % RUNS.length] ?? 25;
        const afterIend = Math.floor(cut / RUNS.length) % 2 === 1;
        const bytes = outline(form.subarray(0, cut), runs, form.subarray(cut), afterIend);
        const whole = searchedWhole(bytes, scrub);
        if (whole) found += 1;
        if (metadataCarriesKey(bytes, 'png', scrub) !== whole)
          disagreements.push(`${name} cut at ${cut}, ${runs} chunks, after IEND ${afterIend}`);
      }
    }
    expect(disagreements).toEqual([]);
    // The placements are not all blind: the whole key at either side is found.
    expect(found).toBeGreaterThan(500);
  });

  it('finds keys the run itself spells in a view (its letters, base64 and hex bytes) as the search over every byte does', () => {
    const letters = 'IDAT'.repeat(8);
    const base64Bytes = [0, 1, 2, 3].map((skip) =>
      Buffer.from(letters.slice(skip), 'base64').toString('latin1'),
    );
    const keys = [
      ...[0, 1, 2, 3].map((skip) => letters.slice(skip, skip + 16)),
      ...[0, 1, 2, 3].map((skip) => `sk-${letters.slice(skip, skip + 13)}`),
      `${letters.slice(0, 13)}-zz9q`,
      ...base64Bytes.map((text) => text.slice(0, 14)).filter((text) => text.length >= 12),
      '\xda'.repeat(14),
    ];
    const disagreements: string[] = [];
    for (const key of keys) {
      const scrub = scrubberOf(key);
      for (const runs of [0, 1, 2, 3, 4, 5, 6, 11, 12, 13, 23, 24, 25, 26, 40, 100]) {
        for (const [before, after] of [
          ['', ''],
          [key.slice(0, 5), key.slice(-5)],
          ['&', ';'],
          ['%', 'zz'],
          ['"', '","x"'],
          ['abc', 'xyz'],
        ] as const) {
          const bytes = outline(Buffer.from(before, 'latin1'), runs, Buffer.from(after), false);
          if (metadataCarriesKey(bytes, 'png', scrub) !== searchedWhole(bytes, scrub))
            disagreements.push(`${JSON.stringify(key)} ${runs} chunks ${before}|${after}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees with the search over every byte for random texts around random runs', () => {
    const scrub = scrubberOf(KEY);
    const pieces = [
      KEY,
      KEY.slice(0, 7),
      KEY.slice(7),
      '\0',
      'IDAT',
      'I',
      'DA',
      'T',
      '&',
      '&#',
      ';',
      '%',
      '\\u00',
      '\\',
      '"',
      '":"',
      'U+',
      ' ',
      'q9',
      'Zm9v',
      'c2stYWxpY2',
    ];
    const text = fc
      .array(fc.constantFrom(...pieces), { maxLength: 8 })
      .map((parts) => Buffer.from(parts.join(''), 'latin1'));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 80 }), text, fc.boolean(), (a, n, b, iend) => {
        const bytes = outline(a, n, b, iend);
        expect(metadataCarriesKey(bytes, 'png', scrub)).toBe(searchedWhole(bytes, scrub));
      }),
      { numRuns: 400 },
    );
  });

  it("reads an 8 MB PNG's 1,000 empty pixel chunks of its outline as a few dozen", async () => {
    const dir = await tempFolder('outline-runs');
    try {
      const idat = chunk('IDAT', Buffer.alloc(8192, 0x7a), Buffer.alloc(4));
      const png = Buffer.concat([
        SIGNATURE,
        IHDR,
        ...Array.from({ length: 1000 }, () => idat),
        IEND,
      ]);
      const file = join(dir, 'image.png');
      await writeFile(file, png);
      const handle = await open(file, 'r');
      const made = await metadataOutline(handle, png.length, 'png', 8 * 1024 * 1024).finally(() =>
        handle.close(),
      );
      if (!made) throw new Error('no outline');
      const searched: number[] = [];
      const carries = metadataCarriesKey(made, 'png', (text) => {
        searched.push(text.length);
        return scrubKey(text, KEY);
      });
      expect(carries).toBe(false);
      // Before the cut: 8 bytes per chunk, 8,000 and more in each of the two readings.
      expect(Math.max(...searched)).toBeLessThan(1000);
    } finally {
      await removeFolder(dir);
    }
  });
});
