/**
 * DashScope with input images: wanx2.1-imageedit on the image-to-image path, one `function` per
 * operation, expand scales from the pixels asked ((side + added) / side, 1.0–2.0, two decimals),
 * the upscale factor, a data: URI as the image field itself, the OSS resolve header exactly when an
 * input is an `oss://` link, and
 * text-to-image unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { Expand } from '../../../../../shared/domain/image-inputs';
import { dashscopeProfile } from '../../../../../electron/core/service/providers/dashscope';
import { MASK, request, sent } from './input-fixtures';

const MODEL = 'wanx2.1-imageedit';
const PATH = '/api/v1/services/aigc/image2image/image-synthesis';
const OSS = 'oss://dashscope-instant/acct/2026-11-27';
const LINK = 'https://v3.fal.media/files';

describe('DashScope with input images', () => {
  it('an edit is description_edit; an oss:// input adds the resolve header', () => {
    const built = dashscopeProfile.submit(request(MODEL, { operation: 'edit' }), sent('oss'));
    expect(built).toEqual({
      method: 'POST',
      target: PATH,
      headers: { 'X-DashScope-Async': 'enable', 'X-DashScope-OssResourceResolve': 'enable' },
      body: {
        model: MODEL,
        input: {
          function: 'description_edit',
          prompt: 'make the sky orange',
          base_image_url: `${OSS}/source.png`,
        },
        parameters: { n: 1 },
      },
    });
  });

  it('a data: URI goes in the image field itself, with no resolve header', () => {
    const given = sent('data', { mask: true });
    const built = dashscopeProfile.submit(request(MODEL, { operation: 'fill', mask: MASK }), given);
    expect(built.headers).toEqual({ 'X-DashScope-Async': 'enable' });
    expect(built.body).toMatchObject({
      input: { base_image_url: given.source, mask_image_url: given.mask },
    });
    expect(given.source).toMatch(/^data:image\/png;base64,/);
  });

  it('a public link needs no resolve header', () => {
    const built = dashscopeProfile.submit(request(MODEL, { operation: 'edit' }), sent('link'));
    expect(built.headers).toEqual({ 'X-DashScope-Async': 'enable' });
  });

  it('a fill is description_edit_with_mask, with the mask; a mask alone on oss:// asks to resolve', () => {
    const built = dashscopeProfile.submit(request(MODEL, { operation: 'fill', mask: MASK }), {
      source: `${LINK}/source.png`,
      mask: `${OSS}/mask.png`,
      references: [],
    });
    expect(built).toEqual({
      method: 'POST',
      target: PATH,
      headers: { 'X-DashScope-Async': 'enable', 'X-DashScope-OssResourceResolve': 'enable' },
      body: {
        model: MODEL,
        input: {
          function: 'description_edit_with_mask',
          prompt: 'make the sky orange',
          base_image_url: `${LINK}/source.png`,
          mask_image_url: `${OSS}/mask.png`,
        },
        parameters: { n: 1 },
      },
    });
  });

  // The source is 1024 wide and 768 high.
  it.each<[string, Expand, Record<string, number>]>([
    [
      'a quarter of each side',
      { top: 192, right: 256, bottom: 192, left: 256 },
      { top_scale: 1.25, bottom_scale: 1.25, left_scale: 1.25, right_scale: 1.25 },
    ],
    [
      'one side, rounded to two decimals',
      { top: 100, right: 0, bottom: 0, left: 0 },
      { top_scale: 1.13, bottom_scale: 1, left_scale: 1, right_scale: 1 },
    ],
    [
      'more than double, held to 2.0',
      { top: 0, right: 3000, bottom: 768, left: 1 },
      { top_scale: 1, bottom_scale: 2, left_scale: 1, right_scale: 2 },
    ],
  ])('an expand of %s', (_, expand, scales) => {
    const built = dashscopeProfile.submit(
      request(MODEL, { operation: 'outpaint', expand }),
      sent('oss'),
    );
    expect(built.body).toEqual({
      model: MODEL,
      input: {
        function: 'expand',
        prompt: 'make the sky orange',
        base_image_url: `${OSS}/source.png`,
      },
      parameters: { n: 1, ...scales },
    });
  });

  it.each([2, 4] as const)('an upscale ×%s is super_resolution with upscale_factor', (factor) => {
    const built = dashscopeProfile.submit(
      request(MODEL, { operation: 'upscale', factor }),
      sent('link'),
    );
    expect(built).toEqual({
      method: 'POST',
      target: PATH,
      headers: { 'X-DashScope-Async': 'enable' },
      body: {
        model: MODEL,
        input: {
          function: 'super_resolution',
          prompt: 'make the sky orange',
          base_image_url: `${LINK}/source.png`,
        },
        parameters: { n: 1, upscale_factor: factor },
      },
    });
  });

  it('leaves text-to-image as it was', () => {
    const built = dashscopeProfile.submit({
      prompt: 'a red fox',
      model: 'wanx2.1-t2i-turbo',
      size: '1024x768',
    });
    expect(JSON.stringify(built)).toBe(
      '{"method":"POST","target":"/api/v1/services/aigc/text2image/image-synthesis","headers":{"X-DashScope-Async":"enable"},"body":{"model":"wanx2.1-t2i-turbo","input":{"prompt":"a red fox"},"parameters":{"n":1,"size":"1024*768"}}}',
    );
  });
});
