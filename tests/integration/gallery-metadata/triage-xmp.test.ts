/**
 * XMP others can read, on real PNG, JPEG and WebP files and read back by
 * exiftool: an image's rating and tags go into `image-<n>.xmp` beside it whenever the task's
 * pictor.json is written (the image is never rewritten then), into the exported copy, and into
 * the gallery file on "write metadata to files". A file with Content Credentials stays byte for
 * byte as it was through all of it, its triage merged into the XMP sidecar holding Pictor's packet.
 */
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportImages } from '../../../electron/core/batch/export-images';
import { writeMetadataToFiles } from '../../../electron/core/batch/write-metadata';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { buildXmpPacket } from '../../../electron/core/gallery/metadata/xmp-packet';
import {
  IMAGE_EXTENSION,
  IMAGE_MIME,
  type ImageKind,
} from '../../../electron/core/images/image-sniff';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeTaskRecord } from '../../support/task-records';
import {
  ENCODINGS,
  decodedPixels,
  makeEncoded,
} from '../../unit/core/gallery/metadata/meta-helpers';
import { EXIFTOOL, exiftool } from '../../support/exiftool';
import { MemoryRecords } from '../../unit/core/trash/trash-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FOLDER = '2026/01/2026-01-15_120000_harbour_abcd1234';
const HOSTILE_TAG = `<&"'> Tag`;
const NON_LATIN = 'маяк 灯台 🌊';
const FORMATS = ENCODINGS.filter((encoding) => encoding.name !== 'WebP lossless');
const SIGNED = [
  { name: 'signed.png', kind: 'png' },
  { name: 'signed.jpg', kind: 'jpeg' },
  { name: 'signed.webp', kind: 'webp' },
] as const;

let dir: string;
let root: string;
let gallery: Gallery;

beforeEach(async () => {
  dir = await tempFolder('triage-xmp');
  root = join(dir, 'gallery');
  await mkdir(join(root, FOLDER), { recursive: true });
  gallery = new Gallery({ root, appVersion: '9.8.7' });
  await gallery.init();
});
afterEach(() => removeFolder(dir));

function recordWith(kind: ImageKind, image: Partial<ImageRecord> = {}): TaskRecord {
  return makeTaskRecord({
    localId: 'triaged',
    folder: FOLDER,
    request: { prompt: 'Harbour lights, מגדלור <fog & rain>' },
    images: [
      {
        index: 0,
        url: null,
        state: 'saved',
        attempts: 1,
        favourite: false,
        mime: IMAGE_MIME[kind],
        file: `${FOLDER}/image-1.${IMAGE_EXTENSION[kind]}`,
        ...image,
      },
    ],
  });
}

/** A real image of `kind` with Pictor's packet in it, as a download saves it; its bytes. */
async function savePlain(encoding: (typeof FORMATS)[number]): Promise<Buffer> {
  const record = recordWith(encoding.kind);
  const bytes = await embedProvenanceInBuffer(
    await makeEncoded(encoding, 24, 16),
    encoding.kind,
    provenanceOf(record, 0, '9.8.7'),
  );
  await writeFile(join(root, FOLDER, `image-1.${IMAGE_EXTENSION[encoding.kind]}`), bytes);
  return bytes;
}

/** A signed fixture saved as it came, with Pictor's packet beside it (as a download does). */
async function saveSigned(name: (typeof SIGNED)[number]['name'], kind: ImageKind): Promise<Buffer> {
  const bytes = c2paFixture(name);
  await writeFile(join(root, FOLDER, `image-1.${IMAGE_EXTENSION[kind]}`), bytes);
  const packet = buildXmpPacket(provenanceOf(recordWith(kind), 0, '9.8.7'))!;
  await writeFile(join(root, FOLDER, 'image-1.xmp'), packet);
  return bytes;
}

const TRIAGE: Partial<ImageRecord> = { rating: 4, tags: [HOSTILE_TAG, NON_LATIN] };
const subjects = (tags: Record<string, unknown>) => [tags['XMP-dc:Subject']].flat();
const sidecar = join(FOLDER, 'image-1.xmp');

