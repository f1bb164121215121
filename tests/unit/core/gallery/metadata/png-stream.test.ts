/**
 * The download's one-pass PNG edit (png-stream.ts) against the file edit it stands in for
 * (planPng through embedProvenanceInBuffer): on every input, cut into pieces of every size, the
 * same bytes out or a refusal from both. Valid files with the chunks the edit drops, keeps and
 * inserts beside; damaged ones (every truncation, bad checksums, wrong first chunk, bad types,
 * impossible lengths); and files with random bytes changed.
 */
import fc from 'fast-check';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ContainerError } from '../../../../../electron/core/gallery/metadata/container';
import {
  embedProvenanceInBuffer,
  pngProvenanceChunks,
} from '../../../../../electron/core/gallery/metadata/embed';
import { PngProvenanceStream } from '../../../../../electron/core/gallery/metadata/png-stream';
import { detectC2paInBytes } from '../../../../../electron/core/gallery/metadata/c2pa-detect';
import { build, chunksOf, type Chunk } from '../../../../support/png-chunks';
import { sampleProvenance } from './meta-helpers';

const provenance = sampleProvenance();
const inserted = pngProvenanceChunks(provenance);

type Outcome =
  { readonly bytes: Buffer; readonly mayCarryCredentials?: boolean } | { readonly refused: string };

/** The file edit's answer for `png`. */
async function planned(png: Buffer): Promise<Outcome> {
  try {
    return { bytes: await embedProvenanceInBuffer(png, 'png', provenance) };
  } catch (error) {
    if (error instanceof ContainerError) return { refused: error.message };
    throw error;
  }
}

/** The stream's answer for `png` fed in pieces that end at `cuts`. */
function streamed(png: Buffer, cuts: readonly number[], maxBytes = Infinity): Outcome {
  const stream = new PngProvenanceStream(inserted, maxBytes);
  const out: Uint8Array[] = [];
  try {
    let from = 0;
    for (const cut of [...cuts.filter((at) => at > 0 && at < png.length), png.length]) {
      if (cut <= from) continue;
      out.push(...stream.push(png.subarray(from, cut)));
      from = cut;
    }
    stream.end();
    const bytes = Buffer.concat(out);
    expect(stream.written).toBe(bytes.length);
    return { bytes, mayCarryCredentials: stream.mayCarryCredentials };
  } catch (error) {
    if (error instanceof ContainerError) return { refused: error.message };
    throw error;
  }
}

/**
 * Where the stream says no chunk could hold Content Credentials, the credentials walk finds none
 * in the same file (the download then skips that walk: provenance-tee.ts).
 */
async function expectNoneWhereNoneCould(png: Buffer, stream: Outcome, name: string) {
  if (!('bytes' in stream) || stream.mayCarryCredentials !== false) return;
  expect(await detectC2paInBytes(png, 'png'), name).toEqual({ found: false });
}

function expectSame(stream: Outcome, plan: Outcome, name: string): void {
  if ('bytes' in plan) {
    expect('bytes' in stream, `${name}: the stream refused what the plan edits`).toBe(true);
    if ('bytes' in stream) expect(stream.bytes.equals(plan.bytes), name).toBe(true);
  } else {
    expect('refused' in stream, `${name}: the stream edited what the plan refuses`).toBe(true);
  }
}

/** Whole, a byte at a time, and in pieces of 7, 8, 13 and 4096 bytes. */
function cutsOf(length: number): [string, number[]][] {
  const every = (step: number) =>
    Array.from({ length: Math.ceil(length / step) }, (_, n) => n * step);
  return [
    ['whole', []],
    ['a byte at a time', every(1)],
    ...[7, 8, 13, 4096].map((step): [string, number[]] => [`pieces of ${step}`, every(step)]),
  ];
}

const text = (type: string, keyword: string, body: string): Chunk => ({
  type,
  data: Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), Buffer.from(body, 'latin1')]),
});

let base: Buffer;
let baseChunks: Chunk[];

beforeAll(async () => {
  const pixels = Buffer.alloc(40 * 30 * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 37) % 251;
  base = await sharp(pixels, { raw: { width: 40, height: 30, channels: 3 } })
    .png()
    .toBuffer();
  baseChunks = chunksOf(base);
});

/** `base` with `extra` chunks after IHDR (and `after` before IEND), and `trailer` past IEND. */
function variant(extra: Chunk[], after: Chunk[] = [], trailer = Buffer.alloc(0)): Buffer {
  const [ihdr, ...rest] = baseChunks;
  const iend = rest.pop()!;
  return Buffer.concat([build([ihdr!, ...extra, ...rest, ...after, iend]), trailer]);
}

