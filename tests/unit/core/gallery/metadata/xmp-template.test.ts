/**
 * The template a task was made from, in Pictor's XMP: written into a PNG, a JPEG and a WebP and
 * into the XMP sidecar, and read back equal, whatever its values hold (markup, `-->`, CDATA,
 * control characters, lone surrogates). A crafted packet (values past the bounds, wrong types,
 * raw markup, 10,000 values, a `__proto__` name) loses the template alone: the task's own fields
 * still read. The template never pushes a packet past the sidecar's cap, and in a JPEG it gives
 * way before the prompt is cut. A sidecar made again for a rating keeps it. exiftool reads the
 * fields.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import { MAX_JPEG_XMP } from '../../../../../electron/core/gallery/metadata/jpeg-meta';
import {
  readImageProvenance,
  readPacketProvenance,
} from '../../../../../electron/core/gallery/metadata/read';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import {
  MAX_XMP_SIDECAR_BYTES,
  readXmpSidecar,
  writeXmpBeside,
} from '../../../../../electron/core/gallery/metadata/xmp-sidecar';
import { sidecarPlan } from '../../../../../electron/core/gallery/metadata/xmp-sidecar-sync';
import { MAX_TEMPLATE_XMP_BYTES } from '../../../../../electron/core/gallery/metadata/xmp-template';
import { MAX_READ_TEXT } from '../../../../../electron/core/gallery/metadata/png-meta';
import { silentLogger } from '../../../../../electron/ports/logger';
import {
  MAX_TEMPLATE_RUN_VALUES,
  MAX_TEMPLATE_VALUE_CHARS,
  type TaskTemplate,
} from '../../../../../shared/domain/task-template';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { EXIFTOOL, exiftool } from '../../../../support/exiftool';
import { makeTaskRecord } from '../../../../support/task-records';
import { needing } from '../../../../support/tools';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const TEMPLATE: TaskTemplate = {
  id: '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61',
  name: 'Colours & <Shapes> 🌊',
  version: 7,
  mode: 'random',
  seed: 0xffff_ffff,
  values: {
    place: 'a garden --> <!-- x --> <![CDATA[y]]> ]]> </pictor:Value></rdf:li>',
    prompt: 'at dawn\r\n\tmarkup <x/> &amp; &#0; "quoted" \'too\'',
    odd: '\u0000\u0001 control \uD800 lone \uFFFE \\u0041 \\\\',
    script: '👩‍👩‍👧‍👦 שלום \u202E مرحبا',
    empty: '',
  },
};

const images = new Map<string, Buffer>();
let dir: string;
beforeAll(async () => {
  dir = await tempFolder('xmp-template');
  for (const encoding of ENCODINGS) images.set(encoding.name, await makeEncoded(encoding, 16, 9));
});
afterAll(async () => {
  await removeFolder(dir);
});

/** The packet's text for the sample provenance with `template`. */
function packetWith(template: TaskTemplate, prompt = 'A lighthouse'): string {
  return buildXmpPacket(sampleProvenance({ prompt, template }))!.toString('utf8');
}

/** The provenance read from `packet`, which must read. */
function readOf(packet: string) {
  const read = readPacketProvenance(packet);
  if (!read.ok) throw new Error(read.reason);
  return read.provenance;
}

