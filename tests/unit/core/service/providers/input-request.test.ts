/**
 * What every profile checks before it builds a request with input images, across the whole
 * capabilities table: every model with each of its operations builds a request in every form its
 * transports send; what a model cannot take is refused with a sentence before anything is built;
 * the safety tolerance is held to what a model allows with an input; and a profile never handles
 * the key (it has no way to: the key is only ever given to `authHeaders`).
 */
import { describe, expect, it } from 'vitest';
import type { ImageInputs, ImageOperation } from '../../../../../shared/domain/image-inputs';
import type {
  InputTransport,
  ModelCapabilities,
} from '../../../../../shared/domain/model-capabilities';
import {
  MODEL_CAPABILITIES,
  safetyWithInput,
} from '../../../../../shared/domain/model-capabilities';
import { PROVIDERS, type ProviderId } from '../../../../../shared/domain/providers';
import { profileOf } from '../../../../../electron/core/service/providers/profiles';
import { MASK, MASK_ALPHA, image, refusalOf, request, sent } from './input-fixtures';

const KEY = 'sk-live-7c1e9a2b4d6f8h0j';

/** The forms a model's transports put images in. */
function formsOf(
  provider: ProviderId,
  transports: readonly InputTransport[],
): ('base64' | 'data' | 'link' | 'oss')[] {
  return transports.map((transport) => {
    if (transport.kind === 'inline-base64') return 'base64';
    if (transport.kind === 'data-uri') return 'data';
    return provider === 'dashscope' ? 'oss' : 'link';
  });
}

/** Inputs for `operation` that `capabilities` takes, with as many references as it allows. */
function inputsFor(
  capabilities: ModelCapabilities,
  operation: ImageOperation,
  factor: 2 | 4 | undefined,
): Omit<ImageInputs, 'source'> {
  const references = Array.from({ length: capabilities.references }, (_, i) => image(40 + i));
  return {
    operation,
    ...(references.length > 0 ? { references } : {}),
    ...(operation === 'fill' ? { mask: MASK, maskAlpha: MASK_ALPHA } : {}),
    ...(operation === 'upscale' ? { factor } : {}),
    ...(operation === 'outpaint' ? { expand: { top: 64, right: 128, bottom: 0, left: 32 } } : {}),
    safety: 6,
  };
}

const CASES = (Object.keys(MODEL_CAPABILITIES) as ProviderId[]).flatMap((provider) =>
  Object.entries(MODEL_CAPABILITIES[provider]).flatMap(([model, capabilities]) =>
    capabilities.operations.flatMap((operation) =>
      (operation === 'upscale' ? capabilities.upscale : [undefined]).flatMap((factor) =>
        formsOf(provider, capabilities.transports).map((form) => ({
          provider,
          model,
          capabilities,
          operation,
          factor,
          form,
        })),
      ),
    ),
  ),
);

describe('every model of the capabilities table', () => {
  it('has cases for every provider but one whose models are imported workflows', () => {
    const listed = (Object.keys(MODEL_CAPABILITIES) as ProviderId[]).filter(
      (provider) => PROVIDERS[provider].modelsAreWorkflows !== true,
    );
    expect(new Set(CASES.map((entry) => entry.provider))).toEqual(new Set(listed));
    // ComfyUI's image inputs are its workflow's own (an imported map's `image`), listed nowhere.
    expect(MODEL_CAPABILITIES.comfyui).toEqual({});
  });

  it.each(CASES)(
    '$provider $model: $operation ×$factor as $form builds a POST without the key',
    ({ provider, model, capabilities, operation, factor, form }) => {
      const profile = profileOf(provider);
      const images = sent(form, {
        mask: operation === 'fill',
        references: capabilities.references,
      });
      const built = profile.submit(
        request(model, inputsFor(capabilities, operation, factor)),
        images,
      );
      expect(built.method).toBe('POST');
      expect(typeof built.body).toBe('object');
      const text = JSON.stringify(built);
      expect(text).not.toContain(KEY);
      for (const given of [images.source, images.mask ?? '', ...images.references]) {
        expect(text).toContain(given);
      }
      // The key's headers are the client's alone: a profile's request names none of them.
      const keyHeaders = Object.keys(profile.authHeaders(KEY)).map((name) => name.toLowerCase());
      expect(Object.values(profile.authHeaders(KEY)).join(' ')).toContain(KEY);
      const named = Object.keys(built.headers ?? {}).map((name) => name.toLowerCase());
      expect(named.filter((name) => keyHeaders.includes(name))).toEqual([]);
    },
  );
});

