/**
 * What an edit's result was made from, in Pictor's XMP: written into a PNG, a JPEG and a WebP and
 * into the XMP sidecar, and read back equal to the record's `request.inputs` (route aside: how
 * inputs travelled is not written). A crafted packet (a digest that is not one, a reference list
 * past the bound, a parent index that is not a number, a broken structure) loses the inputs alone:
 * the task's own fields still read. exiftool reads the fields.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import {
  readImageProvenance,
  readPacketProvenance,
} from '../../../../../electron/core/gallery/metadata/read';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { provenanceOf } from '../../../../../electron/core/gallery/metadata/provenance';
import {
  readXmpSidecar,
  writeXmpBeside,
} from '../../../../../electron/core/gallery/metadata/xmp-sidecar';
import { silentLogger } from '../../../../../electron/ports/logger';
import type { ImageInputs, InputImage } from '../../../../../shared/domain/image-inputs';
import { makeTaskRecord } from '../../../../support/task-records';
import { needing } from '../../../../support/tools';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { EXIFTOOL, exiftool } from '../../../../support/exiftool';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const image = (seed: string, mime: InputImage['mime'] = 'image/png'): InputImage => ({
  sha256: createHash('sha256').update(seed).digest('hex'),
  mime,
  width: 640,
  height: 480,
  bytes: 123_456,
});

const FILL: ImageInputs = {
  operation: 'fill',
  source: image('source', 'image/jpeg'),
  mask: image('mask'),
  maskAlpha: image('mask-alpha'),
  references: [image('ref-1', 'image/webp'), image('ref-2'), image('ref-3')],
  parent: { localId: 'parent-task & <x>', index: 3 },
  safety: 2,
};
const UPSCALE: ImageInputs = {
  operation: 'upscale',
  source: image('from-a-file'),
  factor: 4,
};
const OUTPAINT: ImageInputs = {
  operation: 'outpaint',
  source: image('s'),
  expand: { top: 0, right: 128, bottom: 64, left: 0 },
  parent: { localId: 'p', index: 0 },
};

const pictures = new Map<string, Buffer>();
let dir: string;
beforeAll(async () => {
  dir = await tempFolder('xmp-lineage');
  for (const encoding of ENCODINGS) pictures.set(encoding.name, await makeEncoded(encoding, 16, 9));
});
afterAll(async () => {
  await removeFolder(dir);
});

function readOf(packet: string) {
  const read = readPacketProvenance(packet);
  if (!read.ok) throw new Error(read.reason);
  return read.provenance;
}

const packetWith = (inputs: ImageInputs) =>
  buildXmpPacket(sampleProvenance({ inputs }))!.toString('utf8');

describe.each(ENCODINGS)('$name', (encoding) => {
  it('gives the inputs back equal', async () => {
    for (const inputs of [FILL, UPSCALE, OUTPAINT]) {
      const edited = await embedProvenanceInBuffer(
        pictures.get(encoding.name)!,
        encoding.kind,
        sampleProvenance({ inputs }),
      );
      const read = await readImageProvenance(edited, encoding.kind);
      if (!read.ok) throw new Error(read.reason);
      expect(read.provenance.inputs).toEqual(inputs);
      expect(read.provenance).not.toHaveProperty('inputsDropped');
    }
  });
});

it.skipIf(!EXIFTOOL.path)(
  needing(EXIFTOOL, 'writes the lineage as fields exiftool reads'),
  async () => {
    const edited = await embedProvenanceInBuffer(
      pictures.get(ENCODINGS[0]!.name)!,
      ENCODINGS[0]!.kind,
      sampleProvenance({ inputs: FILL }),
    );
    const file = join(dir, 'lineage.png');
    await writeFile(file, edited);
    const tags = await exiftool(file);
    expect(tags['ExifTool:Warning']).toBeUndefined();
    expect(tags).toMatchObject({
      'XMP-pictor:InputOperation': 'fill',
      'XMP-pictor:ParentLocalId': 'parent-task & <x>',
      'XMP-pictor:ParentImageIndex': 3,
      'XMP-pictor:InputSafety': 2,
      'XMP-pictor:InputSource': { Sha256: FILL.source.sha256, Mime: 'image/jpeg' },
      'XMP-pictor:InputMask': { Sha256: FILL.mask!.sha256 },
    });
    const references = tags['XMP-pictor:InputReferences'] as Array<Record<string, unknown>>;
    expect(references.map((reference) => reference.Sha256)).toEqual(
      FILL.references!.map((reference) => reference.sha256),
    );
  },
);

it('is written from the record by provenanceOf, route left out, and beside a signed image', async () => {
  const record = makeTaskRecord({
    request: { prompt: 'edit', inputs: { ...FILL, route: 'upload' } },
  });
  const provenance = provenanceOf(record, 0, '1.2.3');
  expect(provenance.inputs).toEqual({ ...FILL, route: 'upload' });
  const path = join(dir, 'image-1.xmp');
  expect(await writeXmpBeside(provenance, path, silentLogger)).toEqual({ beside: path });
  const text = await readXmpSidecar(dir, path);
  expect(text).not.toContain('upload');
  expect(readOf(text).inputs).toEqual(FILL);
});

describe('a crafted packet', () => {
  const good = packetWith(FILL);
  it.each([
    [
      'a digest that is not one',
      (xmp: string) => xmp.replace(FILL.source.sha256, 'f'.repeat(63) + 'G'),
    ],
    ['an operation Pictor does not know', (xmp: string) => xmp.replace('>fill<', '>melt<')],
    [
      'a parent index that is no number',
      (xmp: string) =>
        xmp.replace('>3</pictor:ParentImageIndex', '>three</pictor:ParentImageIndex'),
    ],
    [
      'a parent index past the bound',
      (xmp: string) => xmp.replace('>3</pictor:ParentImageIndex', '>4000</pictor:ParentImageIndex'),
    ],
    [
      'a broken structure',
      (xmp: string) =>
        xmp.replace(
          '<pictor:Mime>image/jpeg</pictor:Mime>',
          '<pictor:Mime>text/html</pictor:Mime>',
        ),
    ],
    [
      'a mask of another size',
      (xmp: string) => xmp.replace(/(<pictor:InputMask [^]*?<pictor:Width>)640/, '$1641'),
    ],
    [
      'ten references',
      (xmp: string) => {
        const item = /( {5}<rdf:li rdf:parseType="Resource">\n[^]*?<\/rdf:li>\n)/.exec(xmp)![1]!;
        return xmp.replace(item, item.repeat(8));
      },
    ],
  ])('with %s loses the inputs alone', (_name, craft) => {
    const crafted = craft(good);
    expect(crafted).not.toBe(good);
    const read = readOf(crafted);
    expect(read.inputs).toBeUndefined();
    expect(read.inputsDropped).toBe(true);
    expect(read.localId).toBe(sampleProvenance().localId);
    expect(read.prompt).toBe(sampleProvenance().prompt);
  });

  it('with no inputs reads as before', () => {
    const read = readOf(buildXmpPacket(sampleProvenance())!.toString('utf8'));
    expect(read).not.toHaveProperty('inputs');
    expect(read).not.toHaveProperty('inputsDropped');
  });
});