describe.each(ENCODINGS)('$name', (encoding) => {
  it('gives the template back equal, its values exactly', async () => {
    const provenance = sampleProvenance({ template: TEMPLATE });
    const edited = await embedProvenanceInBuffer(
      images.get(encoding.name)!,
      encoding.kind,
      provenance,
    );
    const read = await readImageProvenance(edited, encoding.kind);
    if (!read.ok) throw new Error(read.reason);
    expect(read.provenance.template).toEqual(TEMPLATE);
    expect(read.provenance).not.toHaveProperty('templateDropped');
    expect(read.provenance.prompt).toBe(provenance.prompt);
  });

  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'writes the template as fields exiftool reads'),
    async () => {
      const edited = await embedProvenanceInBuffer(
        images.get(encoding.name)!,
        encoding.kind,
        sampleProvenance({ template: TEMPLATE }),
      );
      const file = join(dir, `template-${encoding.name.replace(' ', '-')}.${encoding.kind}`);
      await writeFile(file, edited);
      const tags = await exiftool(file);
      expect(tags['ExifTool:Warning']).toBeUndefined();
      expect(tags['XMP-pictor:TemplateId']).toBe(TEMPLATE.id);
      expect(tags['XMP-pictor:TemplateName']).toBe(TEMPLATE.name);
      expect(tags['XMP-pictor:TemplateVersion']).toBe(7);
      expect(tags['XMP-pictor:TemplateMode']).toBe('random');
      expect(tags['XMP-pictor:TemplateSeed']).toBe(0xffff_ffff);
      const values = tags['XMP-pictor:TemplateValues'] as Array<Record<string, unknown>>;
      expect(values.map((value) => value.Name)).toEqual(Object.keys(TEMPLATE.values));
      const byName = new Map(values.map((value) => [value.Name, String(value.Value ?? '')]));
      // The readable copies: XML's own characters come back as they are.
      expect(byName.get('place')).toBe(TEMPLATE.values.place);
      expect(byName.get('script')).toBe(TEMPLATE.values.script);
      // What XML cannot hold is U+FFFD there, and exact in ValueExact.
      expect(byName.get('odd')).toContain('\uFFFD\uFFFD control \uFFFD lone');
    },
  );
});

describe('the XMP sidecar', () => {
  it('carries the template beside a signed image, read back equal', async () => {
    const path = join(dir, 'image-1.xmp');
    const written = await writeXmpBeside(
      sampleProvenance({ template: TEMPLATE }),
      path,
      silentLogger,
    );
    expect(written).toEqual({ beside: path });
    const read = readPacketProvenance(await readXmpSidecar(dir, path));
    expect(read.ok && read.provenance.template).toEqual(TEMPLATE);
  });

  it('keeps the template when a rating made the sidecar again from the record', () => {
    const record = makeTaskRecord({
      localId: 'a1b2c3d4-0000-4000-8000-000000000009',
      template: TEMPLATE,
      images: [
        {
          index: 0,
          url: null,
          state: 'saved',
          attempts: 0,
          favourite: false,
          rating: 4,
          file: 'task/image-1.png',
          xmpFile: 'task/image-1.xmp',
        },
      ],
    });
    const plan = sidecarPlan(record, record.images[0]!, null, '1.2.3');
    if (!('write' in plan)) throw new Error('no sidecar written');
    const text = plan.write.toString('utf8');
    expect(text).toContain('<xmp:Rating>4</xmp:Rating>');
    expect(readOf(text).template).toEqual(TEMPLATE);
  });

  it('keeps a combinatorial template without a seed, and an empty set of values', () => {
    const { seed: _seed, ...rest } = TEMPLATE;
    const template: TaskTemplate = { ...rest, mode: 'combinatorial', values: {} };
    const provenance = readOf(packetWith(template));
    expect(provenance.template).toEqual(template);
    expect(provenance.template).not.toHaveProperty('seed');
  });

  it('writes no template for a task made without one', () => {
    const packet = buildXmpPacket(sampleProvenance())!.toString('utf8');
    expect(packet).not.toContain('pictor:Template');
    expect(readOf(packet)).not.toHaveProperty('template');
  });
});

/** What a read of a crafted packet must say: the task's fields, no template, dropped. */
function expectDropped(packet: string): void {
  const provenance = readOf(packet);
  expect(provenance).toMatchObject({
    prompt: 'A lighthouse',
    localId: sampleProvenance().localId,
    imageIndex: 0,
    templateDropped: true,
  });
  expect(provenance).not.toHaveProperty('template');
}

/** One value's item as Pictor writes it (the name and value already escaped). */
const item = (name: string, value: string) =>
  `     <rdf:li rdf:parseType="Resource">\n      <pictor:Name>${name}</pictor:Name>\n      <pictor:Value>${value}</pictor:Value>\n     </rdf:li>\n`;