describe('a request with input images the model cannot take', () => {
  it('is refused when its images were not prepared (no `sent`), before anything is built', () => {
    const refused = refusalOf(() =>
      profileOf('bfl').submit(request('flux-kontext-pro', { operation: 'edit' })),
    );
    expect(refused.kind).toBe('config');
    expect(refused.mayHaveReachedService).toBe(false);
    expect(refused.sentence).toEqual({ key: 'error.providerInputs.notPrepared' });
  });

  it('is refused when a fill’s mask or a reference was not prepared', () => {
    const fill = refusalOf(() =>
      profileOf('fal').submit(
        request('fal-ai/flux-pro/v1/fill', { operation: 'fill', mask: MASK }),
        sent('data'),
      ),
    );
    expect(fill.sentence?.key).toBe('error.providerInputs.notPrepared');
    const references = refusalOf(() =>
      profileOf('bfl').submit(
        request('flux-2-pro', { operation: 'edit', references: [image(5), image(6)] }),
        sent('base64', { references: 1 }),
      ),
    );
    expect(references.sentence?.key).toBe('error.providerInputs.notPrepared');
    const empty = refusalOf(() =>
      profileOf('replicate').submit(
        request('black-forest-labs/flux-kontext-pro', { operation: 'edit' }),
        { source: '', references: [] },
      ),
    );
    expect(empty.sentence?.key).toBe('error.providerInputs.notPrepared');
  });

  it.each<[ProviderId, string]>([
    ['pictor', 'demo'],
    ['fal', 'fal-ai/flux/schnell'],
    ['replicate', 'black-forest-labs/flux-schnell'],
    ['dashscope', 'wanx2.1-t2i-turbo'],
    ['bfl', 'flux-pro-1.1'],
  ])('%s %s takes no image: refused', (provider, model) => {
    const refused = refusalOf(() =>
      profileOf(provider).submit(request(model, { operation: 'edit' }), sent('link')),
    );
    expect(refused.sentence?.key).toBe('error.providerInputs.noImages');
    expect(refused.sentence?.params).toMatchObject({ model });
  });

  it('with no model named, the profile’s default is checked (and refused when it takes none)', () => {
    const refused = refusalOf(() =>
      profileOf('dashscope').submit(
        { prompt: 'x', inputs: { operation: 'edit', source: image(1) } },
        sent('oss'),
      ),
    );
    expect(refused.sentence?.params).toMatchObject({ model: 'wanx2.1-t2i-turbo' });
  });

  it('an operation the model does not do: refused, naming it', () => {
    const refused = refusalOf(() =>
      profileOf('replicate').submit(
        request('nightmareai/real-esrgan', { operation: 'fill', mask: MASK }),
        sent('data', { mask: true }),
      ),
    );
    expect(refused.sentence).toEqual({
      key: 'error.providerInputs.operation',
      params: { model: 'nightmareai/real-esrgan', service: 'Replicate', operation: 'fill' },
    });
  });
});

describe('the safety tolerance with an input image', () => {
  const kontext = MODEL_CAPABILITIES.bfl['flux-kontext-pro'];
  const falKontext = MODEL_CAPABILITIES.fal['fal-ai/flux-pro/kontext'];
  const fill = MODEL_CAPABILITIES.bfl['flux-pro-1.0-fill'];

  it.each([
    [undefined, 2, false],
    [0, 0, false],
    [2, 2, false],
    [5, 2, true],
    [6, 2, true],
  ])('FLUX Kontext: asked %s, sent %s (clamped: %s)', (asked, sentSafety, clamped) => {
    expect(kontext && safetyWithInput(kontext, asked)).toEqual({ sent: sentSafety, clamped });
  });

  it('fal’s enum starts at 1: 0 asked is sent as 1, and says so', () => {
    expect(falKontext && safetyWithInput(falKontext, 0)).toEqual({ sent: 1, clamped: true });
  });

  it('a model with no safety tolerance has none to send', () => {
    expect(fill && safetyWithInput(fill, 6)).toBeNull();
  });
});
