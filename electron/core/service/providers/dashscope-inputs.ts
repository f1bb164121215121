/**
 * DashScope (Model Studio) with input images: `wanx2.1-imageedit` on the image-to-image path,
 * `POST /api/v1/services/aigc/image2image/image-synthesis`, asynchronous like text-to-image (the
 * same answer, the same poll). One `function` per operation: `description_edit` (edit),
 * `description_edit_with_mask` (fill: `mask_image_url`, white = edit), `expand` (outpaint: a
 * scale per side, 1.0–2.0), `super_resolution` (upscale: `upscale_factor`). Images are Base64
 * data URIs (the form Model Studio documents for its image fields, for small files), public links,
 * or the `oss://` link of DashScope's temporary upload, which DashScope resolves only when the
 * request says `X-DashScope-OssResourceResolve: enable` (sent only with such a link).
 */
import type { Expand, ImageOperation, InputImage } from '../../../../shared/domain/image-inputs';
import type { ProfileRequest } from './provider-profile';
import type { InputTask } from './input-request';
import { expandOf } from './input-request';

const FUNCTIONS: Readonly<Record<ImageOperation, string>> = {
  edit: 'description_edit',
  fill: 'description_edit_with_mask',
  outpaint: 'expand',
  upscale: 'super_resolution',
};

/** The documented range of each side's expand scale. */
const MIN_SCALE = 1;
const MAX_SCALE = 2;

/** The submit of `task`. */
export function dashscopeInputSubmit(task: InputTask): ProfileRequest {
  const { sent, inputs } = task;
  const links = [sent.source, ...(sent.mask === undefined ? [] : [sent.mask]), ...sent.references];
  const resolveOss = links.some((link) => link.startsWith('oss://'));
  return {
    method: 'POST',
    target: '/api/v1/services/aigc/image2image/image-synthesis',
    headers: {
      'X-DashScope-Async': 'enable',
      ...(resolveOss ? { 'X-DashScope-OssResourceResolve': 'enable' } : {}),
    },
    body: {
      model: task.model,
      input: {
        function: FUNCTIONS[inputs.operation],
        prompt: task.prompt,
        base_image_url: sent.source,
        ...(inputs.operation === 'fill' ? { mask_image_url: sent.mask } : {}),
      },
      parameters: { n: 1, ...parametersOf(task) },
    },
  };
}

function parametersOf(task: InputTask): Record<string, number> {
  const { inputs } = task;
  if (inputs.operation === 'upscale') return { upscale_factor: inputs.factor ?? 1 };
  if (inputs.operation !== 'outpaint') return {};
  return scalesOf(expandOf(task), inputs.source);
}

/**
 * DashScope's expand scales from the pixels asked: each side's scale is (side + added) / side
 * (a top or bottom addition against the height, a left or right one against the width), held to
 * the documented 1.0–2.0 and written with two decimals.
 */
function scalesOf(expand: Expand, source: InputImage): Record<string, number> {
  const scale = (side: number, added: number): number => {
    const within = Math.min(MAX_SCALE, Math.max(MIN_SCALE, (side + added) / side));
    return Math.round(within * 100) / 100;
  };
  return {
    top_scale: scale(source.height, expand.top),
    bottom_scale: scale(source.height, expand.bottom),
    left_scale: scale(source.width, expand.left),
    right_scale: scale(source.width, expand.right),
  };
}
