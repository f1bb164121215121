/**
 * fal.ai with input images: each model's documented body, byte for byte, with images as `data:`
 * URIs or storage links in the `*_url` fields; Kontext's safety tolerance as fal's string enum,
 * held to "2" with an input and never under "1"; and text-to-image unchanged.
 */
import { describe, expect, it } from 'vitest';
import { falProfile } from '../../../../../electron/core/service/providers/fal';
import { MASK, PNG_DATA_URI, refusalOf, request, sent } from './input-fixtures';

describe('fal with input images', () => {
  it('FLUX Kontext [pro]: an edit, safety as a string, one PNG', () => {
    const built = falProfile.submit(
      request('fal-ai/flux-pro/kontext', { operation: 'edit' }),
      sent('data'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/fal-ai/flux-pro/kontext',
      body: {
        prompt: 'make the sky orange',
        image_url: PNG_DATA_URI,
        safety_tolerance: '2',
        num_images: 1,
        output_format: 'png',
      },
    });
    expect(JSON.stringify(built.body)).toBe(
      `{"prompt":"make the sky orange","image_url":"${PNG_DATA_URI}","safety_tolerance":"2","num_images":1,"output_format":"png"}`,
    );
  });

  it.each([
    [undefined, '2'],
    [0, '1'],
    [2, '2'],
    [5, '2'],
    [6, '2'],
  ])('FLUX Kontext: safety asked %s is sent as %s', (asked, expected) => {
    const built = falProfile.submit(
      request('fal-ai/flux-pro/kontext', {
        operation: 'edit',
        ...(asked === undefined ? {} : { safety: asked }),
      }),
      sent('link'),
    );
    expect(built.body).toMatchObject({ safety_tolerance: expected });
  });

  it('FLUX.1 [pro] Fill: image_url and mask_url (white = edit)', () => {
    const built = falProfile.submit(
      request('fal-ai/flux-pro/v1/fill', { operation: 'fill', mask: MASK }),
      sent('link', { mask: true }),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/fal-ai/flux-pro/v1/fill',
      body: {
        prompt: 'make the sky orange',
        image_url: 'https://v3.fal.media/files/source.png',
        mask_url: 'https://v3.fal.media/files/mask.png',
        num_images: 1,
      },
    });
  });

  it('FLUX.2 [pro] outpaint: the pixels on each side, 2048 at most', () => {
    const build = (left: number) =>
      falProfile.submit(
        request('fal-ai/flux-2-pro/outpaint', {
          operation: 'outpaint',
          expand: { top: 64, right: 0, bottom: 32, left },
        }),
        sent('data'),
      );
    expect(build(512)).toEqual({
      method: 'POST',
      target: '/fal-ai/flux-2-pro/outpaint',
      body: {
        image_url: PNG_DATA_URI,
        expand_top: 64,
        expand_bottom: 32,
        expand_left: 512,
        expand_right: 0,
      },
    });
    expect(refusalOf(() => build(2049)).sentence?.key).toBe('error.providerInputs.expandTooLarge');
  });

  it.each([2, 4] as const)('Clarity upscaler: ×%s with the prompt', (factor) => {
    const built = falProfile.submit(
      request('fal-ai/clarity-upscaler', { operation: 'upscale', factor }),
      sent('data'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/fal-ai/clarity-upscaler',
      body: { image_url: PNG_DATA_URI, upscale_factor: factor, prompt: 'make the sky orange' },
    });
  });

  it('refuses a fill whose mask is only in the alpha convention', () => {
    const refused = refusalOf(() =>
      falProfile.submit(
        request('fal-ai/flux-pro/v1/fill', {
          operation: 'fill',
          maskAlpha: { ...MASK, sha256: 'a'.repeat(64) },
        }),
        sent('data', { mask: true }),
      ),
    );
    expect(refused.sentence).toEqual({
      key: 'error.providerInputs.maskConvention',
      params: { model: 'fal-ai/flux-pro/v1/fill', service: 'fal.ai', convention: 'white' },
    });
  });

  it('leaves text-to-image as it was', () => {
    const built = falProfile.submit({
      prompt: 'a red fox',
      model: 'fal-ai/flux/schnell',
      size: '1024x768',
    });
    expect(JSON.stringify(built)).toBe(
      '{"method":"POST","target":"/fal-ai/flux/schnell","body":{"prompt":"a red fox","num_images":1,"image_size":{"width":1024,"height":768}}}',
    );
  });
});
