/**
 * fal's models' options, by the names of each model's published input schema (fal.ai/models/<id>
 * "API" tab and its llms.txt; docs.fal.ai "Model arguments" for `seed`, `num_images`,
 * `image_size`, `enable_safety_checker`, `output_format`). `image_size` is sent from the
 * request's size, not as an option; the safety checker and `sync_mode` are left as fal sets them.
 */
import type { ParamSchema } from './model-params';
import { NEGATIVE, SEED, choice, decimal, toggle, whole } from './param-spec-builders';

const COUNT = whole(1, 4, 1, { common: 'count' });
const FORMAT = choice(['jpeg', 'png'], 'jpeg', { common: 'format' });

// fal-ai/flux/dev, fal-ai/flux/schnell (FluxDevInput / SchnellFluxInput): steps 1–50 (schnell
// 1–12), guidance_scale 1–20 (dev only), seed, num_images 1–4, output_format jpeg|png.
const FLUX_DEV: ParamSchema = {
  params: {
    seed: SEED,
    num_images: COUNT,
    num_inference_steps: whole(1, 50, 28, { common: 'steps' }),
    guidance_scale: decimal([1, 20, 0.5], 3.5, { common: 'guidance' }),
    output_format: FORMAT,
    enable_safety_checker: toggle(true, { common: 'safety' }),
  },
};
const FLUX_SCHNELL: ParamSchema = {
  params: {
    seed: SEED,
    num_images: COUNT,
    num_inference_steps: whole(1, 12, 4, { common: 'steps' }),
    output_format: FORMAT,
    enable_safety_checker: toggle(true, { common: 'safety' }),
  },
};
// fal-ai/flux-pro/v1.1 and v1.1-ultra: safety_tolerance is a string enum "1"…"6" (default "2");
// ultra takes aspect_ratio (21:9 … 9:21) and raw instead of image_size.
const SAFETY = choice(['1', '2', '3', '4', '5', '6'], '2', { common: 'safety' });
const FLUX_PRO: ParamSchema = {
  params: { seed: SEED, num_images: COUNT, output_format: FORMAT, safety_tolerance: SAFETY },
};
const FLUX_ULTRA: ParamSchema = {
  params: {
    ...FLUX_PRO.params,
    aspect_ratio: choice(
      ['21:9', '16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '9:21'],
      '16:9',
      { common: 'aspect' },
    ),
    raw: toggle(false),
  },
};
// fal-ai/nano-banana (Gemini 2.5 Flash Image): aspect_ratio, num_images 1–4, output_format
// jpeg|png|webp; fal-ai/nano-banana-pro adds resolution 1K|2K|4K.
const NANO_RATIOS = ['21:9', '16:9', '3:2', '4:3', '5:4', '1:1', '4:5', '3:4', '2:3', '9:16'];
const NANO: ParamSchema = {
  params: {
    aspect_ratio: choice(NANO_RATIOS, '1:1', { common: 'aspect' }),
    num_images: COUNT,
    output_format: choice(['jpeg', 'png', 'webp'], 'png', { common: 'format' }),
  },
};
// fal-ai/imagen4/preview (and /fast, /ultra): negative_prompt, aspect_ratio 1:1|16:9|9:16|3:4|4:3,
// resolution 1K|2K, num_images 1–4, seed.
const IMAGEN4: ParamSchema = {
  params: {
    aspect_ratio: choice(['1:1', '16:9', '9:16', '3:4', '4:3'], '1:1', { common: 'aspect' }),
    resolution: choice(['1K', '2K'], '1K', { common: 'resolution' }),
    negative_prompt: NEGATIVE,
    seed: SEED,
    num_images: COUNT,
  },
};
// fal-ai/gpt-image-1/text-to-image: image_size auto|1024x1024|1536x1024|1024x1536, quality
// auto|low|medium|high, background auto|transparent|opaque, num_images 1–4, output_format.
const GPT_IMAGE: ParamSchema = {
  params: {
    image_size: choice(['auto', '1024x1024', '1536x1024', '1024x1536'], 'auto', { common: 'size' }),
    quality: choice(['auto', 'low', 'medium', 'high'], 'auto', { common: 'resolution' }),
    background: choice(['auto', 'transparent', 'opaque'], 'auto'),
    num_images: COUNT,
    output_format: choice(['jpeg', 'png', 'webp'], 'png', { common: 'format' }),
  },
};
// fal-ai/bytedance/seedream/v4/text-to-image: image_size (fal's named sizes), num_images 1–6,
// seed, enable_safety_checker.
const SEEDREAM: ParamSchema = {
  params: {
    image_size: choice(
      [
        'square_hd',
        'square',
        'portrait_4_3',
        'portrait_16_9',
        'landscape_4_3',
        'landscape_16_9',
        'auto_2K',
        'auto_4K',
      ],
      'square_hd',
      { common: 'size' },
    ),
    seed: SEED,
    num_images: whole(1, 6, 1, { common: 'count' }),
    enable_safety_checker: toggle(true, { common: 'safety' }),
  },
};

export const FAL_SCHEMAS: Readonly<Record<string, ParamSchema>> = {
  'fal-ai/flux/schnell': FLUX_SCHNELL,
  'fal-ai/flux/dev': FLUX_DEV,
  'fal-ai/flux-pro/v1.1': FLUX_PRO,
  'fal-ai/flux-pro/v1.1-ultra': FLUX_ULTRA,
  'fal-ai/nano-banana': NANO,
  'fal-ai/nano-banana-pro': {
    params: {
      ...NANO.params,
      resolution: choice(['1K', '2K', '4K'], '1K', { common: 'resolution' }),
    },
  },
  'fal-ai/imagen4/preview': IMAGEN4,
  'fal-ai/gpt-image-1/text-to-image': GPT_IMAGE,
  'fal-ai/bytedance/seedream/v4/text-to-image': SEEDREAM,
};