describe.skipIf(!EXIFTOOL.path)('the XMP sidecar of a rated and tagged image', () => {
  for (const encoding of FORMATS) {
    it(`${encoding.name}: beside it, read by exiftool; the image untouched; gone when cleared`, async () => {
      const bytes = await savePlain(encoding);
      await gallery.writeSidecar(recordWith(encoding.kind, TRIAGE));
      const tags = await exiftool(join(root, sidecar));
      expect(tags['XMP-xmp:Rating']).toBe(4);
      expect(subjects(tags)).toEqual([HOSTILE_TAG, NON_LATIN]);
      const image = join(root, FOLDER, `image-1.${IMAGE_EXTENSION[encoding.kind]}`);
      expect((await readFile(image)).equals(bytes)).toBe(true);

      await gallery.writeSidecar(recordWith(encoding.kind, { flag: 'reject' }));
      const rejected = await exiftool(join(root, sidecar));
      expect(rejected['XMP-xmp:Rating']).toBe(-1);
      expect(rejected['XMP-dc:Subject']).toBeUndefined();

      await gallery.writeSidecar(recordWith(encoding.kind));
      expect(existsSync(join(root, sidecar))).toBe(false);
      expect((await readFile(image)).equals(bytes)).toBe(true);
    });
  }

  it('leaves a sidecar Pictor did not write as it is', async () => {
    await savePlain(FORMATS[0]!);
    const theirs = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- theirs --></x:xmpmeta>';
    await writeFile(join(root, sidecar), theirs);
    await gallery.writeSidecar(recordWith('png', TRIAGE));
    await gallery.writeSidecar(recordWith('png'));
    expect(await readFile(join(root, sidecar), 'utf8')).toBe(theirs);
  });
});

describe.skipIf(!EXIFTOOL.path)('an image with Content Credentials', () => {
  for (const { name, kind } of SIGNED) {
    it(`${name}: stays byte for byte through rating, tagging, export and write-metadata`, async () => {
      const signed = await saveSigned(name, kind);
      const xmpFile = `${FOLDER}/image-1.xmp`;
      const record = recordWith(kind, { ...TRIAGE, xmpFile });
      await gallery.writeSidecar(record);
      const tags = await exiftool(join(root, sidecar));
      expect(tags['XMP-xmp:Rating']).toBe(4);
      expect(subjects(tags)).toEqual([HOSTILE_TAG, NON_LATIN]);
      // Merged with Pictor's packet, which stays whole.
      expect(tags['XMP-pictor:LocalId']).toBe('triaged');
      expect(tags['XMP-xmp:CreatorTool']).toBe('Pictor 9.8.7');

      const out = join(dir, 'out');
      await mkdir(out);
      const exported = await exportImages({ get: () => record, gallery }, [record.localId], out);
      expect(exported).toEqual({ copied: 1, failed: 0, skipped: 0 });
      const files = (await readdir(out)).sort();
      const copy = files.find((file) => !file.endsWith('.xmp'))!;
      expect((await readFile(join(out, copy))).equals(signed)).toBe(true);
      const beside = await exiftool(
        join(
          out,
          files.find((file) => file.endsWith('.xmp'))!,
        ),
      );
      expect(beside['XMP-xmp:Rating']).toBe(4);
      expect(subjects(beside)).toEqual([HOSTILE_TAG, NON_LATIN]);

      const records = new MemoryRecords();
      records.map.set(record.localId, record);
      const written = await writeMetadataToFiles({ records, gallery }, [
        { localId: record.localId, index: 0 },
      ]);
      expect(written).toEqual({ written: 0, unchanged: 0, withCredentials: 1, failed: 0 });
      const image = join(root, FOLDER, `image-1.${IMAGE_EXTENSION[kind]}`);
      expect((await readFile(image)).equals(signed)).toBe(true);

      // Cleared: Pictor's packet stays beside it, without the triage.
      await gallery.writeSidecar(recordWith(kind, { xmpFile }));
      const cleared = await exiftool(join(root, sidecar));
      expect(cleared['XMP-xmp:Rating']).toBeUndefined();
      expect(cleared['XMP-dc:Subject']).toBeUndefined();
      expect(cleared['XMP-pictor:LocalId']).toBe('triaged');
      expect((await readFile(image)).equals(signed)).toBe(true);
    });
  }

  it('is never edited even when its record names no sidecar', async () => {
    const signed = await saveSigned('signed.png', 'png');
    await rm(join(root, sidecar));
    const record = recordWith('png', TRIAGE);
    const records = new MemoryRecords();
    records.map.set(record.localId, record);
    const ref = { localId: record.localId, index: 0 };
    await expect(writeMetadataToFiles({ records, gallery }, [ref])).resolves.toMatchObject({
      withCredentials: 1,
    });
    expect((await readFile(join(root, FOLDER, 'image-1.png'))).equals(signed)).toBe(true);
  });
});

