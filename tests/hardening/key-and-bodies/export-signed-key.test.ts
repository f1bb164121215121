/**
 * A library export of a signed image (Content Credentials) whose OWN metadata holds a key the
 * process holds: a hostile service echoed it there, or the key was added after the image was
 * saved. The export copies a signed image byte for byte (editing it would break its signature),
 * so the key left in the archive. Now such an image is left out and named, in the summary the
 * window and the CLI show (images/metadata-keys.ts); the library keeps the file as
 * it is. The key is put where a service puts metadata in each format: a PNG text chunk (plain,
 * or compressed: found only inflated), a JPEG comment, a WebP chunk of its own; raw or in an
 * encoding. Controls: the source file carries the key (the scanner finds it) and is still
 * signed (the product's detector finds its store); the same signed files without the key are
 * archived byte for byte.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { detectC2paInBytes } from '../../../electron/core/gallery/metadata/c2pa-detect';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import type { ImageKind } from '../../../electron/core/images';
import { archiveEntries } from '../../support/archive-entries';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord } from '../../support/gallery-helpers';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { ENCODINGS, keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;

const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

/** A PNG with `chunk` before its IEND. */
function withPngChunk(png: Buffer, chunk: Buffer): Buffer {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** A JPEG with a comment segment (COM) holding `text` right after its SOI. */
function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const head = Buffer.from([0xff, 0xfe, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

/** A WebP with a chunk of its own (`NOTE`) holding `text` at its end, the RIFF size made again. */
function withWebpChunk(webp: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const head = Buffer.from('NOTE\0\0\0\0', 'latin1');
  head.writeUInt32LE(body.length, 4);
  const padded = body.length % 2 ? Buffer.concat([body, Buffer.alloc(1)]) : body;
  const whole = Buffer.concat([webp, head, padded]);
  whole.writeUInt32LE(whole.length - 8, 4);
  return whole;
}

/** A JPEG's APP11 segments (its Content Credentials), from those before its first scan. */
function app11Segments(jpeg: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at + 1] !== 0xda;) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (jpeg[at + 1] === 0xeb) found.push(jpeg.subarray(at, end));
    at = end;
  }
  return found;
}

const textChunk = (text: string) =>
  pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.from(text, 'latin1')]));
const zTextChunk = (text: string) =>
  pngChunk(
    'zTXt',
    Buffer.concat([Buffer.from('Comment\0\0'), deflateSync(Buffer.from(text, 'latin1'))]),
  );

interface SignedCase {
  readonly kind: ImageKind;
  readonly bytes: Buffer;
}

const FIXTURE = { png: 'signed.png', jpeg: 'signed.jpg', webp: 'signed.webp' } as const;
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The signed fixtures, each with the key (as `said` says it) in its own metadata. */
function keyedCases(said: string): Record<string, SignedCase> {
  const png = c2paFixture(FIXTURE.png);
  return {
    'PNG tEXt': { kind: 'png', bytes: withPngChunk(png, textChunk(`echo ${said}`)) },
    'PNG zTXt (compressed)': { kind: 'png', bytes: withPngChunk(png, zTextChunk(said)) },
    'JPEG comment': { kind: 'jpeg', bytes: withJpegComment(c2paFixture(FIXTURE.jpeg), said) },
    'WebP chunk': { kind: 'webp', bytes: withWebpChunk(c2paFixture(FIXTURE.webp), said) },
  };
}

