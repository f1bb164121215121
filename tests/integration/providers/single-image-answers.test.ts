/**
 * Answers that list one image, not a list, through the real core against the demo service on
 * loopback: fal's Clarity Upscaler answers one `image` (fal's client types, ClarityUpscalerOutput
 * `{ image: Image; seed; timings }`), as a link and as a sync-mode `data:` URL; Replicate's
 * image models answer `output` as one URI. Each task is paid for once and its image saved, a real
 * PNG at the upscaled size. And a DashScope edit goes inside the request as a Base64 data URI
 * (its documented image field form): nothing uploaded, its image saved.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImageInputs } from '../../../shared/domain/image-inputs';
import type { DemoServiceOptions } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import { sourcePng } from '../demo-service/input-helpers';
import { providerRig, type ProviderRig } from './provider-harness';

/** `inputs` (its source put in the core's store) sent to `model`, settled. */
async function runWithInput(
  rig: ProviderRig,
  model: string,
  inputs: (source: ImageInputs['source']) => ImageInputs,
) {
  rig.core.engine.start();
  const source = await rig.core.inputs.put(await sourcePng());
  const [task] = await rig.core.engine.submit(
    { prompt: 'sharper', model, inputs: inputs(source) },
    rig.target,
  );
  const [done] = await rig.settle([task!.localId]);
  return { done: done!, source };
}

async function savedSize(rig: ProviderRig, file: string | undefined) {
  const metadata = await sharp(rig.core.gallery.resolve(file!)).metadata();
  return [metadata.format, metadata.width, metadata.height];
}

const UPSCALES: readonly [string, ProviderId, string, DemoServiceOptions][] = [
  ['fal, one `image` by link', 'fal', 'fal-ai/clarity-upscaler', {}],
  [
    'fal, one `image` as a sync-mode data: URL',
    'fal',
    'fal-ai/clarity-upscaler',
    { inlineResults: 'data-url' },
  ],
  ['replicate, `output` as one URI', 'replicate', 'nightmareai/real-esrgan', {}],
];

describe.each(UPSCALES)('an upscale answered with %s', (_, provider, model, options) => {
  it('is paid for once and saved, at the upscaled size', async () => {
    const rig = await providerRig(provider, options);
    const { done, source } = await runWithInput(rig, model, (image) => ({
      operation: 'upscale',
      source: image,
      factor: 2,
      route: 'inline',
    }));
    expect(done).toMatchObject({
      status: 'completed',
      error: null,
      images: [{ state: 'saved', mime: 'image/png' }],
    });
    expect(await savedSize(rig, done.images[0]!.file)).toEqual([
      'png',
      source.width * 2,
      source.height * 2,
    ]);
    expect(rig.service.log.submits).toHaveLength(1);
  });
});

describe('a DashScope edit', () => {
  it('goes inside the request as a data: URI, nothing uploaded, and its image is saved', async () => {
    const rig = await providerRig('dashscope');
    const { done } = await runWithInput(rig, 'wanx2.1-imageedit', (image) => ({
      operation: 'edit',
      source: image,
    }));
    expect(done).toMatchObject({
      status: 'completed',
      error: null,
      images: [{ state: 'saved', mime: 'image/png' }],
    });
    expect(done.request.inputs?.route ?? 'auto').toBe('auto');
    expect(rig.service.storage.requests).toEqual([]);
    expect(rig.service.log.submits).toHaveLength(1);
  });
});
