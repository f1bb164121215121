/**
 * fal.ai with input images: the queue's `POST /<model id>`, images as links in `*_url` fields (a
 * `data:` URI, or the `file_url` of fal's storage upload):
 * - `fal-ai/flux-pro/kontext`: `image_url`, `safety_tolerance` as the string enum "1" … "6"
 *   (at most "2" with an input), one PNG;
 * - `fal-ai/flux-pro/v1/fill`: `image_url`, `mask_url` (white = edit, at the image's size);
 * - `fal-ai/flux-2-pro/outpaint`: `image_url` and `expand_top`, `expand_bottom`, `expand_left`,
 *   `expand_right`, 0–2048 pixels each;
 * - `fal-ai/clarity-upscaler`: `image_url`, `upscale_factor`, and the prompt (it guides the
 *   detail the upscaler adds).
 */
import type { ProfileRequest } from './provider-profile';
import type { InputTask } from './input-request';
import { expandOf, safetyOf } from './input-request';

/** fal's documented limit of each expand side, in pixels. */
const MAX_EXPAND = 2048;

/** The submit of `task` to the model at `path` (its checked parts, joined). */
export function falInputSubmit(task: InputTask, path: string): ProfileRequest {
  return { method: 'POST', target: `/${path}`, body: bodyOf(task) };
}

function bodyOf(task: InputTask): Record<string, unknown> {
  const { prompt, sent } = task;
  switch (task.inputs.operation) {
    case 'fill':
      return { prompt, image_url: sent.source, mask_url: sent.mask, num_images: 1 };
    case 'outpaint': {
      const { top, bottom, left, right } = expandOf(task, MAX_EXPAND);
      return {
        image_url: sent.source,
        expand_top: top,
        expand_bottom: bottom,
        expand_left: left,
        expand_right: right,
      };
    }
    case 'upscale':
      return { image_url: sent.source, upscale_factor: task.inputs.factor, prompt };
    default: {
      const safety = safetyOf(task);
      return {
        prompt,
        image_url: sent.source,
        ...(safety === undefined ? {} : { safety_tolerance: String(safety) }),
        num_images: 1,
        output_format: 'png',
      };
    }
  }
}