/** A library of the `cases` (one saved image each) exported with the key held. */
async function exportOf(cases: Record<string, SignedCase>) {
  const base = await offlineDir();
  const gallery = join(base, 'gallery');
  const core = await offlineCore({ dir: base, key: KEY, clock: systemClock });
  const files = new Map<string, string>();
  for (const [name, { kind, bytes }] of Object.entries(cases)) {
    const draft = makeRecord([null], { taskId: `task-${files.size}`, status: 'completed' });
    const folder = taskFolderName(draft);
    const file = `${folder}/image-1.${kind === 'jpeg' ? 'jpg' : kind}`;
    const image = { ...draft.images[0]!, state: 'saved' as const, file, mime: MIME[kind] };
    const record: TaskRecord = { ...draft, folder, images: [{ ...image, bytes: bytes.length }] };
    await mkdir(join(gallery, folder), { recursive: true });
    await writeFile(join(gallery, file), bytes);
    await writeFile(join(gallery, folder, 'pictor.json'), sidecarText(record));
    core.history.put(record);
    files.set(name, file);
  }
  const target = join(base, 'library.zip');
  const summary = await core.operations.exportArchive({ target, pictorVersion: 't' });
  const entries = await archiveEntries(target);
  return { summary: summary!, entries, gallery, files };
}

describe('an export of signed images whose own metadata carries a key the process holds', () => {
  it.each(['raw', 'base64', 'hexUpper'])(
    'leaves each out (%s), names it, and keeps it in the library as it is',
    async (encoding) => {
      const said = ENCODINGS[encoding]!(KEY, 1);
      const cases = keyedCases(said);
      for (const [name, { kind, bytes }] of Object.entries(cases)) {
        // The controls: still signed, and (but for the compressed one) the key in its bytes.
        expect((await detectC2paInBytes(bytes, kind)).found, name).toBe(true);
        if (!name.includes('compressed')) expect(leaks(bytes), name).not.toEqual([]);
      }
      const { summary, entries, gallery, files } = await exportOf(cases);
      for (const [path, bytes] of entries) expect(leaks(bytes), path).toEqual([]);
      expect(summary.skipped.map((one) => one.path).sort()).toEqual([...files.values()].sort());
      for (const skipped of summary.skipped) {
        expect(skipped.reason).toMatch(/^This signed image \(Content Credentials\) was left out/);
      }
      for (const [name, file] of files) {
        expect(await readFile(join(gallery, file)), name).toEqual(cases[name]!.bytes);
      }
    },
  );

  it('archives a large signed JPEG without a key, fill bytes before a marker (no false refusal)', async () => {
    // Noise: scan data of megabytes, past the bound on what is searched, which a walk that
    // stopped at the fill bytes would have searched whole.
    const noise = await sharp(randomBytes(2000 * 2000 * 3), {
      raw: { width: 2000, height: 2000, channels: 3 },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(4 * 1024 * 1024);
    const store = app11Segments(c2paFixture(FIXTURE.jpeg));
    const fill = Buffer.from([0xff, 0xff]);
    const bytes = Buffer.concat([noise.subarray(0, 2), ...store, fill, noise.subarray(2)]);
    expect((await detectC2paInBytes(bytes, 'jpeg')).found).toBe(true);
    const { summary, entries } = await exportOf({ large: { kind: 'jpeg', bytes } });
    expect(summary.skipped).toEqual([]);
    const archived = [...entries].find(([path]) => path.endsWith('/image-1.jpg'))?.[1];
    // Compared as bytes: a deep equality of megabytes takes the test's whole budget.
    expect(archived?.equals(bytes)).toBe(true);
  });

  it('archives the same signed images without a key byte for byte', async () => {
    const cases: Record<string, SignedCase> = {
      png: { kind: 'png', bytes: withPngChunk(c2paFixture(FIXTURE.png), textChunk('ordinary')) },
      jpeg: { kind: 'jpeg', bytes: withJpegComment(c2paFixture(FIXTURE.jpeg), 'ordinary') },
      webp: { kind: 'webp', bytes: withWebpChunk(c2paFixture(FIXTURE.webp), 'ordinary') },
    };
    const { summary, entries } = await exportOf(cases);
    expect(summary.skipped).toEqual([]);
    const images = [...entries].filter(([path]) => /\/image-1\.(png|jpg|webp)$/.test(path));
    expect(images.map(([, bytes]) => bytes).sort(Buffer.compare)).toEqual(
      Object.values(cases)
        .map(({ bytes }) => bytes)
        .sort(Buffer.compare),
    );
  });
});
