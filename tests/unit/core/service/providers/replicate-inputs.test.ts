/**
 * Replicate with input images: official models on their models path with `{ input }`, the
 * community real-esrgan on `/v1/predictions` with its version, FLUX Fill's outpaint option chosen
 * from the pixels asked (the nearest it documents), Kontext's safety held to 2 with an input, and
 * text-to-image unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { Expand } from '../../../../../shared/domain/image-inputs';
import { replicateProfile } from '../../../../../electron/core/service/providers/replicate';
import { MASK, PNG_DATA_URI, image, refusalOf, request, sent } from './input-fixtures';

const file = (name: string): string => `https://v3.fal.media/files/${name}.png`;

describe('Replicate with input images', () => {
  it('FLUX Kontext [pro]: an edit on the model’s path', () => {
    const built = replicateProfile.submit(
      request('black-forest-labs/flux-kontext-pro', { operation: 'edit' }),
      sent('data'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/models/black-forest-labs/flux-kontext-pro/predictions',
      body: {
        input: {
          prompt: 'make the sky orange',
          input_image: PNG_DATA_URI,
          safety_tolerance: 2,
          output_format: 'png',
        },
      },
    });
  });

  it.each([
    [undefined, 2],
    [0, 0],
    [2, 2],
    [5, 2],
    [6, 2],
  ])('FLUX Kontext: safety asked %s is sent as %s', (asked, expected) => {
    const built = replicateProfile.submit(
      request('black-forest-labs/flux-kontext-pro', {
        operation: 'edit',
        ...(asked === undefined ? {} : { safety: asked }),
      }),
      sent('link'),
    );
    expect(built.body).toMatchObject({ input: { safety_tolerance: expected } });
  });

  it('FLUX Fill [pro]: a fill with its mask (white = edit)', () => {
    const built = replicateProfile.submit(
      request('black-forest-labs/flux-fill-pro', { operation: 'fill', mask: MASK }),
      sent('link', { mask: true }),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/models/black-forest-labs/flux-fill-pro/predictions',
      body: {
        input: {
          prompt: 'make the sky orange',
          image: file('source'),
          mask: file('mask'),
          output_format: 'png',
        },
      },
    });
  });

  // The source is 1024×768.
  it.each<[string, Expand, string]>([
    ['one side: that side', { top: 0, right: 300, bottom: 0, left: 0 }, 'Right outpaint'],
    ['the left alone', { top: 0, right: 0, bottom: 0, left: 40 }, 'Left outpaint'],
    ['the top alone', { top: 10, right: 0, bottom: 0, left: 0 }, 'Top outpaint'],
    ['the bottom alone', { top: 0, right: 0, bottom: 900, left: 0 }, 'Bottom outpaint'],
    ['to a square', { top: 128, right: 0, bottom: 128, left: 0 }, 'Make square'],
    ['a quarter all round', { top: 96, right: 128, bottom: 96, left: 128 }, 'Zoom out 1.5x'],
    ['half all round', { top: 192, right: 256, bottom: 192, left: 256 }, 'Zoom out 1.5x'],
    ['double', { top: 384, right: 512, bottom: 384, left: 512 }, 'Zoom out 2x'],
    ['more than double', { top: 800, right: 900, bottom: 800, left: 900 }, 'Zoom out 2x'],
  ])('FLUX Fill [pro]: an outpaint of %s is “%s”', (_, expand, option) => {
    const built = replicateProfile.submit(
      request('black-forest-labs/flux-fill-pro', { operation: 'outpaint', expand }),
      sent('data'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/models/black-forest-labs/flux-fill-pro/predictions',
      body: {
        input: {
          prompt: 'make the sky orange',
          image: PNG_DATA_URI,
          outpaint: option,
          output_format: 'png',
        },
      },
    });
  });

  it.each([2, 4] as const)('real-esrgan: ×%s on /v1/predictions with its version', (factor) => {
    const built = replicateProfile.submit(
      request('nightmareai/real-esrgan', { operation: 'upscale', factor }),
      sent('link'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/predictions',
      body: {
        version: '42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b',
        input: { image: file('source'), scale: factor },
      },
    });
  });

  it('refuses references to a model that takes none, and an outpaint with nothing to add', () => {
    expect(
      refusalOf(() =>
        replicateProfile.submit(
          request('black-forest-labs/flux-kontext-pro', {
            operation: 'edit',
            references: [image(9)],
          }),
          sent('data', { references: 1 }),
        ),
      ).sentence,
    ).toEqual({
      key: 'error.providerInputs.references',
      params: {
        model: 'black-forest-labs/flux-kontext-pro',
        service: 'Replicate',
        most: 0,
        count: 1,
      },
    });
    expect(
      refusalOf(() =>
        replicateProfile.submit(
          request('black-forest-labs/flux-fill-pro', {
            operation: 'outpaint',
            expand: { top: 0, right: 0, bottom: 0, left: 0 },
          }),
          sent('data'),
        ),
      ).sentence,
    ).toEqual({ key: 'error.providerInputs.expandMissing' });
  });

  it('leaves text-to-image as it was', () => {
    const built = replicateProfile.submit({
      prompt: 'a red fox',
      model: 'black-forest-labs/flux-schnell',
      size: '1024x576',
    });
    expect(JSON.stringify(built)).toBe(
      '{"method":"POST","target":"/v1/models/black-forest-labs/flux-schnell/predictions","body":{"input":{"prompt":"a red fox","aspect_ratio":"16:9"}}}',
    );
  });
});
