/**
 * fal's image models (fal.ai model pages: FLUX.1 Kontext [pro], FLUX.1 [pro] Fill, Clarity
 * Upscaler), in the table of shared/domain/model-capabilities.ts: `image_url` (and `mask_url` for
 * Fill, white = edit), each a `data:` URI or a link (the demo resolves only its own: a `file_url`
 * of its storage, a result image); `safety_tolerance` is a string "1" … "6", at most "2" with an
 * input; `upscale_factor` 2 or 4. Refusals are 422 `{ detail: [{ loc, msg, type }] }` (a link not
 * fetched has type `file_download_error`), an image over the model's bytes 413 `{ detail }`
 * (chosen); an input the moderation flags answers the response URL's 422
 * `content_policy_violation` at `image_url`.
 */
import type { ModelCapabilities } from '../../../shared/domain/model-capabilities';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import type { InputAsk } from '../input-checks';
import type { InputProblem } from '../input-problem';
import { isInputProblem } from '../input-problem';
import type { StoredTask } from '../task-store';
import type { DialectKit } from './dialect';
import { inputTask, linkRules } from './input-task';

const MAX_IMAGES = 4;

function refusal(problem: InputProblem): Reply {
  if (problem.problem === 'too-large') return jsonReply(413, { detail: problem.message });
  const type = problem.problem === 'unfetchable' ? 'file_download_error' : 'value_error';
  return jsonReply(422, { detail: [{ loc: ['body', problem.field], msg: problem.message, type }] });
}

const invalid = (field: string, message: string): InputProblem => ({
  problem: 'invalid',
  field,
  message,
});

function safetyOf(value: unknown): number | undefined | InputProblem {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[1-6]$/.test(value)) {
    return invalid('safety_tolerance', "Input should be '1', '2', '3', '4', '5' or '6'");
  }
  return Number(value);
}

function askOf(body: Record<string, unknown>, caps: ModelCapabilities): InputAsk | InputProblem {
  const operation = caps.operations[0] ?? 'edit';
  const safety = safetyOf(body.safety_tolerance);
  if (isInputProblem(safety)) return safety;
  const factor = body.upscale_factor ?? 2;
  if (operation === 'upscale' && !caps.upscale.includes(factor as 2 | 4)) {
    return invalid('upscale_factor', 'Input should be 2 or 4');
  }
  if (operation === 'fill' && body.mask_url === undefined)
    return invalid('mask_url', 'Field required');
  return {
    operation,
    capabilities: caps,
    source: { field: 'image_url', value: body.image_url },
    references: [],
    ...(operation === 'fill' ? { mask: { field: 'mask_url', value: body.mask_url } } : {}),
    ...(operation === 'upscale' ? { factor: factor as number } : {}),
    ...(safety === undefined ? {} : { safety }),
  };
}

/** A submit to an image model of account `who` (the key and throttle were checked). */
export async function falInputSubmit(
  kit: DialectKit,
  who: string,
  request: { model: string; caps: ModelCapabilities; body: Record<string, unknown> },
): Promise<Reply | StoredTask> {
  const { body, caps, model } = request;
  const ask = askOf(body, caps);
  if (isInputProblem(ask)) return refusal(ask);
  const count = body.num_images ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_IMAGES) {
    return refusal(invalid('num_images', `Input should be a whole number from 1 to ${MAX_IMAGES}`));
  }
  const prompt = typeof body.prompt === 'string' && body.prompt.trim() !== '' ? body.prompt : model;
  const task = await inputTask(kit, who, {
    ask,
    rules: linkRules('data-uri', who, model),
    prompt,
    input: body,
    imageCount: count,
  });
  if (task === 'no-credits') {
    return jsonReply(402, {
      detail: 'Exhausted balance. Top up your balance at the billing page.',
    });
  }
  return isInputProblem(task) ? refusal(task) : task;
}

/** The response of a task whose input the moderation flagged. */
export function falInputModerated(message: string): Reply {
  return jsonReply(422, {
    detail: [{ loc: ['body', 'image_url'], msg: message, type: 'content_policy_violation' }],
  });
}
