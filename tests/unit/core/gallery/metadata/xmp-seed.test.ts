import { describe, expect, it } from 'vitest';
import {
  provenanceOf,
  summaryText,
} from '../../../../../electron/core/gallery/metadata/provenance';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { readPacketProvenance } from '../../../../../electron/core/gallery/metadata/read';
import { makeRecord } from '../../../../support/gallery-helpers';

function roundTrip(packet: string) {
  const read = readPacketProvenance(packet);
  if (!read.ok) throw new Error(read.reason);
  return read.provenance;
}

describe('the seed in an image’s metadata', () => {
  it('is the service’s seed, else the one asked for, in the XMP and the PNG parameters', () => {
    const reported = provenanceOf(makeRecord([null], { seed: 4242 }), 0, '1.0.0');
    const packet = buildXmpPacket(reported)!.toString('utf8');
    expect(packet).toContain('<pictor:Seed>4242</pictor:Seed>');
    expect(roundTrip(packet).seed).toBe(4242);
    expect(summaryText(reported)).toMatch(/, Seed: 4242, /);

    const record = makeRecord([null]);
    const asked = provenanceOf({ ...record, request: { ...record.request, seed: 7 } }, 0, '1.0.0');
    expect(asked.seed).toBe(7);
  });

  it('goes with the model’s options in the PNG parameters, text quoted', () => {
    const record = makeRecord([null], { seed: 9 });
    const params = {
      num_inference_steps: 12,
      enable_safety_checker: false,
      negative_prompt: 'fog, rain\nSeed: 1',
    };
    const made = provenanceOf({ ...record, request: { ...record.request, params } }, 0, '1.0.0');
    const [, line] = summaryText(made).split('\n');
    expect(line).toMatch(
      /, Seed: 9, num_inference_steps: 12, enable_safety_checker: false, negative_prompt: "fog, rain\\nSeed: 1", /,
    );
    expect(summaryText(provenanceOf(record, 0, '1.0.0'))).not.toContain('num_inference_steps');
  });

  it('is absent when none is known, and a damaged one is dropped, not the provenance', () => {
    const none = provenanceOf(makeRecord([null]), 0, '1.0.0');
    const packet = buildXmpPacket(none)!.toString('utf8');
    expect(packet).not.toContain('pictor:Seed');
    expect(summaryText(none)).not.toContain('Seed');
    const damaged = packet.replace(
      '</pictor:LocalId>',
      '</pictor:LocalId><pictor:Seed>-1e9</pictor:Seed>',
    );
    expect(roundTrip(damaged).seed).toBeUndefined();
    expect(roundTrip(damaged).prompt).toBe(none.prompt);
  });
});
