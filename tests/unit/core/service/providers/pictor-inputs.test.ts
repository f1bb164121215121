/**
 * Today's contract with input images: only the demo's `demo-edit` takes them, as OpenAI-style
 * edits (data URIs, the mask in the alpha convention); any other model of the contract is refused,
 * and text-to-image is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { pictorProfile } from '../../../../../electron/core/service/providers/pictor';
import { MASK, MASK_ALPHA, PNG_DATA_URI, image, refusalOf, request, sent } from './input-fixtures';

const data = (name: string): string =>
  `data:image/png;base64,${Buffer.from(`png:${name}`).toString('base64')}`;

describe('the demo’s edit model', () => {
  it('an edit with references', () => {
    const built = pictorProfile.submit(
      request('demo-edit', { operation: 'edit', references: [image(7), image(8)] }),
      sent('data', { references: 2 }),
    );
    expect(built).toEqual({
      method: 'POST',
      target: '/v1/images/generations',
      body: {
        model: 'demo-edit',
        prompt: 'make the sky orange',
        operation: 'edit',
        image: PNG_DATA_URI,
        reference_images: [data('ref-1'), data('ref-2')],
      },
    });
  });

  it('a fill with the alpha mask', () => {
    const built = pictorProfile.submit(
      request('demo-edit', { operation: 'fill', mask: MASK, maskAlpha: MASK_ALPHA }),
      sent('data', { mask: true }),
    );
    expect(built.body).toEqual({
      model: 'demo-edit',
      prompt: 'make the sky orange',
      operation: 'fill',
      image: PNG_DATA_URI,
      mask: data('mask'),
    });
  });

  it('refuses a fill whose mask is only white on black', () => {
    const refused = refusalOf(() =>
      pictorProfile.submit(
        request('demo-edit', { operation: 'fill', mask: MASK }),
        sent('data', { mask: true }),
      ),
    );
    expect(refused.sentence?.params).toMatchObject({ convention: 'alpha' });
  });

  it.each([2, 4] as const)('an upscale ×%s', (factor) => {
    const built = pictorProfile.submit(
      request('demo-edit', { operation: 'upscale', factor }),
      sent('data'),
    );
    expect(built.body).toEqual({
      model: 'demo-edit',
      prompt: 'make the sky orange',
      operation: 'upscale',
      image: PNG_DATA_URI,
      factor,
    });
  });

  it('refuses an outpaint, and any other model of the contract', () => {
    expect(
      refusalOf(() =>
        pictorProfile.submit(
          request('demo-edit', {
            operation: 'outpaint',
            expand: { top: 10, right: 0, bottom: 0, left: 0 },
          }),
          sent('data'),
        ),
      ).sentence?.key,
    ).toBe('error.providerInputs.operation');
    expect(
      refusalOf(() =>
        pictorProfile.submit(request('gpt-image-1', { operation: 'edit' }), sent('data')),
      ).sentence,
    ).toEqual({
      key: 'error.providerInputs.noImages',
      params: { model: 'gpt-image-1', service: 'Image task service' },
    });
  });

  it('leaves text-to-image as it was', () => {
    const built = pictorProfile.submit({ prompt: 'a red fox', model: 'demo', quality: 'low' });
    expect(JSON.stringify(built)).toBe(
      '{"method":"POST","target":"/v1/images/generations","body":{"model":"demo","prompt":"a red fox","quality":"low"}}',
    );
  });
});
