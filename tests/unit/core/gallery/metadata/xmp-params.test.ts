/**
 * The model's options a task asked for, in Pictor's XMP: written into an image and its XMP
 * sidecar, read back equal with their types, and given back by a rebuild of a folder whose
 * pictor.json is gone. A crafted sidecar (too many options, huge values, odd types, entity
 * tricks, names outside the option-name rules) loses the options alone, with a note; the task's
 * other fields still read. Options past their cap are left out of the packet, never cut.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../../../electron/core/gallery/metadata/embed';
import {
  NO_PICTOR_METADATA,
  readImageProvenance,
  readPacketProvenance,
} from '../../../../../electron/core/gallery/metadata/read';
import { recoverFromImages } from '../../../../../electron/core/gallery/metadata/recover';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { MAX_PARAMS_XMP_BYTES } from '../../../../../electron/core/gallery/metadata/xmp-params';
import { MAX_XMP_SIDECAR_BYTES } from '../../../../../electron/core/gallery/metadata/xmp-sidecar';
import {
  MAX_PARAMS,
  MAX_PARAM_TEXT,
  type ParamValues,
} from '../../../../../shared/domain/model-params';
import type { TaskTemplate } from '../../../../../shared/domain/task-template';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const PARAMS: ParamValues = {
  num_inference_steps: 28,
  guidance_scale: 3.5,
  tiny: 1e-7,
  huge: 1e21,
  below: -2,
  enable_safety_checker: false,
  sync_mode: true,
  aspect_ratio: '16:9',
  // A number's text is still text.
  count_text: '12',
  negative_prompt: 'fog <rain> & "snow" \r\n\u0001 lone \uD800 \\u0041 ]]> --> 🌊 مرحبا',
  empty: '',
};

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('xmp-params');
});
afterAll(async () => {
  await removeFolder(dir);
});

const packetWith = (params: ParamValues | undefined): string =>
  buildXmpPacket(sampleProvenance(params ? { params } : {}))!.toString('utf8');

function readOf(packet: string) {
  const read = readPacketProvenance(packet);
  if (!read.ok) throw new Error(read.reason);
  return read.provenance;
}

describe('the model’s options in the XMP', () => {
  it('come back equal, each with its type, from the packet and from every image kind', async () => {
    const packet = packetWith(PARAMS);
    expect(packet).toContain('<pictor:Name>num_inference_steps</pictor:Name>');
    expect(packet).toContain('<pictor:Type>Boolean</pictor:Type>');
    const read = readOf(packet);
    expect(read.params).toEqual(PARAMS);
    expect(read).not.toHaveProperty('paramsDropped');
    for (const encoding of ENCODINGS) {
      const image = await makeEncoded(encoding, 8, 8);
      const edited = await embedProvenanceInBuffer(
        image,
        encoding.kind,
        sampleProvenance({ params: PARAMS }),
      );
      const fromImage = await readImageProvenance(edited, encoding.kind);
      if (!fromImage.ok) throw new Error(fromImage.reason);
      expect(fromImage.provenance.params).toEqual(PARAMS);
    }
  });

  it('are absent for a task that asked for none', () => {
    const packet = packetWith(undefined);
    expect(packet).not.toContain('pictor:Params');
    expect(readOf(packet)).not.toHaveProperty('params');
    expect(readOf(packet)).not.toHaveProperty('paramsDropped');
  });

  it('past their cap are left out whole, never cut, and not read as dropped', () => {
    const over: ParamValues = {};
    for (let i = 0; i < 9; i += 1) over[`text_${i}`] = '&'.repeat(MAX_PARAM_TEXT);
    const packet = packetWith(over);
    expect(packet).not.toContain('pictor:Params');
    expect(readOf(packet)).not.toHaveProperty('paramsDropped');
  });

  it('keep the sidecar under its cap with the worst prompt, a full template and options', () => {
    const prompt = `${'&'.repeat(31_999)}\u0001`;
    const values: Record<string, string> = {};
    for (let i = 0; i < 12; i += 1) values[`v${i}`] = '&'.repeat(2_000);
    const template: TaskTemplate = {
      id: '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61',
      name: 'Full',
      version: 1,
      mode: 'combinatorial',
      values,
    };
    // Six options of 1,000 ampersands: 30,000 bytes of values, the elements under 32 KiB.
    const params: ParamValues = {};
    for (let i = 0; i < 6; i += 1) params[`p${i}`] = '&'.repeat(1_000);
    const packet = buildXmpPacket(sampleProvenance({ prompt, template, params }))!;
    const text = packet.toString('utf8');
    expect(text).toContain('<pictor:Params>');
    expect(text).toContain('<pictor:TemplateValues>');
    expect(packet.length).toBeLessThanOrEqual(MAX_XMP_SIDECAR_BYTES);
    expect(readOf(text).params).toEqual(params);
    expect(readOf(text).template).toEqual(template);
    // One more option passes the options' cap: left out, the prompt and template whole.
    const more = { ...params, p6: '&'.repeat(1_000) };
    const past = buildXmpPacket(sampleProvenance({ prompt, template, params: more }))!;
    expect(past.toString('utf8')).not.toContain('<pictor:Params>');
    expect(past.length).toBe(buildXmpPacket(sampleProvenance({ prompt, template }))!.length);
    expect(past.length + MAX_PARAMS_XMP_BYTES).toBeLessThanOrEqual(MAX_XMP_SIDECAR_BYTES);
  });

  it('give way before the prompt when a packet must fit a byte budget', () => {
    const params: ParamValues = { negative_prompt: 'n'.repeat(2_000) };
    const full = buildXmpPacket(sampleProvenance({ params }))!;
    const without = buildXmpPacket(sampleProvenance())!;
    const fitted = buildXmpPacket(sampleProvenance({ params }), full.length - 1)!;
    expect(fitted.length).toBe(without.length);
    expect(readOf(fitted.toString('utf8')).prompt).toBe(sampleProvenance().prompt);
  });
});

/** One option's item as Pictor writes it (name, type and value already escaped). */
const item = (name: string, type: string, value: string) =>
  `     <rdf:li rdf:parseType="Resource">\n      <pictor:Name>${name}</pictor:Name>\n      <pictor:Type>${type}</pictor:Type>\n      <pictor:Value>${value}</pictor:Value>\n     </rdf:li>\n`;