/** The sample packet with its values' Bag holding `items` instead. */
function withItems(items: string): string {
  const packet = packetWith({ ...TEMPLATE, values: {} });
  return packet.replace('    <rdf:Bag>\n', `    <rdf:Bag>\n${items}`);
}

describe('a crafted template', () => {
  const plain: TaskTemplate = { ...TEMPLATE, values: { place: 'a garden' } };

  it('past the schema’s bounds is dropped, the task kept', () => {
    const long = 'x'.repeat(MAX_TEMPLATE_VALUE_CHARS + 1);
    expectDropped(packetWith({ ...plain, values: { place: long } }));
    expect(readOf(packetWith({ ...plain, values: { place: long.slice(1) } })).template).toEqual({
      ...plain,
      values: { place: long.slice(1) },
    });
    expectDropped(packetWith({ ...plain, name: 'n'.repeat(101) }));
    expectDropped(packetWith({ ...plain, name: ' untrimmed ' }));
  });

  it('of the wrong types is dropped, the task kept', () => {
    const packet = packetWith(plain);
    const swaps: Array<[string, string]> = [
      ['<pictor:TemplateVersion>7<', '<pictor:TemplateVersion>seven<'],
      ['<pictor:TemplateVersion>7<', '<pictor:TemplateVersion>0<'],
      ['<pictor:TemplateVersion>7<', '<pictor:TemplateVersion>99999999999999999<'],
      ['<pictor:TemplateVersion>7<', '<pictor:TemplateVersion>7.5<'],
      ['<pictor:TemplateMode>random<', '<pictor:TemplateMode>sometimes<'],
      ['<pictor:TemplateSeed>4294967295<', '<pictor:TemplateSeed>4294967296<'],
      ['<pictor:TemplateSeed>4294967295<', '<pictor:TemplateSeed>-1<'],
      [`<pictor:TemplateId>${TEMPLATE.id}<`, '<pictor:TemplateId>not-a-uuid<'],
      ['<pictor:TemplateId>', '<pictor:TemplateIdentifier>'],
      ['<pictor:Name>place<', '<pictor:Name>1place<'],
      ['<pictor:Name>place<', '<pictor:Name>__proto__<'],
      ['<pictor:Value>a garden<', '<pictor:Value>&bogus;<'],
    ];
    for (const [from, to] of swaps) {
      expect(packet).toContain(from);
      expectDropped(packet.replace(from, to));
    }
  });

  it('holding raw markup, CDATA or a comment in a value is dropped, the rest of the packet read', () => {
    const raws = ['a --> b', ']]>', '<![CDATA[x]]>', '<!-- -->', '</pictor:Value><pictor:Value>x'];
    for (const raw of raws) {
      expectDropped(withItems(item('place', raw)));
    }
    // A value that ends the Bag early leaves items outside it: not Pictor's layout.
    expectDropped(
      withItems(`${item('a', 'x')}    </rdf:Bag>\n   </pictor:TemplateValues>\n${item('b', 'y')}`),
    );
  });

  it('naming a variable twice, or with an exact copy that is not one, is dropped', () => {
    expectDropped(withItems(item('place', 'a') + item('place', 'b')));
    const exact = item('place', 'a').replace(
      '     </rdf:li>',
      '      <pictor:ValueExact>\\q</pictor:ValueExact>\n     </rdf:li>',
    );
    expectDropped(withItems(exact));
  });

  it('with its values missing is dropped', () => {
    const packet = packetWith(plain);
    const start = packet.indexOf('   <pictor:TemplateValues>');
    const end = packet.indexOf('</pictor:TemplateValues>\n') + '</pictor:TemplateValues>\n'.length;
    expectDropped(packet.slice(0, start) + packet.slice(end));
  });

  it(`holds at most ${MAX_TEMPLATE_RUN_VALUES} values: one more, or 10,000, are dropped`, () => {
    const names = Array.from({ length: 10_000 }, (_, index) => `v${index}`);
    const bound = names.slice(0, MAX_TEMPLATE_RUN_VALUES);
    const values = Object.fromEntries(bound.map((name) => [name, name]));
    expect(readOf(withItems(bound.map((name) => item(name, name)).join(''))).template).toEqual({
      ...TEMPLATE,
      values,
    });
    const over = names.slice(0, MAX_TEMPLATE_RUN_VALUES + 1).map((name) => item(name, name));
    expectDropped(withItems(over.join('')));
    // 10,000 as another writer may put them (a structure's fields as attributes), under the cap.
    const compact = names.map((name) => `<rdf:li pictor:Name="${name}" pictor:Value="x"/>\n`);
    const packet = withItems(compact.join(''));
    expect(packet.length).toBeLessThan(MAX_READ_TEXT);
    const started = performance.now();
    expectDropped(packet);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('past the packet’s cap is not read at all, as any packet that big', () => {
    const names = Array.from({ length: 10_000 }, (_, index) => `v${index}`);
    const packet = withItems(names.map((name) => item(name, name)).join(''));
    expect(packet.length).toBeGreaterThan(MAX_READ_TEXT);
    expect(readPacketProvenance(packet).ok).toBe(false);
  });
});

describe('the packet’s size', () => {
  /** `count` values of `chars` ampersands each: 5 bytes of XML per character. */
  const ampersands = (count: number, chars = MAX_TEMPLATE_VALUE_CHARS): TaskTemplate => ({
    ...TEMPLATE,
    values: Object.fromEntries(
      Array.from({ length: count }, (_, index) => [`v${index}`, '&'.repeat(chars)]),
    ),
  });

  it('leaves out a template whose elements pass the cap; it is not read as dropped', () => {
    const over = ampersands(MAX_TEMPLATE_RUN_VALUES);
    const packet = packetWith(over);
    expect(packet).not.toContain('pictor:Template');
    const provenance = readOf(packet);
    expect(provenance).not.toHaveProperty('template');
    expect(provenance).not.toHaveProperty('templateDropped');
  });

  it('stays under the sidecar’s cap with the worst prompt and a template just under its own', () => {
    // 12 values of 2,000 ampersands: 120,000 bytes of values, the elements under 128 KiB.
    const template = ampersands(12);
    const prompt = `${'&'.repeat(31_999)}\u0001`;
    const packet = buildXmpPacket(sampleProvenance({ prompt, template }))!;
    expect(packet.toString('utf8')).toContain('<pictor:TemplateValues>');
    expect(packet.length).toBeGreaterThan(MAX_TEMPLATE_XMP_BYTES + 300_000);
    expect(packet.length).toBeLessThanOrEqual(MAX_XMP_SIDECAR_BYTES);
    expect(packet.toString('utf8').length).toBeLessThanOrEqual(MAX_READ_TEXT);
    const provenance = readOf(packet.toString('utf8'));
    expect(provenance.prompt).toBe(prompt);
    expect(provenance.template).toEqual(template);
    // One more value passes the template's cap: left out, the prompt whole.
    expect(buildXmpPacket(sampleProvenance({ prompt, template: ampersands(13) }))!.length).toBe(
      buildXmpPacket(sampleProvenance({ prompt }))!.length,
    );
  });

  it('drops the template from a JPEG before it cuts the prompt', async () => {
    const template = ampersands(8, 1_000);
    const prompt = 'a'.repeat(32_000);
    expect(buildXmpPacket(sampleProvenance({ prompt, template }))!.length).toBeGreaterThan(
      MAX_JPEG_XMP,
    );
    const jpeg = ENCODINGS.find((encoding) => encoding.kind === 'jpeg')!;
    const edited = await embedProvenanceInBuffer(
      images.get(jpeg.name)!,
      'jpeg',
      sampleProvenance({ prompt, template }),
    );
    const read = await readImageProvenance(edited, 'jpeg');
    if (!read.ok) throw new Error(read.reason);
    expect(read.provenance).toMatchObject({ prompt, truncated: false });
    expect(read.provenance).not.toHaveProperty('template');
    // A small template fits beside the same prompt.
    const small = await embedProvenanceInBuffer(
      images.get(jpeg.name)!,
      'jpeg',
      sampleProvenance({ prompt, template: TEMPLATE }),
    );
    const again = await readImageProvenance(small, 'jpeg');
    expect(again.ok && again.provenance.template).toEqual(TEMPLATE);
  });
});
