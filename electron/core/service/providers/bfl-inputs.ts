/**
 * Black Forest Labs with input images: `POST /v1/<model>`, each model its own body, images as
 * bare base64 (the transport's inline kind; FLUX Kontext and FLUX.2 also take a link):
 * - FLUX Kontext (`flux-kontext-pro`, `flux-kontext-max`): `input_image`, `safety_tolerance`
 *   at most 2 with an input;
 * - FLUX.2 [pro]: `input_image`, then `input_image_2` … `input_image_8` for references,
 *   `safety_tolerance` 0–5;
 * - FLUX.1 Fill [pro]: `image`, `mask` (white = edit, at the image's size);
 * - FLUX.1 Expand [pro]: `image` and the pixels to add, `top`, `bottom`, `left`, `right`, 0–2048.
 * Every one asks for PNG (`output_format`), so an edit comes back without a second compression.
 */
import type { ProfileRequest } from './provider-profile';
import type { InputTask } from './input-request';
import { expandOf, safetyOf } from './input-request';

/** BFL's documented limit of each expand side, in pixels. */
const MAX_EXPAND = 2048;

/** The submit of `task`. */
export function bflInputSubmit(task: InputTask): ProfileRequest {
  return { method: 'POST', target: `/v1/${task.model}`, body: bodyOf(task) };
}

function bodyOf(task: InputTask): Record<string, unknown> {
  const { prompt, sent } = task;
  switch (task.inputs.operation) {
    case 'fill':
      return { prompt, image: sent.source, mask: sent.mask, output_format: 'png' };
    case 'outpaint': {
      const { top, bottom, left, right } = expandOf(task, MAX_EXPAND);
      return { prompt, image: sent.source, top, bottom, left, right, output_format: 'png' };
    }
    default: {
      const references = Object.fromEntries(
        sent.references.map((reference, index) => [`input_image_${index + 2}`, reference]),
      );
      const safety = safetyOf(task);
      return {
        prompt,
        input_image: sent.source,
        ...references,
        ...(safety === undefined ? {} : { safety_tolerance: safety }),
        output_format: 'png',
      };
    }
  }
}
