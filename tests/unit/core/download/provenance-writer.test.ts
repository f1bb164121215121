/**
 * A PNG's provenance written as it downloads, each byte once (core/download/provenance-writer.ts):
 * on every input cut into pieces of every size, the edited file is the file edit's bytes, the
 * body's own file is the body exactly as it came, and that second file is written only where it
 * may be kept (Content Credentials may be there, a chunk is left out, the edit refuses the file).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContainerError } from '../../../../electron/core/gallery/metadata/container';
import {
  embedProvenanceInBuffer,
  pngProvenanceChunks,
} from '../../../../electron/core/gallery/metadata/embed';
import {
  ProvenanceWriter,
  type WrittenBody,
} from '../../../../electron/core/download/provenance-writer';
import { encodePng } from '../../../../electron/demo-service/png-codec';
import { build, chunksOf, type Chunk } from '../../../support/png-chunks';
import { sampleProvenance } from '../gallery/metadata/meta-helpers';
import { metadataOutline } from '../../../../electron/core/images/metadata-outline';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const provenance = sampleProvenance();
const inserted = pngProvenanceChunks(provenance);

let dir: string;
let base: Buffer;
let baseChunks: Chunk[];
let runs = 0;

beforeAll(() => {
  const rgba = new Uint8Array(48 * 32 * 4);
  for (let i = 0; i < rgba.length; i += 1) rgba[i] = (i * 37) % 251;
  base = encodePng({ width: 48, height: 32, rgba });
  baseChunks = chunksOf(base);
});
beforeEach(async () => {
  dir = await tempFolder('gallery');
});
afterEach(async () => {
  await removeFolder(dir);
});

/** What the file edit makes of `png`, or null where it refuses it. */
async function planned(png: Buffer): Promise<Buffer | null> {
  try {
    return await embedProvenanceInBuffer(png, 'png', provenance);
  } catch (error) {
    if (error instanceof ContainerError) return null;
    throw error;
  }
}

/**
 * `png` through a writer in pieces ending at `cuts`, each a view of one buffer overwritten once
 * the write settled (as the download's write buffer is); the first piece before the body is
 * recognised. What it wrote, and the two files' bytes (null: no such file).
 */
async function written(
  png: Buffer,
  cuts: readonly number[],
  maxBytes = Infinity,
  outlineMax = Infinity,
) {
  runs += 1;
  const paths = { body: join(dir, `${runs}.part`), edited: join(dir, `${runs}.png.part`) };
  const writer = new ProvenanceWriter(paths, () => inserted, maxBytes, outlineMax);
  const scratch = Buffer.alloc(png.length);
  let from = 0;
  for (const cut of [...cuts.filter((at) => at > 0 && at < png.length), png.length]) {
    if (cut <= from) continue;
    png.copy(scratch, 0, from, cut);
    await writer.write(
      scratch.subarray(0, cut - from),
      from === 0 && cut < png.length ? null : 'png',
    );
    scratch.fill(0xaa);
    from = cut;
  }
  const result = await writer.finish();
  await writer.close();
  const read = (path: string) => readFile(path).catch(() => null);
  return { result, body: await read(paths.body), edited: await read(paths.edited), paths };
}

/** The outline the key search reads from the written file (images/metadata-outline.ts). */
async function outlineRead(path: string, max = Infinity): Promise<Buffer | null> {
  const handle = await open(path);
  try {
    return await metadataOutline(handle, (await handle.stat()).size, 'png', max);
  } finally {
    await handle.close();
  }
}

/** Whole, a byte at a time (small files), and in pieces of 7, 13 and 4096 bytes. */
function cutsOf(length: number): [string, number[]][] {
  const every = (step: number) =>
    Array.from({ length: Math.ceil(length / step) }, (_, n) => n * step);
  return [
    ['whole', []],
    ...(length < 4000 ? [['a byte at a time', every(1)] as [string, number[]]] : []),
    ...[7, 13, 4096].map((step): [string, number[]] => [`pieces of ${step}`, every(step)]),
  ];
}

const text = (type: string, keyword: string, body: string): Chunk => ({
  type,
  data: Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), Buffer.from(body, 'latin1')]),
});

/** `base` with `extra` chunks after IHDR, `after` before IEND, and `trailer` past IEND. */
function variant(extra: Chunk[], after: Chunk[] = [], trailer = Buffer.alloc(0)): Buffer {
  const [ihdr, ...rest] = baseChunks;
  const iend = rest.pop()!;
  return Buffer.concat([build([ihdr!, ...extra, ...rest, ...after, iend]), trailer]);
}

/** What must be on disk: the edited image alone, both, or the body as it came alone. */
type Kept = 'edited' | 'both' | 'asItCame';

async function expectWritten(name: string, png: Buffer, kept: Kept, maxBytes = Infinity) {
  const plan = await planned(png);
  const fits = plan !== null && plan.length <= maxBytes;
  for (const [how, cuts] of cutsOf(png.length)) {
    const label = `${name}, ${how}`;
    const { result, body, edited, paths } = await written(png, cuts, maxBytes);
    expect(result.asItCame, label).toBe(kept !== 'edited');
    expect(body === null ? null : body.equals(png), label).toBe(kept === 'edited' ? null : true);
    expect(result.edited !== null, label).toBe(kept !== 'asItCame');
    if (kept === 'asItCame') {
      expect(edited, label).toBeNull();
      continue;
    }
    expect(fits, label).toBe(true);
    expect(edited?.equals(plan!), label).toBe(true);
    expect(result.edited, label).toBe(plan!.length);
    // The outline made as it was written is the one the file's own walk reads back.
    expect(result.outline?.equals((await outlineRead(paths.edited))!), label).toBe(true);
  }
}