/** The sample packet whose options' Bag holds `items` instead. */
function withItems(items: string): string {
  const packet = packetWith({ seed_hint: 1 });
  const start = packet.indexOf('     <rdf:li rdf:parseType="Resource">');
  const end = packet.indexOf('    </rdf:Bag>\n   </pictor:Params>');
  return packet.slice(0, start) + items + packet.slice(end);
}

/** What a read of a crafted packet must say: the task's fields, no options, dropped. */
function expectDropped(packet: string): void {
  const read = readOf(packet);
  expect(read).toMatchObject({
    prompt: sampleProvenance().prompt,
    localId: sampleProvenance().localId,
    paramsDropped: true,
  });
  expect(read).not.toHaveProperty('params');
}

describe('crafted options', () => {
  it('read back as written when well formed (the crafting helper is sound)', () => {
    expect(readOf(withItems(item('steps', 'Number', '4'))).params).toEqual({ steps: 4 });
  });

  it(`are at most ${MAX_PARAMS}: one more, or 1,000, drop them all`, () => {
    const items = (count: number) =>
      Array.from({ length: count }, (_, i) => item(`o${i}`, 'Number', String(i))).join('');
    expect(Object.keys(readOf(withItems(items(MAX_PARAMS))).params ?? {})).toHaveLength(MAX_PARAMS);
    expectDropped(withItems(items(MAX_PARAMS + 1)));
    expectDropped(withItems(items(1_000)));
    // 10,000 pass the packet's own cap: not read at all, as any packet that big, and no throw.
    expect(readPacketProvenance(withItems(items(10_000)))).toEqual({
      ok: false,
      reason: NO_PICTOR_METADATA,
    });
  });

  it('holding a value past the archive’s bound, or odd types, are dropped', () => {
    const bad: Array<[string, string, string]> = [
      ['negative_prompt', 'Text', 'x'.repeat(MAX_PARAM_TEXT + 1)],
      ['steps', 'Number', 'NaN'],
      ['steps', 'Number', 'Infinity'],
      ['steps', 'Number', '1e999'],
      ['steps', 'Number', '0x10'],
      ['steps', 'Number', ' 4'],
      ['steps', 'Number', '9'.repeat(40)],
      ['on', 'Boolean', 'true'],
      ['on', 'Boolean', '1'],
      ['list', 'Array', '[1,2]'],
      ['object', 'Object', '{}'],
      ['x', '', 'y'],
    ];
    for (const [name, type, value] of bad) expectDropped(withItems(item(name, type, value)));
    // The longest text the archive takes still reads.
    const longest = 'x'.repeat(MAX_PARAM_TEXT);
    expect(readOf(withItems(item('negative_prompt', 'Text', longest))).params).toEqual({
      negative_prompt: longest,
    });
  });

  it('named outside the option-name rules, or twice, are dropped', () => {
    for (const name of [
      '__proto__',
      'constructor',
      'prototype',
      '1st',
      'a-b',
      'a b',
      'é',
      'x'.repeat(65),
      '',
    ]) {
      expectDropped(withItems(item(name, 'Number', '1')));
    }
    expectDropped(withItems(item('a', 'Number', '1') + item('a', 'Number', '2')));
  });

  it('with entity tricks, raw markup or a broken layout are dropped', () => {
    const raws: Array<[string, string]> = [
      ['a', '&bogus;'],
      ['a', '&xxe;'],
      ['a', '&#0;'],
      ['a', '&#x110000;'],
      ['a', 'a & b'],
      ['a', '<![CDATA[x]]>'],
      ['a', '<!-- -->'],
      ['a', '</pictor:Value><pictor:Value>x'],
    ];
    for (const [name, value] of raws) expectDropped(withItems(item(name, 'Text', value)));
    // A DOCTYPE declaring an entity is text before the packet, never expanded.
    const declared = `<!DOCTYPE x [<!ENTITY big "${'x'.repeat(1000)}">]>\n${withItems(item('a', 'Text', '&big;'))}`;
    expectDropped(declared);
    // A Bag ended early leaves items outside it: not Pictor's layout.
    expectDropped(
      withItems(
        `${item('a', 'Text', 'x')}    </rdf:Bag>\n   </pictor:Params>\n${item('b', 'Text', 'y')}`,
      ),
    );
    // An escaped entity is text, read as such.
    expect(readOf(withItems(item('a', 'Text', '&amp;lt;'))).params).toEqual({ a: '&lt;' });
  });
});

