/**
 * DashScope's image editing (Model Studio, "Wanx general image editing": wanx2.1-imageedit), in
 * the table of shared/domain/model-capabilities.ts: `POST
 * /api/v1/services/aigc/image2image/image-synthesis` `{ model, input: { function, prompt,
 * base_image_url, mask_image_url? }, parameters: { n, upscale_factor?, top_scale?, bottom_scale?,
 * left_scale?, right_scale? } }`, answered and polled as text-to-image. `function`:
 * `description_edit` (edit), `description_edit_with_mask` (fill, white = edit), `expand`
 * (outpaint: each side grows by `(scale − 1) ×` the source's side, rounded), `super_resolution`
 * (upscale ×`upscale_factor`, 1–4). Images are Base64 data URIs (`data:image/png;base64,…`, as
 * Model Studio documents for its image fields) or links: the demo resolves only its own, and
 * `oss://` only with `X-DashScope-OssResourceResolve: enable`, for the account and model of its
 * upload, 48 hours after it. Refusals are 400 `InvalidParameter`; an input the moderation flags
 * is refused at the submit, 400 `DataInspectionFailed`.
 */
import { randomUUID } from 'node:crypto';
import { capabilitiesOf } from '../../../shared/domain/model-capabilities';
import type { ImageOperation } from '../../../shared/domain/image-inputs';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { inputFlagged, planInputs, type InputAsk } from '../input-checks';
import type { InputProblem } from '../input-problem';
import { isInputProblem } from '../input-problem';
import type { DialectCall, DialectKit } from './dialect';
import { headerValue, jsonObject, objectOf } from './dialect';
import { inputTask, linkRules } from './input-task';

/** The image-to-image submit path. */
export const DASHSCOPE_EDIT = '/api/v1/services/aigc/image2image/image-synthesis';

const FUNCTIONS: Readonly<Record<string, ImageOperation>> = {
  description_edit: 'edit',
  description_edit_with_mask: 'fill',
  expand: 'outpaint',
  super_resolution: 'upscale',
};
const SCALES = ['top_scale', 'bottom_scale', 'left_scale', 'right_scale'] as const;

function refusal(code: string, message: string): Reply {
  return jsonReply(400, { request_id: randomUUID(), code, message });
}

const invalid = (field: string, message: string): InputProblem => ({
  problem: 'invalid',
  field,
  message,
});

function scalesOf(params: Record<string, unknown>) {
  const scale: Record<string, number> = {};
  for (const name of SCALES) {
    const value = params[name] ?? 1;
    if (typeof value !== 'number' || !(value >= 1 && value <= 2)) {
      return invalid(name, `The ${name} must be from 1.0 to 2.0.`);
    }
    scale[name] = value;
  }
  const grow = (side: number, by: number | undefined) => Math.round(side * ((by ?? 1) - 1));
  return (w: number, h: number) => ({
    top: grow(h, scale.top_scale),
    bottom: grow(h, scale.bottom_scale),
    left: grow(w, scale.left_scale),
    right: grow(w, scale.right_scale),
  });
}

function askOf(
  model: string,
  input: Record<string, unknown>,
  params: Record<string, unknown>,
): InputAsk | InputProblem {
  const capabilities = capabilitiesOf('dashscope', model);
  if (!capabilities) return invalid('model', 'Model not exist.');
  const operation = typeof input.function === 'string' ? FUNCTIONS[input.function] : undefined;
  if (!operation) return invalid('input.function', 'The function is not supported.');
  const factor = params.upscale_factor ?? 1;
  if (typeof factor !== 'number' || !Number.isInteger(factor) || factor < 1 || factor > 4) {
    return invalid('parameters.upscale_factor', 'The upscale_factor must be from 1 to 4.');
  }
  const margins = operation === 'outpaint' ? scalesOf(params) : undefined;
  if (isInputProblem(margins)) return margins;
  if (operation === 'fill' && input.mask_image_url === undefined) {
    return invalid('input.mask_image_url', 'The mask_image_url is required for this function.');
  }
  return {
    operation,
    capabilities,
    source: { field: 'base_image_url', value: input.base_image_url },
    references: [],
    ...(operation === 'fill'
      ? { mask: { field: 'mask_image_url', value: input.mask_image_url } }
      : {}),
    ...(operation === 'upscale' ? { factor } : {}),
    ...(margins ? { margins } : {}),
  };
}

/** A submit of account `who` (key, async header and throttle were checked). */
export async function dashscopeEdit(
  kit: DialectKit,
  call: DialectCall,
  who: string,
): Promise<Reply> {
  const body = jsonObject(call.body);
  if (!body) return refusal('InvalidParameter', 'The request body is not a valid JSON object.');
  const input = objectOf(body.input) ?? {};
  const model = typeof body.model === 'string' ? body.model : '';
  const ask = askOf(model, input, objectOf(body.parameters) ?? {});
  if (isInputProblem(ask)) return refusal('InvalidParameter', ask.message);
  const prompt = typeof input.prompt === 'string' && input.prompt.trim() !== '' ? input.prompt : '';
  if (prompt === '' && ask.operation !== 'upscale') {
    return refusal('InvalidParameter', 'Field required: input.prompt');
  }
  const resolve = headerValue(call.headers, 'x-dashscope-ossresourceresolve') === 'enable';
  const rules = { ...linkRules('oss', who, model, resolve), dataUri: true };
  if (inputFlagged(prompt)) {
    const plan = await planInputs(kit.ctx, ask, rules);
    if (isInputProblem(plan)) return refusal('InvalidParameter', plan.message);
    return refusal(
      'DataInspectionFailed',
      'Input data may contain inappropriate content: the input image was flagged.',
    );
  }
  const task = await inputTask(kit, who, { ask, rules, prompt: prompt || model, input: body });
  if (task === 'no-credits') {
    return refusal(
      'Arrearage',
      'Access denied, please make sure your account is in good standing.',
    );
  }
  if (isInputProblem(task)) return refusal('InvalidParameter', task.message);
  return jsonReply(200, {
    request_id: randomUUID(),
    output: { task_id: task.id, task_status: 'PENDING' },
  });
}