describe('the one-pass PNG edit gives what the file edit gives', () => {
  it('on valid files: host XMP and summaries replaced, other text kept, split IDATs, a trailer', async () => {
    const idat = baseChunks.find((chunk) => chunk.type === 'IDAT')!.data;
    const split = [
      ...baseChunks.slice(0, 1),
      ...[0, 1, 2, 3].map((n) => ({
        type: 'IDAT',
        data: idat.subarray((n * idat.length) >> 2, ((n + 1) * idat.length) >> 2),
      })),
      baseChunks.at(-1)!,
    ];
    const cases: [string, Buffer][] = [
      ['plain', base],
      ['host XMP', variant([text('iTXt', 'XML:com.adobe.xmp', '\0\0\0\0<x:xmpmeta/>')])],
      [
        'host summary in tEXt and zTXt',
        variant([text('tEXt', 'parameters', 'steps: 20')], [text('zTXt', 'parameters', '\0x')]),
      ],
      [
        'other text kept',
        variant([text('tEXt', 'Comment', 'kept'), text('iTXt', 'Title', '\0\0\0\0kept')]),
      ],
      [
        'a keyword of 79 and 90 bytes, no NUL, empty',
        variant([
          text('tEXt', 'k'.repeat(79), 'v'),
          text('tEXt', 'k'.repeat(90), 'v'),
          { type: 'tEXt', data: Buffer.from('no nul') },
          { type: 'iTXt', data: Buffer.alloc(0) },
        ]),
      ],
      ['a text chunk of 300 KB', variant([text('tEXt', 'parameters', 'x'.repeat(300_000))])],
      [
        'eXIf and caBX kept',
        variant([
          { type: 'eXIf', data: Buffer.from('MM\0*') },
          { type: 'caBX', data: Buffer.alloc(64, 7) },
        ]),
      ],
      ['split IDATs', build(split)],
      ['a trailer after IEND', variant([], [], Buffer.from('trailing bytes'))],
      ['an empty chunk before IEND', variant([], [{ type: 'teST', data: Buffer.alloc(0) }])],
    ];
    for (const [name, png] of cases) {
      const plan = await planned(png);
      expect('bytes' in plan, name).toBe(true);
      for (const [how, cuts] of cutsOf(png.length)) {
        const stream = streamed(png, cuts);
        expectSame(stream, plan, `${name}, ${how}`);
        await expectNoneWhereNoneCould(png, stream, name);
      }
    }
  });

  it('refuses what the file edit refuses: every truncation, bad checksums, a wrong start, bad types and lengths', async () => {
    const damaged: [string, Buffer][] = [];
    for (let length = 0; length < base.length; length += 1)
      damaged.push([`cut at ${length}`, base.subarray(0, length)]);
    const flipped = (at: number) => {
      const copy = Buffer.from(base);
      copy[at] = (copy[at] ?? 0) ^ 0xff;
      return copy;
    };
    const idatAt = base.indexOf('IDAT', 0, 'latin1');
    damaged.push(
      ['IDAT data changed', flipped(idatAt + 10)],
      ['IHDR checksum changed', flipped(29)],
      [
        'a dropped text chunk whose checksum fails',
        (() => {
          const png = variant([text('tEXt', 'parameters', 'x')]);
          const at = png.indexOf('tEXt', 0, 'latin1');
          png[at + 5] = (png[at + 5] ?? 0) ^ 1;
          return png;
        })(),
      ],
      [
        'a first chunk other than IHDR',
        build([{ type: 'tEXt', data: Buffer.from('a\0b') }, ...baseChunks]),
      ],
      [
        'an IHDR of 12 bytes',
        build([
          { type: 'IHDR', data: baseChunks[0]!.data.subarray(0, 12) },
          ...baseChunks.slice(1),
        ]),
      ],
      ['a type with a digit', variant([{ type: 'te5T', data: Buffer.alloc(1) }])],
      [
        'an impossible length',
        (() => {
          const png = Buffer.from(base);
          png.writeUInt32BE(0x80000000, idatAt - 4);
          return png;
        })(),
      ],
      ['not a PNG', Buffer.from('GIF89a and more bytes than a signature')],
      ['no IEND', base.subarray(0, base.length - 12)],
    );
    for (const [name, png] of damaged) {
      const plan = await planned(png);
      expect('refused' in plan, name).toBe(true);
      for (const [how, cuts] of cutsOf(png.length).slice(0, 3))
        expectSame(streamed(png, cuts), plan, `${name}, ${how}`);
    }
  });

  it('says a chunk could hold credentials for a caBX store or any iTXt, and not otherwise', () => {
    const may = (png: Buffer) => {
      const stream = streamed(png, []);
      return 'bytes' in stream ? stream.mayCarryCredentials : 'refused';
    };
    expect(may(base)).toBe(false);
    expect(may(variant([text('tEXt', 'Comment', 'x')]))).toBe(false);
    expect(may(variant([{ type: 'caBX', data: Buffer.alloc(8) }]))).toBe(true);
    expect(may(variant([text('iTXt', 'Title', '\0\0\0\0x')]))).toBe(true);
  });

  it('refuses past the size cap exactly where the edited file would pass it', async () => {
    const plan = await planned(base);
    if (!('bytes' in plan)) throw new Error('the plan refused the base image');
    expect('bytes' in streamed(base, [], plan.bytes.length)).toBe(true);
    expect('refused' in streamed(base, [100], plan.bytes.length - 1)).toBe(true);
  });

  it('agrees on files with random bytes changed, cut at random', async () => {
    const png = variant([text('tEXt', 'parameters', 'steps: 20'), text('tEXt', 'Comment', 'kept')]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(png.length - 1), fc.nat(255)), { maxLength: 3 }),
        fc.array(fc.nat(png.length), { maxLength: 12 }),
        async (changes, cuts) => {
          const changed = Buffer.from(png);
          for (const [at, value] of changes) changed[at] = value;
          const stream = streamed(
            changed,
            [...cuts].sort((a, b) => a - b),
          );
          expectSame(stream, await planned(changed), 'mutated');
          await expectNoneWhereNoneCould(changed, stream, 'mutated');
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * The download's pump hands the edit views of its own write buffers and reuses each once the
 * piece's output is written (body-to-file.ts). The edit's output parts may be views of the piece
 * (written before the reuse), but what it keeps between pieces (heldInput, a text chunk's header
 * waiting for its keyword) must be its own: here every piece is copied into one scratch buffer,
 * its output copied at once, then the scratch overwritten before the next piece.
 */
describe('fed from one buffer the caller reuses', () => {
  function streamedReused(png: Buffer, step: number): { bytes: Buffer; views: number } {
    const stream = new PngProvenanceStream(inserted, Infinity);
    const scratch = Buffer.alloc(step);
    const out: Buffer[] = [];
    let views = 0;
    for (let from = 0; from < png.length; from += step) {
      const length = png.copy(scratch, 0, from, Math.min(from + step, png.length));
      const parts = stream.push(scratch.subarray(0, length));
      views += parts.filter((part) => part.buffer === scratch.buffer).length;
      out.push(Buffer.concat(parts));
      const kept = Buffer.from(stream.heldInput);
      scratch.fill(0xaa);
      expect(Buffer.from(stream.heldInput).equals(kept), `held after ${from}`).toBe(true);
    }
    stream.end();
    return { bytes: Buffer.concat(out), views };
  }

  it('gives what the file edit gives, and keeps nothing of the reused buffer', async () => {
    const png = variant(
      [text('tEXt', 'Comment', 'kept'), text('iTXt', 'XML:com.adobe.xmp', '\0\0\0\0<x/>')],
      [text('tEXt', 'parameters', 'steps: 20')],
    );
    const plan = await planned(png);
    if (!('bytes' in plan)) throw new Error('the plan refused a valid file');
    for (const step of [1, 5, 8, 12, 13, 21, 4096, png.length]) {
      expect(streamedReused(png, step).bytes.equals(plan.bytes), `pieces of ${step}`).toBe(true);
    }
  });

  it("gives a chunk's header and CRC that lie whole in a piece as views of it, not copies", () => {
    // Whole: the signature, every header and every CRC are in the one piece.
    const { views } = streamedReused(base, base.length);
    expect(views).toBeGreaterThanOrEqual(1 + 2 * baseChunks.length);
  });

  it("reads each chunk's type without Buffer's toString (its slow path, ~1,000 chunks an image)", () => {
    // 1,000 pixel chunks, as an 8 MB image holds 8 KB ones: the type read at each header.
    const idat = baseChunks.find((chunk) => chunk.type === 'IDAT')!.data;
    const many = Array.from({ length: 1000 }, (_, n) => ({
      type: 'IDAT',
      data: n === 0 ? idat : Buffer.alloc(0),
    }));
    const png = build([baseChunks[0]!, ...many, baseChunks.at(-1)!]);
    const toString = vi.spyOn(Buffer.prototype, 'toString');
    try {
      const stream = new PngProvenanceStream(inserted, Infinity);
      stream.push(png);
      stream.end();
      expect(toString.mock.calls.length).toBeLessThan(10);
    } finally {
      toString.mockRestore();
    }
  });
});
