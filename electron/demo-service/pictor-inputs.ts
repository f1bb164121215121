/**
 * Today's contract with the demo's own edit model (`demo-edit`, shared/domain/model-capabilities.ts):
 * `POST /v1/images/generations` `{ model: 'demo-edit', prompt, operation: 'edit' | 'fill' |
 * 'upscale', image: <data: URI or the demo's link>, mask?: <RGBA PNG, alpha 0 = edit>,
 * reference_images?: [...], factor?: 2 | 4 }`. The task answers and polls as any other; refusals
 * are the contract's 400 `{ error: { code, message, param } }`; an input the moderation flags
 * fails the task with `content_moderated`, its message naming the input image.
 */
import { MODEL_CAPABILITIES } from '../../shared/domain/model-capabilities';
import type { ImageOperation } from '../../shared/domain/image-inputs';
import type { Reply } from './http-reply';
import { busy, errorReply, jsonReply, noCredits } from './http-reply';
import { inputFlagged, planInputs, type ImageField } from './input-checks';
import type { InputProblem, InputProblemKind } from './input-problem';
import { isInputProblem } from './input-problem';
import { validateGenerationRequest } from './request-validation';
import type { ServiceContext } from './service-context';
import type { StoredTask } from './task-store';

/** The model of today's contract that takes images. */
const DEMO_EDIT_MODEL = 'demo-edit';

const CODES: Readonly<Record<InputProblemKind, string>> = {
  invalid: 'invalid_request',
  unfetchable: 'image_not_fetched',
  format: 'unsupported_image',
  'too-large': 'image_too_large',
  'too-wide': 'image_too_large',
  'mask-size': 'invalid_mask',
  'mask-kind': 'invalid_mask',
  references: 'too_many_references',
  safety: 'invalid_request',
  'output-too-large': 'invalid_request',
};

const INPUT_MODERATED = {
  code: 'content_moderated',
  message: 'The input image was flagged by the content moderation.',
};

function refuse(problem: InputProblem): Reply {
  return errorReply(400, CODES[problem.problem], problem.message, { param: problem.field });
}

const invalid = (field: string, message: string): Reply =>
  refuse({ problem: 'invalid', field, message });

/** Whether a request body names the edit model (read before the usual body limit applies). */
export function namesEditModel(bytes: Buffer): boolean {
  try {
    const body = JSON.parse(bytes.toString('utf8')) as { model?: unknown } | null;
    return body?.model === DEMO_EDIT_MODEL;
  } catch {
    return false;
  }
}

function askOf(fields: Record<string, unknown>) {
  const caps = MODEL_CAPABILITIES.pictor[DEMO_EDIT_MODEL];
  if (!caps) return invalid('model', 'The demo-edit model is not in the capability table.');
  const operation = fields.operation as ImageOperation;
  if (typeof operation !== 'string' || !caps.operations.includes(operation)) {
    return invalid('operation', `The operation must be one of: ${caps.operations.join(', ')}.`);
  }
  const refs = fields.reference_images ?? [];
  if (!Array.isArray(refs))
    return invalid('reference_images', 'The reference_images must be a list.');
  if (operation === 'fill' && fields.mask === undefined)
    return invalid('mask', 'A fill needs a mask.');
  const factor = fields.factor ?? 2;
  if (operation === 'upscale' && !caps.upscale.includes(factor as 2 | 4)) {
    return invalid('factor', 'The factor must be 2 or 4.');
  }
  const mask: ImageField | undefined =
    operation === 'fill' ? { field: 'mask', value: fields.mask } : undefined;
  return {
    operation,
    capabilities: caps,
    source: { field: 'image', value: fields.image },
    references: refs.map((value, index) => ({ field: `reference_images[${index}]`, value })),
    ...(mask ? { mask } : {}),
    ...(operation === 'upscale' ? { factor: factor as number } : {}),
  };
}

/** A task of the edit model for `account` (the key and body size were checked), or the refusal. */
export async function createEdit(
  ctx: ServiceContext,
  account: string,
  fields: Record<string, unknown>,
): Promise<StoredTask | Reply> {
  const ask = askOf(fields);
  if ('status' in ask) return ask;
  const prompt = typeof fields.prompt === 'string' ? fields.prompt : '';
  const plan = await planInputs(ctx, ask, {
    bareBase64: false,
    dataUri: true,
    ossResolve: false,
    account,
    model: DEMO_EDIT_MODEL,
  });
  if (isInputProblem(plan)) return refuse(plan);
  const size = `${plan.width}x${plan.height}`;
  const checked = validateGenerationRequest(
    { prompt, model: DEMO_EDIT_MODEL, size },
    Number.MAX_SAFE_INTEGER,
  );
  if (!checked.ok) return jsonReply(400, { error: checked.problem });
  if (ctx.store.full()) return busy();
  if (!ctx.store.charge(account)) return noCredits();
  const fate = inputFlagged(prompt) ? { fateError: INPUT_MODERATED } : {};
  const task = ctx.store.create(account, checked.request, fate);
  if (plan.png) ctx.store.setOutput(task.id, plan.png);
  return task;
}