describe('a PNG written once as it downloads', () => {
  it('writes only the edited image when nothing in the body may be kept as it came', async () => {
    const idat = baseChunks.find((chunk) => chunk.type === 'IDAT')!.data;
    const split = build([
      baseChunks[0]!,
      ...[0, 1, 2].map((n) => ({
        type: 'IDAT',
        data: idat.subarray((n * idat.length) / 3, ((n + 1) * idat.length) / 3),
      })),
      baseChunks.at(-1)!,
    ]);
    await expectWritten('plain', base, 'edited');
    await expectWritten('split IDATs', split, 'edited');
    await expectWritten('other text kept', variant([text('tEXt', 'Comment', 'kept')]), 'edited');
    await expectWritten('a trailer after IEND', variant([], [], Buffer.from('trail')), 'edited');
    await expectWritten('eXIf', variant([{ type: 'eXIf', data: Buffer.from('MM\0*') }]), 'edited');
    const { result } = await written(base, [100]);
    expect(result).toEqual<WrittenBody>({
      asItCame: false,
      edited: base.length + inserted.length,
      sawNoCredentials: true,
      outline: expect.any(Buffer) as Buffer,
    });
  });

  it("makes the edited image's outline as it is written, pixel data left out, within its bound", async () => {
    // Many small pixel chunks (as an encoder writes them), a text chunk among them, a trailer
    // after IEND shaped as a pixel chunk: it is not one, and stays whole.
    const [ihdr, ...rest] = baseChunks;
    const iend = rest.pop()!;
    const pixels = Buffer.concat(rest.filter((c) => c.type === 'IDAT').map((c) => c.data));
    const idats = Array.from({ length: Math.ceil(pixels.length / 64) }, (_, n) => ({
      type: 'IDAT',
      data: pixels.subarray(n * 64, n * 64 + 64),
    }));
    const fake = Buffer.from('\0\0\0\x05IDATafter\0\0\0\0', 'latin1');
    const split = Buffer.concat([
      build([
        ihdr!,
        ...idats.slice(0, 3),
        text('tEXt', 'Comment', 'between'),
        ...idats.slice(3),
        iend,
      ]),
      fake,
    ]);
    await expectWritten('small pixel chunks and a trailer', split, 'edited');
    const { result, paths } = await written(split, [100]);
    const outline = result.outline!;
    expect(outline.includes('between')).toBe(true);
    expect(outline.includes(fake)).toBe(true);
    expect(outline.includes(pixels.subarray(0, 64))).toBe(false);
    expect(outline.length).toBe(split.length + inserted.length - pixels.length);
    // Past its bound there is none: the search reads the file (and finds it past the bound too).
    const bounded = await written(split, [100], Infinity, outline.length - 1);
    expect(bounded.result.outline).toBeNull();
    expect(await outlineRead(paths.edited, outline.length - 1)).toBeNull();
    expect((await written(split, [100], Infinity, outline.length)).result.outline).not.toBeNull();
  });

  it('writes the body as it came too where credentials may be or a chunk is left out', async () => {
    const cabx = { type: 'caBX', data: Buffer.alloc(64, 7) };
    await expectWritten('caBX after IHDR', variant([cabx]), 'both');
    await expectWritten('caBX before IEND', variant([], [cabx]), 'both');
    await expectWritten('an iTXt title', variant([text('iTXt', 'Title', '\0\0\0\0t')]), 'both');
    await expectWritten(
      'host XMP',
      variant([text('iTXt', 'XML:com.adobe.xmp', '\0\0\0\0<x:xmpmeta/>')]),
      'both',
    );
    await expectWritten(
      'a host summary at the end',
      variant([], [text('tEXt', 'parameters', 'steps: 20')]),
      'both',
    );
    const { result } = await written(variant([text('tEXt', 'parameters', 'x')]), [50]);
    expect(result.sawNoCredentials).toBe(true);
    expect((await written(variant([cabx]), [50])).result.sawNoCredentials).toBe(false);
  });

  it('keeps the body exactly as it came where the edit refuses it, wherever that shows', async () => {
    for (let length = 1; length < base.length; length += 11)
      await expectWritten(`cut at ${length}`, base.subarray(0, length), 'asItCame');
    const flipped = (png: Buffer, at: number) => {
      const copy = Buffer.from(png);
      copy[at] = (copy[at] ?? 0) ^ 0xff;
      return copy;
    };
    await expectWritten('IHDR checksum changed', flipped(base, 29), 'asItCame');
    await expectWritten('IDAT data changed', flipped(base, 60), 'asItCame');
    await expectWritten('IEND checksum changed', flipped(base, base.length - 1), 'asItCame');
    await expectWritten('no IEND', base.subarray(0, base.length - 12), 'asItCame');
    await expectWritten('not a PNG', Buffer.from('GIF89a and more bytes than that'), 'asItCame');
    const late = variant([], [{ type: 'te5T', data: Buffer.alloc(3) }]);
    await expectWritten('a bad type after the pixels', late, 'asItCame');
  });

  it('keeps the body as it came where the edited image would pass the size cap', async () => {
    const plan = (await planned(base))!;
    await expectWritten('at the cap', base, 'edited', plan.length);
    await expectWritten('a byte past it', base, 'asItCame', plan.length - 1);
    const big = encodePng({ width: 300, height: 200, rgba: new Uint8Array(300 * 200 * 4) });
    await expectWritten('a larger image past it', big, 'asItCame', big.length + 10);
  });
});