describe.skipIf(!EXIFTOOL.path)('triage written into files', () => {
  for (const encoding of FORMATS) {
    it(`${encoding.name}: the exported copy carries it, the gallery file does not`, async () => {
      const bytes = await savePlain(encoding);
      const record = recordWith(encoding.kind, { ...TRIAGE, flag: 'reject' });
      const out = join(dir, 'out');
      await mkdir(out);
      await expect(
        exportImages({ get: () => record, gallery }, [record.localId], out),
      ).resolves.toEqual({ copied: 1, failed: 0, skipped: 0 });
      const [copy, ...others] = await readdir(out);
      expect(others).toEqual([]);
      const tags = await exiftool(join(out, copy!));
      expect(tags['XMP-xmp:Rating']).toBe(-1);
      expect(subjects(tags)).toEqual([HOSTILE_TAG, NON_LATIN]);
      expect(tags['XMP-pictor:LocalId']).toBe('triaged');
      const exported = await readFile(join(out, copy!));
      expect(await decodedPixels(exported)).toEqual(await decodedPixels(bytes));
      const image = join(root, FOLDER, `image-1.${IMAGE_EXTENSION[encoding.kind]}`);
      expect((await readFile(image)).equals(bytes)).toBe(true);
    });

    it(`${encoding.name}: write metadata to files puts it in the gallery file, its size recorded`, async () => {
      const bytes = await savePlain(encoding);
      const records = new MemoryRecords();
      const record = recordWith(encoding.kind, { ...TRIAGE, bytes: bytes.length });
      records.map.set(record.localId, record);
      const ref = { localId: record.localId, index: 0 };
      await expect(writeMetadataToFiles({ records, gallery }, [ref])).resolves.toEqual({
        written: 1,
        unchanged: 0,
        withCredentials: 0,
        failed: 0,
      });
      const image = join(root, FOLDER, `image-1.${IMAGE_EXTENSION[encoding.kind]}`);
      const tags = await exiftool(image);
      expect(tags['XMP-xmp:Rating']).toBe(4);
      expect(subjects(tags)).toEqual([HOSTILE_TAG, NON_LATIN]);
      expect(tags['XMP-pictor:LocalId']).toBe('triaged');
      expect(records.get(record.localId)!.images[0]!.bytes).toBe((await stat(image)).size);
      expect(await decodedPixels(await readFile(image))).toEqual(await decodedPixels(bytes));
      // Again: nothing to change.
      await expect(writeMetadataToFiles({ records, gallery }, [ref])).resolves.toMatchObject({
        unchanged: 1,
      });

      // Cleared, then written again: the file loses Rating and Subject.
      records.edit(record.localId, (now) =>
        recordWith(encoding.kind, { bytes: now.images[0]!.bytes! }),
      );
      await expect(writeMetadataToFiles({ records, gallery }, [ref])).resolves.toMatchObject({
        written: 1,
      });
      const cleared = await exiftool(image);
      expect(cleared['XMP-xmp:Rating']).toBeUndefined();
      expect(cleared['XMP-dc:Subject']).toBeUndefined();
      expect(cleared['XMP-pictor:LocalId']).toBe('triaged');
    });
  }
});
