/**
 * A prompt is any text a person (or a pasted document) can hold: markup, `]]>`, control
 * characters, lone surrogates, U+FFFE, right-to-left text, emoji, 10,000 characters and more. It
 * comes back exactly from every format; a JPEG, whose segment holds 65,502 bytes of XMP, keeps
 * the longest prefix that fits and says it was shortened. The packet stays well-formed XML for an
 * independent reader (exiftool) whatever the prompt.
 */
import fc from 'fast-check';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import { MAX_JPEG_XMP } from '../../../../../electron/core/gallery/metadata/jpeg-meta';
import { readImageProvenance } from '../../../../../electron/core/gallery/metadata/read';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { EXIFTOOL, exiftool } from '../../../../support/exiftool';
import { needing } from '../../../../support/tools';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const images = new Map<string, Buffer>();
let dir: string;
beforeAll(async () => {
  dir = await tempFolder('prompts');
  for (const encoding of ENCODINGS) images.set(encoding.name, await makeEncoded(encoding, 16, 9));
});
afterAll(async () => {
  await removeFolder(dir);
});

const NASTY = [
  ']]>',
  '<![CDATA[x]]>',
  '<?xpacket end="w"?>',
  '</x:xmpmeta>',
  '&amp; &lt; &#0; &#xD800; &bogus;',
  '\u0000\u0001\u0008\u000b\u000c\u001f\u007f\u0085',
  '\r\n\r',
  '\uD800 lone high, lone low \uDC00',
  '\uFFFE\uFFFF',
  'שלום עולם \u202E reversed \u202C مرحبا',
  '👩‍👩‍👧‍👦 🏳️‍🌈 🇯🇵',
  '\\u0041 and \\\\ backslashes',
  ' leading and trailing spaces ',
];

/** A non-blank prompt (the record schema needs one) made of nasty pieces and any UTF-16. */
const promptArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(...NASTY),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
        maxLength: 40,
      }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => `x${parts.join('')}`);

describe.each(ENCODINGS)('$name', (encoding) => {
  it('gives any prompt back exactly (or, in a JPEG, a marked prefix)', async () => {
    await fc.assert(
      fc.asyncProperty(promptArbitrary, async (prompt) => {
        const bytes = images.get(encoding.name)!;
        const edited = await embedProvenanceInBuffer(
          bytes,
          encoding.kind,
          sampleProvenance({ prompt }),
        );
        const read = await readImageProvenance(edited, encoding.kind);
        if (!read.ok) throw new Error(read.reason);
        if (read.provenance.truncated) {
          expect(encoding.kind).toBe('jpeg');
          expect(prompt.startsWith(read.provenance.prompt)).toBe(true);
        } else expect(read.provenance.prompt).toBe(prompt);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a 10,000-character prompt of mixed scripts whole', async () => {
    const prompt = 'Ω灯🌊ש<&>'.repeat(1_250).slice(0, 10_000);
    const edited = await embedProvenanceInBuffer(
      images.get(encoding.name)!,
      encoding.kind,
      sampleProvenance({ prompt }),
    );
    const read = await readImageProvenance(edited, encoding.kind);
    expect(read.ok && read.provenance.prompt).toBe(prompt);
  });

  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'writes XML exiftool reads for the nastiest prompt'),
    async () => {
      const prompt = `x${NASTY.join(' ')}`;
      const edited = await embedProvenanceInBuffer(
        images.get(encoding.name)!,
        encoding.kind,
        sampleProvenance({ prompt }),
      );
      const file = join(dir, `nasty-${encoding.name.replace(' ', '-')}.${encoding.kind}`);
      await writeFile(file, edited);
      const tags = await exiftool(file);
      expect(tags['ExifTool:Warning']).toBeUndefined();
      // The readable copy: what XML cannot hold is U+FFFD; the rest is the prompt's own text.
      expect(String(tags['XMP-dc:Description'])).toContain(
        '<![CDATA[x]]> <?xpacket end="w"?> </x:xmpmeta>',
      );
      expect(String(tags['XMP-dc:Description'])).toContain('שלום עולם');
      expect(tags['XMP-pictor:Model']).toBe('gpt-image-1');
    },
  );
});

describe('the JPEG limit', () => {
  it('shortens a prompt too big for one segment, on a code-point boundary, and says so', async () => {
    // 32,000 emoji halves (the prompt limit) escape to far more than 65,502 bytes.
    const prompt = '😀\u0001'.repeat(10_666);
    const packet = buildXmpPacket(sampleProvenance({ prompt }), MAX_JPEG_XMP);
    expect(packet).not.toBeNull();
    expect(packet!.length).toBeLessThanOrEqual(MAX_JPEG_XMP);
    const jpeg = ENCODINGS.find((encoding) => encoding.kind === 'jpeg')!;
    const edited = await embedProvenanceInBuffer(
      images.get(jpeg.name)!,
      'jpeg',
      sampleProvenance({ prompt }),
    );
    const read = await readImageProvenance(edited, 'jpeg');
    if (!read.ok) throw new Error(read.reason);
    expect(read.provenance.truncated).toBe(true);
    expect(read.provenance.prompt.length).toBeGreaterThan(1_000);
    expect(prompt.startsWith(read.provenance.prompt)).toBe(true);
    expect(read.provenance.prompt.at(-1)).not.toMatch(/[\uD800-\uDBFF]/);
  });

  it('keeps the whole prompt in a PNG and a WebP', async () => {
    const prompt = '😀\u0001'.repeat(10_666);
    for (const encoding of ENCODINGS.filter((item) => item.kind !== 'jpeg')) {
      const edited = await embedProvenanceInBuffer(
        images.get(encoding.name)!,
        encoding.kind,
        sampleProvenance({ prompt }),
      );
      const read = await readImageProvenance(edited, encoding.kind);
      expect(read.ok && read.provenance).toMatchObject({ prompt, truncated: false });
    }
  });
});
