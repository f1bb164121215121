/**
 * fal's image models on the demo: data: URIs and uploaded files (the upload target never gets
 * the key), fill and upscale at known pixels, the byte limit, moderation of an input.
 */
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TestClock } from './helpers';
import { call, send, startDialect } from './dialect-helpers';
import { dataUri, falUpload, pixelsAt, sourcePng, whiteMask } from './input-helpers';

const KEY = 'fal-input-secret';
const AUTH = { Authorization: `Key ${KEY}` };
const ACCOUNTS = [{ account: 'alice', key: KEY }];

async function run(service: DemoService, clock: TestClock, model: string, body: object) {
  const submitted = await send(`${service.url}/${model}`, { prompt: 'warm', ...body }, AUTH);
  if (submitted.status !== 200) return { submitted, response: null };
  clock.advance(10_000);
  const { response_url } = submitted.json as { response_url: string };
  return { submitted, response: await call(response_url, { headers: AUTH }) };
}

const firstUrl = (json: unknown) => (json as { images: { url: string }[] }).images[0]!.url;

describe('fal image inputs', () => {
  it('edits a data: URI source with Kontext', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const { response } = await run(service, clock, 'fal-ai/flux-pro/kontext', {
      image_url: dataUri(await sourcePng()),
      safety_tolerance: '2',
      num_images: 1,
      output_format: 'png',
    });
    expect(response?.status).toBe(200);
    const out = await pixelsAt(firstUrl(response?.json));
    expect(out.at(0, 0)).toEqual([63, 40, 150, 255]);
  });

  it('fills uploaded files under a white-edit mask; the upload target never saw the key', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const image = await falUpload(service, await sourcePng(), KEY);
    const mask = await falUpload(service, await whiteMask(4, 3, (x) => x === 3), KEY);
    const { response } = await run(service, clock, 'fal-ai/flux-pro/v1/fill', {
      image_url: image,
      mask_url: mask,
    });
    const out = await pixelsAt(firstUrl(response?.json));
    expect(out.at(3, 0)).toEqual([255, 0, 255, 255]);
    expect(out.at(0, 0)).toEqual([0, 0, 200, 255]);
    expect(service.storage.requests.map((entry) => entry.keySeen)).toEqual([false, false]);
  });

  it('upscales ×2 by nearest neighbour, answered as one `image` (ClarityUpscalerOutput)', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const { response } = await run(service, clock, 'fal-ai/clarity-upscaler', {
      image_url: dataUri(await sourcePng()),
      upscale_factor: 2,
    });
    // fal's client types: ClarityUpscalerOutput = { image: Image; seed: number; timings }.
    expect(Object.keys(response?.json as object).sort()).toEqual(['image', 'seed', 'timings']);
    const { image } = response?.json as { image: { url: string; content_type: string } };
    expect(image.content_type).toBe('image/png');
    const out = await pixelsAt(image.url);
    expect([out.width, out.height]).toEqual([8, 6]);
    expect(out.at(3, 3)).toEqual([60, 80, 200, 255]);
  });

  it('refuses safety_tolerance "3" with an input, a file over 10 MB (413), and an outside link', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const source = dataUri(await sourcePng());
    const unsafe = await run(service, clock, 'fal-ai/flux-pro/kontext', {
      image_url: source,
      safety_tolerance: '3',
    });
    expect(unsafe.submitted.status).toBe(422);
    const big = Buffer.concat([await sourcePng(), Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await run(service, clock, 'fal-ai/flux-pro/kontext', {
      image_url: dataUri(big),
    });
    expect(tooBig.submitted.status).toBe(413);
    const outside = await run(service, clock, 'fal-ai/flux-pro/kontext', {
      image_url: 'https://example.com/a.png',
    });
    expect([outside.submitted.status, JSON.stringify(outside.submitted.json)]).toEqual([
      422,
      expect.stringContaining('file_download_error'),
    ]);
  });

  it('answers a flagged input with content_policy_violation at image_url', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const { response } = await run(service, clock, 'fal-ai/flux-pro/kontext', {
      prompt: 'FLAGGED please',
      image_url: dataUri(await sourcePng()),
    });
    expect(response?.status).toBe(422);
    expect(response?.json).toEqual({
      detail: [
        expect.objectContaining({
          loc: ['body', 'image_url'],
          type: 'content_policy_violation',
          msg: expect.stringContaining('input image'),
        }),
      ],
    });
  });
});
