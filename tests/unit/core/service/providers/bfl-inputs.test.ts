/**
 * Black Forest Labs with input images: each model's documented body, byte for byte (images as
 * bare base64), the safety tolerance held to what a model allows with an input, expand limits, and
 * text-to-image unchanged.
 */
import { describe, expect, it } from 'vitest';
import { bflProfile } from '../../../../../electron/core/service/providers/bfl';
import { MASK, PNG_BASE64, image, refusalOf, request, sent } from './input-fixtures';

const b64 = (name: string): string => Buffer.from(`png:${name}`).toString('base64');

describe('BFL with input images', () => {
  it.each(['flux-kontext-pro', 'flux-kontext-max'])('%s: an edit', (model) => {
    const built = bflProfile.submit(request(model, { operation: 'edit' }), sent('base64'));
    expect(built).toEqual({
      method: 'POST',
      target: `/v1/${model}`,
      body: {
        prompt: 'make the sky orange',
        input_image: PNG_BASE64,
        safety_tolerance: 2,
        output_format: 'png',
      },
    });
    expect(JSON.stringify(built.body)).toBe(
      `{"prompt":"make the sky orange","input_image":"${PNG_BASE64}","safety_tolerance":2,"output_format":"png"}`,
    );
  });

  it.each([
    [undefined, 2],
    [0, 0],
    [2, 2],
    [5, 2],
    [6, 2],
  ])('FLUX Kontext: safety asked %s is sent as %s (2 at most with an input)', (asked, sent_) => {
    const built = bflProfile.submit(
      request('flux-kontext-pro', {
        operation: 'edit',
        ...(asked === undefined ? {} : { safety: asked }),
      }),
      sent('base64'),
    );
    expect(built.body).toMatchObject({ safety_tolerance: sent_ });
  });

  it('FLUX.2 [pro]: an edit with references as input_image_2 … in order, safety 0–5', () => {
    const built = bflProfile.submit(
      request('flux-2-pro', {
        operation: 'edit',
        references: [image(10), image(11), image(12)],
        safety: 6,
      }),
      sent('base64', { references: 3 }),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/flux-2-pro',
      body: {
        prompt: 'make the sky orange',
        input_image: PNG_BASE64,
        input_image_2: b64('ref-1'),
        input_image_3: b64('ref-2'),
        input_image_4: b64('ref-3'),
        safety_tolerance: 5,
        output_format: 'png',
      },
    });
  });

  it('FLUX.2 [pro]: seven references reach input_image_8; an eighth is refused', () => {
    const seven = Array.from({ length: 7 }, (_, i) => image(20 + i));
    const built = bflProfile.submit(
      request('flux-2-pro', { operation: 'edit', references: seven }),
      sent('base64', { references: 7 }),
    );
    expect(built.body).toMatchObject({ input_image_8: b64('ref-7') });
    expect(Object.keys(built.body as object)).not.toContain('input_image_9');
    const eight = [...seven, image(30)];
    const refused = refusalOf(() =>
      bflProfile.submit(
        request('flux-2-pro', { operation: 'edit', references: eight }),
        sent('base64', { references: 8 }),
      ),
    );
    expect(refused.kind).toBe('config');
    expect(refused.sentence).toEqual({
      key: 'error.providerInputs.references',
      params: { model: 'flux-2-pro', service: 'Black Forest Labs', most: 7, count: 8 },
    });
  });

  it('FLUX.1 Fill [pro]: image and mask (white = edit), no safety field', () => {
    const built = bflProfile.submit(
      request('flux-pro-1.0-fill', { operation: 'fill', mask: MASK }),
      sent('base64', { mask: true }),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/flux-pro-1.0-fill',
      body: {
        prompt: 'make the sky orange',
        image: PNG_BASE64,
        mask: b64('mask'),
        output_format: 'png',
      },
    });
  });

  it('FLUX.1 Expand [pro]: the pixels on each side', () => {
    const built = bflProfile.submit(
      request('flux-pro-1.0-expand', {
        operation: 'outpaint',
        expand: { top: 0, right: 256, bottom: 128, left: 256 },
      }),
      sent('base64'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/flux-pro-1.0-expand',
      body: {
        prompt: 'make the sky orange',
        image: PNG_BASE64,
        top: 0,
        bottom: 128,
        left: 256,
        right: 256,
        output_format: 'png',
      },
    });
  });

  it('FLUX.1 Expand [pro]: refuses more than 2048 pixels on a side, or none at all', () => {
    const expand = (pixels: number) =>
      bflProfile.submit(
        request('flux-pro-1.0-expand', {
          operation: 'outpaint',
          expand: { top: pixels, right: 0, bottom: 0, left: 0 },
        }),
        sent('base64'),
      );
    expect(expand(2048).body).toMatchObject({ top: 2048 });
    expect(refusalOf(() => expand(2049)).sentence).toEqual({
      key: 'error.providerInputs.expandTooLarge',
      params: { model: 'flux-pro-1.0-expand', service: 'Black Forest Labs', most: 2048 },
    });
    expect(refusalOf(() => expand(0)).sentence).toEqual({
      key: 'error.providerInputs.expandMissing',
    });
  });

  it('refuses a model that takes no image, and an operation a model does not do', () => {
    const noImages = refusalOf(() =>
      bflProfile.submit(request('flux-pro-1.1', { operation: 'edit' }), sent('base64')),
    );
    expect(noImages.kind).toBe('config');
    expect(noImages.mayHaveReachedService).toBe(false);
    expect(noImages.sentence?.key).toBe('error.providerInputs.noImages');
    const upscale = refusalOf(() =>
      bflProfile.submit(
        request('flux-kontext-pro', { operation: 'upscale', factor: 2 }),
        sent('base64'),
      ),
    );
    expect(upscale.sentence).toEqual({
      key: 'error.providerInputs.operation',
      params: { model: 'flux-kontext-pro', service: 'Black Forest Labs', operation: 'upscale' },
    });
  });

  it('leaves text-to-image as it was', () => {
    const built = bflProfile.submit({
      prompt: 'a red fox',
      model: 'flux-pro-1.1',
      size: '1024x768',
    });
    expect(JSON.stringify(built)).toBe(
      '{"method":"POST","target":"/v1/flux-pro-1.1","body":{"prompt":"a red fox","width":1024,"height":768}}',
    );
  });
});
