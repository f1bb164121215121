/**
 * Replicate's models' options, by the names of each model's latest version `openapi_schema`
 * (replicate.com/<owner>/<name>/api, "Input schema"). Sent as fields of `input`.
 */
import type { ParamSchema } from './model-params';
import { NEGATIVE, RATIOS, SEED, choice, decimal, toggle, whole } from './param-spec-builders';

const FORMAT = choice(['webp', 'jpg', 'png'], 'webp', { common: 'format' });
const FLUX_RATIOS = [
  '1:1',
  '16:9',
  '21:9',
  '3:2',
  '2:3',
  '4:5',
  '5:4',
  '3:4',
  '4:3',
  '9:16',
  '9:21',
];

// black-forest-labs/flux-schnell and flux-dev: aspect_ratio, num_outputs 1–4, seed,
// num_inference_steps (schnell 1–4, dev 1–50), guidance (dev 0–10), output_format webp|jpg|png,
// output_quality 0–100, disable_safety_checker, go_fast, megapixels 1|0.25.
const FLUX_COMMON = {
  aspect_ratio: choice(FLUX_RATIOS, '1:1', { common: 'aspect' }),
  seed: SEED,
  num_outputs: whole(1, 4, 1, { common: 'count' }),
  output_format: FORMAT,
  output_quality: whole(0, 100, 80),
  disable_safety_checker: toggle(false, { common: 'safety' }),
  megapixels: choice(['1', '0.25'], '1', { common: 'resolution' }),
  go_fast: toggle(true),
};

export const REPLICATE_SCHEMAS: Readonly<Record<string, ParamSchema>> = {
  'black-forest-labs/flux-schnell': {
    params: { ...FLUX_COMMON, num_inference_steps: whole(1, 4, 4, { common: 'steps' }) },
  },
  'black-forest-labs/flux-dev': {
    params: {
      ...FLUX_COMMON,
      num_inference_steps: whole(1, 50, 28, { common: 'steps' }),
      guidance: decimal([0, 10, 0.1], 3, { common: 'guidance' }),
    },
  },
  // black-forest-labs/flux-1.1-pro-ultra: aspect_ratio, safety_tolerance 1–6 (2), seed, raw,
  // output_format jpg|png.
  'black-forest-labs/flux-1.1-pro-ultra': {
    params: {
      aspect_ratio: choice(RATIOS, '1:1', { common: 'aspect' }),
      safety_tolerance: whole(1, 6, 2, { common: 'safety' }),
      seed: SEED,
      raw: toggle(false),
      output_format: choice(['jpg', 'png'], 'jpg', { common: 'format' }),
    },
  },
  // google/nano-banana: aspect_ratio (match_input_image by default), output_format jpg|png.
  'google/nano-banana': {
    params: {
      aspect_ratio: choice(
        ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'],
        '1:1',
        {
          common: 'aspect',
        },
      ),
      output_format: choice(['jpg', 'png'], 'jpg', { common: 'format' }),
    },
  },
  // google/imagen-4: aspect_ratio 1:1|9:16|16:9|3:4|4:3, safety_filter_level, output_format.
  'google/imagen-4': {
    params: {
      aspect_ratio: choice(['1:1', '9:16', '16:9', '3:4', '4:3'], '1:1', { common: 'aspect' }),
      safety_filter_level: choice(
        ['block_low_and_above', 'block_medium_and_above', 'block_only_high'],
        'block_only_high',
        { common: 'safety' },
      ),
      output_format: choice(['jpg', 'png'], 'jpg', { common: 'format' }),
    },
  },
  // openai/gpt-image-1: aspect_ratio 1:1|3:2|2:3, quality, background, number_of_images 1–10,
  // output_format, moderation.
  'openai/gpt-image-1': {
    params: {
      aspect_ratio: choice(['1:1', '3:2', '2:3'], '1:1', { common: 'aspect' }),
      quality: choice(['auto', 'low', 'medium', 'high'], 'auto', { common: 'resolution' }),
      background: choice(['auto', 'transparent', 'opaque'], 'auto'),
      number_of_images: whole(1, 10, 1, { common: 'count' }),
      output_format: choice(['png', 'jpeg', 'webp'], 'webp', { common: 'format' }),
      moderation: choice(['auto', 'low'], 'auto', { common: 'safety' }),
    },
  },
  // bytedance/seedream-4: size 1K|2K|4K, aspect_ratio, max_images 1–15, seed; its
  // schema lists no negative prompt; stable-diffusion style models do (NEGATIVE is not shipped
  // for it).
  'bytedance/seedream-4': {
    params: {
      size: choice(['1K', '2K', '4K'], '2K', { common: 'resolution' }),
      aspect_ratio: choice(['1:1', '4:3', '3:4', '16:9', '9:16', '3:2', '2:3', '21:9'], '1:1', {
        common: 'aspect',
      }),
      max_images: whole(1, 15, 1, { common: 'count' }),
      seed: SEED,
    },
  },
  // stability-ai/stable-diffusion-3.5-large: negative_prompt, cfg 0–20, steps 1–50, seed.
  'stability-ai/stable-diffusion-3.5-large': {
    params: {
      aspect_ratio: choice(
        ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'],
        '1:1',
        {
          common: 'aspect',
        },
      ),
      negative_prompt: NEGATIVE,
      seed: SEED,
      cfg: decimal([0, 20, 0.5], 5, { common: 'guidance' }),
      steps: whole(1, 50, 40, { common: 'steps' }),
      output_format: FORMAT,
    },
  },
};
