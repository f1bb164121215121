/**
 * Replicate with input images, images as `data:` URIs (small files) or the `urls.get` of a file
 * uploaded to its files API:
 * - official models on `POST /v1/models/<owner>/<name>/predictions` with `{ input }`:
 *   `black-forest-labs/flux-kontext-pro` (`input_image`, `safety_tolerance` at most 2 with an
 *   input) and `black-forest-labs/flux-fill-pro` (`image`, `mask` white = edit; or, to expand,
 *   `outpaint`, one of its named options: the nearest to the pixels asked, below);
 * - the community model `nightmareai/real-esrgan` on `POST /v1/predictions` with its version:
 *   `{ version, input: { image, scale } }`.
 */
import type { Expand } from '../../../../shared/domain/image-inputs';
import type { ProfileRequest } from './provider-profile';
import type { InputTask } from './input-request';
import { expandOf, safetyOf } from './input-request';

/**
 * The version of `nightmareai/real-esrgan` Pictor runs (a community model is run by version; its
 * latest when this was written). A newer one is a change here, tested like any request field.
 */
const REAL_ESRGAN_VERSION = '42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b';

/** The submit of `task` to the model `owner/name`. */
export function replicateInputSubmit(task: InputTask): ProfileRequest {
  const { sent, inputs } = task;
  if (task.model === 'nightmareai/real-esrgan') {
    return {
      method: 'POST',
      target: '/v1/predictions',
      body: { version: REAL_ESRGAN_VERSION, input: { image: sent.source, scale: inputs.factor } },
    };
  }
  return {
    method: 'POST',
    target: `/v1/models/${task.model}/predictions`,
    body: { input: inputOf(task) },
  };
}

function inputOf(task: InputTask): Record<string, unknown> {
  const { prompt, sent, inputs } = task;
  switch (inputs.operation) {
    case 'fill':
      return { prompt, image: sent.source, mask: sent.mask, output_format: 'png' };
    case 'outpaint': {
      const option = outpaintOption(expandOf(task), inputs.source);
      return { prompt, image: sent.source, outpaint: option, output_format: 'png' };
    }
    default: {
      const safety = safetyOf(task);
      return {
        prompt,
        input_image: sent.source,
        ...(safety === undefined ? {} : { safety_tolerance: safety }),
        output_format: 'png',
      };
    }
  }
}

/**
 * FLUX Fill [pro]'s outpaint option nearest to `expand` on an image of `size`: FLUX Fill on
 * Replicate takes no pixels, only "Zoom out 1.5x", "Zoom out 2x", "Make square" and one side
 * ("Left outpaint", …). One side asked: that side. Sides that make the image square: "Make
 * square". Otherwise a zoom out by the larger growth of width and height, to the nearer of 1.5
 * and 2. The plan says which option is sent (the pixels are not the service's).
 */
function outpaintOption(
  expand: Expand,
  size: { readonly width: number; readonly height: number },
): string {
  const sides = (['left', 'right', 'top', 'bottom'] as const).filter((side) => expand[side] > 0);
  const [only] = sides;
  if (sides.length === 1 && only !== undefined) {
    return `${only.charAt(0).toUpperCase()}${only.slice(1)} outpaint`;
  }
  const width = size.width + expand.left + expand.right;
  const height = size.height + expand.top + expand.bottom;
  if (width === height && size.width !== size.height) return 'Make square';
  const growth = Math.max(width / size.width, height / size.height);
  return growth < 1.75 ? 'Zoom out 1.5x' : 'Zoom out 2x';
}