describe('rebuild from a folder whose pictor.json is gone', () => {
  async function folderWith(packets: readonly Buffer[]): Promise<string> {
    const root = await mkdtemp(join(dir, 'rebuild-'));
    await mkdir(join(root, 'task'));
    for (const [index, packet] of packets.entries()) {
      // The image carries no metadata of its own: its XMP sidecar is all there is.
      await writeFile(
        join(root, 'task', `image-${index + 1}.png`),
        await makeEncoded(ENCODINGS[0]!, 8, 8),
      );
      await writeFile(join(root, 'task', `image-${index + 1}.xmp`), packet);
    }
    return root;
  }
  const limits = (notes: { path: string; reason: string }[]) => ({
    maxBytes: 1024 * 1024,
    reads: <T>(work: () => Promise<T>) => work(),
    notes,
  });

  it('gives the task its options back from the sidecars', async () => {
    const packets = [0, 1].map((imageIndex) =>
      buildXmpPacket(sampleProvenance({ imageIndex, params: PARAMS, seed: 77 }))!,
    );
    const root = await folderWith(packets);
    const notes: { path: string; reason: string }[] = [];
    const recovered = await recoverFromImages(root, 'task', limits(notes));
    if (!recovered.ok) throw new Error(String(recovered.reason));
    expect(recovered.record.request.params).toEqual(PARAMS);
    // And the seed the images were made with.
    expect(recovered.record.seed).toBe(77);
    expect(recovered.record.request.prompt).toBe(sampleProvenance().prompt);
    expect(recovered.record.images.map((image) => image.index)).toEqual([0, 1]);
    expect(notes).toEqual([]);
  });

  it('comes back without options a crafted sidecar names, and says so', async () => {
    const crafted = withItems(item('__proto__', 'Number', '1'));
    const root = await folderWith([Buffer.from(crafted, 'utf8')]);
    const notes: { path: string; reason: string }[] = [];
    const recovered = await recoverFromImages(root, 'task', limits(notes));
    if (!recovered.ok) throw new Error(String(recovered.reason));
    expect(recovered.record.request).not.toHaveProperty('params');
    expect(recovered.record).not.toHaveProperty('seed');
    expect(notes).toEqual([
      {
        path: '.',
        reason: `Task ${sampleProvenance().localId}: the model options its images name are not valid; the task comes back without them.`,
      },
    ]);
  });
});
