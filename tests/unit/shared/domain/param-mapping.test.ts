/**
 * One set of model options carried to another model's schema (a compare's targets): by the same
 * name, by the common hint (steps, guidance, a negative prompt), an aspect ratio and a size for
 * each other as a ratio; a value the target does not offer is not sent, and each option or seed
 * left out is one sentence naming the target and the option.
 */
import { describe, expect, it } from 'vitest';
import { paramSchemaOf } from '../../../../shared/domain/model-param-schemas';
import { carryParams } from '../../../../shared/domain/param-mapping';
import type { ProviderId } from '../../../../shared/domain/providers';
import { englishText as errorText } from '../../../../shared/i18n/sentence';

const schema = (provider: ProviderId, model: string) => paramSchemaOf(provider, model);

function carry(
  from: [ProviderId, string],
  to: [ProviderId, string],
  params: Record<string, string | number | boolean>,
  seed?: number,
) {
  return carryParams({
    from: schema(...from),
    to: schema(...to),
    params,
    seed,
  });
}

describe('carrying model options to another model', () => {
  it('keeps an option of the same name and maps the others by their common hint', () => {
    const carried = carry(
      ['fal', 'fal-ai/flux/dev'],
      ['bfl', 'flux-dev'],
      { num_inference_steps: 30, guidance_scale: 4, output_format: 'png' },
      1234,
    );
    expect(carried.params).toEqual({ steps: 30, guidance: 4, output_format: 'png' });
    expect(carried.seed).toBe(1234);
    expect(carried.notes).toEqual([]);
  });

  it('leaves out a value outside the target’s range or choices, and says so', () => {
    const carried = carry(['fal', 'fal-ai/flux/dev'], ['bfl', 'flux-dev'], {
      guidance_scale: 12,
      output_format: 'jpeg',
    });
    expect(carried.params).toEqual({ output_format: 'jpeg' });
    expect(carried.notes.map((note) => errorText(note))).toEqual([
      'This model does not take “12” for “guidance_scale”: the option is not sent there (its default).',
    ]);
  });

  it('says each option and the seed a target has no place for', () => {
    const carried = carry(
      ['bfl', 'flux-dev'],
      ['fal', 'fal-ai/nano-banana'],
      { steps: 20, output_format: 'png', prompt_upsampling: true },
      9,
    );
    expect(carried.params).toEqual({ output_format: 'png' });
    expect(carried.seed).toBeUndefined();
    expect(carried.notes.map((note) => errorText(note))).toEqual([
      'This model has no option “steps”: it is not sent there.',
      'This model has no option “prompt_upsampling”: it is not sent there.',
      'This model takes no seed: it draws its own.',
    ]);
  });

  it('sends a negative prompt under the target’s own name for it', () => {
    const carried = carry(['dashscope', 'wanx2.1-t2i-turbo'], ['fal', 'fal-ai/imagen4/preview'], {
      negative_prompt: 'people',
      watermark: true,
    });
    expect(carried.params).toMatchObject({ negative_prompt: 'people' });
    expect(carried.notes).toHaveLength(1);
  });

  it.each([
    ['16:9', 'landscape_16_9'],
    ['3:4', 'portrait_4_3'],
    ['1:1', 'square_hd'],
  ])('an aspect ratio %s is the size %s where the target takes a size', (ratio, size) => {
    const carried = carry(
      ['fal', 'fal-ai/nano-banana'],
      ['fal', 'fal-ai/bytedance/seedream/v4/text-to-image'],
      { aspect_ratio: ratio },
    );
    expect(carried.params).toEqual({ image_size: size });
    expect(carried.notes).toEqual([]);
  });

  it('a size is the aspect ratio of the same shape, and one of no offered shape is left out', () => {
    const from: [ProviderId, string] = ['fal', 'fal-ai/gpt-image-1/text-to-image'];
    const ultra: [ProviderId, string] = ['bfl', 'flux-pro-1.1-ultra'];
    expect(carry(from, ultra, { image_size: '1536x1024' }).params).toEqual({ aspect_ratio: '3:2' });
    const odd = carry(from, ['fal', 'fal-ai/nano-banana'], { image_size: 'auto' });
    expect(odd.params).toEqual({});
    expect(odd.notes).toHaveLength(1);
  });

  it('a target with no schema takes none of them', () => {
    const carried = carry(
      ['fal', 'fal-ai/flux/dev'],
      ['pictor', 'any-model'],
      { num_images: 2 },
      3,
    );
    expect(carried.params).toEqual({});
    expect(carried.notes).toHaveLength(2);
  });
});
