/**
 * Provenance goes into real PNG, JPEG and WebP files (lossy and lossless, with and without alpha)
 * at the container level: the decoded pixels are the same before and after, exiftool (an
 * independent reader) finds every field and the digital source type, our reader gets them back,
 * and XMP the image host put there is replaced, not kept beside ours.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import { readImageProvenance } from '../../../../../electron/core/gallery/metadata/read';
import { DIGITAL_SOURCE_TYPE } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { ENCODINGS, decodedPixels, makeEncoded, sampleProvenance } from './meta-helpers';
import { EXIFTOOL, exiftool } from '../../../../support/exiftool';
import { needing } from '../../../../support/tools';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('meta');
});
afterAll(async () => {
  await removeFolder(dir);
});

const CASES = ENCODINGS.flatMap((encoding) =>
  encoding.name === 'JPEG' || encoding.name === 'WebP lossy'
    ? [{ encoding, alpha: false }]
    : [
        { encoding, alpha: false },
        { encoding, alpha: true },
      ],
).concat([{ encoding: ENCODINGS[2]!, alpha: true }]);

function count(haystack: Buffer, needle: string): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) found++;
  return found;
}

describe.each(CASES)('$encoding.name (alpha: $alpha)', ({ encoding, alpha }) => {
  const provenance = sampleProvenance({
    prompt: 'Ein Leuchtturm <b>&amp; "ink" ]]> 灯台 🌊 — منارة',
    imageIndex: 2,
  });

  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'keeps the pixels and gives every field to exiftool and to our reader'),
    async () => {
      const original = await makeEncoded(encoding, 97, 61, alpha);
      const edited = await embedProvenanceInBuffer(original, encoding.kind, provenance);
      expect(edited.length).toBeGreaterThan(original.length);
      const before = await decodedPixels(original);
      const after = await decodedPixels(edited);
      expect([after.width, after.height]).toEqual([97, 61]);
      expect(after.data.equals(before.data)).toBe(true);
      const meta = await sharp(edited).metadata();
      expect(meta.hasAlpha).toBe((await sharp(original).metadata()).hasAlpha);

      const file = join(dir, `${encoding.name.replace(' ', '-')}-${alpha}.${encoding.kind}`);
      await writeFile(file, edited);
      const tags = await exiftool(file);
      expect(tags['ExifTool:Warning']).toBeUndefined();
      expect(tags['XMP-iptcExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
      expect(tags['XMP-dc:Description']).toBe(provenance.prompt);
      expect(tags['XMP-xmp:CreatorTool']).toBe('Pictor 9.8.7');
      expect(tags['XMP-xmp:CreateDate']).toBe('2026:11:23 07:30:05.000Z');
      expect(tags).toMatchObject({
        'XMP-pictor:Model': 'gpt-image-1',
        'XMP-pictor:Size': '1024x1024',
        'XMP-pictor:Quality': 'high',
        'XMP-pictor:TaskId': 'task-0123',
        'XMP-pictor:LocalId': provenance.localId,
        'XMP-pictor:Service': 'https://images.example.com:8443',
        'XMP-pictor:ImageIndex': 2,
      });
      if (encoding.kind === 'png') {
        expect(String(tags['PNG:Parameters'])).toContain(provenance.prompt);
        expect(String(tags['PNG:Parameters'])).toContain('Model: gpt-image-1, Size: 1024x1024');
      }
      if (encoding.kind === 'webp') expect(tags['RIFF:WebP_Flags']).toMatch(/XMP/);

      const read = await readImageProvenance(edited, encoding.kind);
      expect(read).toEqual({ ok: true, provenance: { ...provenance, truncated: false } });
    },
  );

  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'replaces XMP the image already had instead of keeping two'),
    async () => {
      const hostile = await encoding
        .encode(
          sharp(await makeEncoded(encoding, 40, 30, alpha)).withXmp(
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>planted by the host</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>',
          ),
        )
        .toBuffer();
      const hostileFile = join(
        dir,
        `hostile-${encoding.name.replace(' ', '-')}-${alpha}.${encoding.kind}`,
      );
      await writeFile(hostileFile, hostile);
      // sharp may compress it (a PNG's zTXt): exiftool tells that it is there.
      expect((await exiftool(hostileFile))['XMP-dc:Creator']).toBe('planted by the host');
      const once = await embedProvenanceInBuffer(
        hostile,
        encoding.kind,
        sampleProvenance({ prompt: 'first' }),
      );
      const twice = await embedProvenanceInBuffer(once, encoding.kind, provenance);
      expect(count(twice, 'planted by the host')).toBe(0);
      expect(count(twice, 'x:xmpmeta xmlns')).toBe(1);
      expect(count(twice, '>first<')).toBe(0);
      expect((await decodedPixels(twice)).data.equals((await decodedPixels(hostile)).data)).toBe(
        true,
      );
      const file = join(
        dir,
        `replaced-${encoding.name.replace(' ', '-')}-${alpha}.${encoding.kind}`,
      );
      await writeFile(file, twice);
      const tags = await exiftool(file);
      expect(tags['XMP-dc:Description']).toBe(provenance.prompt);
      expect(tags['XMP-dc:Creator']).toBeUndefined();
    },
  );
});
