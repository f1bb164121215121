/**
 * BFL's image models (docs.bfl.ai: FLUX Kontext, FLUX.2, Fill, Expand), in the table of
 * shared/domain/model-capabilities.ts: `input_image` (Kontext, FLUX.2, with `input_image_2` …
 * `input_image_8` as references on FLUX.2), `image` + `mask` (Fill, white = edit), `image` +
 * `top`/`bottom`/`left`/`right` pixels (Expand); each image bare base64 or a link (only the
 * demo's own links resolve). `safety_tolerance` is at most 2 with an input. Refusals are FastAPI's
 * 422 `{ detail: [{ loc, msg, type }] }`, an image over the model's bytes 413 `{ detail }`
 * (chosen); an input the moderation flags reads `Request Moderated` at the poll.
 */
import type { ModelCapabilities } from '../../../shared/domain/model-capabilities';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import type { InputAsk } from '../input-checks';
import type { InputProblem } from '../input-problem';
import { isInputProblem } from '../input-problem';
import type { DialectKit } from './dialect';
import { inputTask, linkRules } from './input-task';

const REFERENCE = /^input_image_(\d+)$/;
const SIDES = ['top', 'bottom', 'left', 'right'] as const;
const MAX_MARGIN = 2048;

function refusal(problem: InputProblem): Reply {
  if (problem.problem === 'too-large') return jsonReply(413, { detail: problem.message });
  const type = problem.problem === 'unfetchable' ? 'value_error.url' : 'value_error';
  return jsonReply(422, { detail: [{ type, loc: ['body', problem.field], msg: problem.message }] });
}

const invalid = (field: string, message: string): InputProblem => ({
  problem: 'invalid',
  field,
  message,
});

function margins(fields: Record<string, unknown>) {
  const out = { top: 0, bottom: 0, left: 0, right: 0 };
  for (const side of SIDES) {
    const value = fields[side] ?? 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MARGIN) {
      return invalid(side, `Input should be a whole number of pixels from 0 to ${MAX_MARGIN}`);
    }
    out[side] = value;
  }
  return out;
}

/** The ask of a request to an image model, or why its fields are refused. */
function askOf(fields: Record<string, unknown>, caps: ModelCapabilities): InputAsk | InputProblem {
  const operation = caps.operations[0] ?? 'edit';
  const takesImage = operation === 'edit' ? 'input_image' : 'image';
  const references = Object.keys(fields)
    .map((name) => [name, Number(REFERENCE.exec(name)?.[1])] as const)
    .filter(([, n]) => n >= 2)
    .sort((a, b) => a[1] - b[1])
    .map(([field]) => ({ field, value: fields[field] }));
  const safety = fields.safety_tolerance;
  if (
    safety !== undefined &&
    (typeof safety !== 'number' || !Number.isInteger(safety) || safety < 0 || safety > 6)
  ) {
    return invalid('safety_tolerance', 'Input should be a whole number from 0 to 6');
  }
  if (operation === 'fill' && fields.mask === undefined) return invalid('mask', 'Field required');
  const expand = operation === 'outpaint' ? margins(fields) : undefined;
  if (expand && isInputProblem(expand)) return expand;
  return {
    operation,
    capabilities: caps,
    source: { field: takesImage, value: fields[takesImage] },
    references,
    ...(operation === 'fill' ? { mask: { field: 'mask', value: fields.mask } } : {}),
    ...(expand ? { margins: expand } : {}),
    ...(safety === undefined ? {} : { safety }),
  };
}

/** A submit to an image model of account `who` (key, throttle and prompt were checked). */
export async function bflInputSubmit(
  kit: DialectKit,
  who: string,
  request: {
    model: string;
    caps: ModelCapabilities;
    fields: Record<string, unknown>;
    prompt: string;
  },
): Promise<Reply | { id: string }> {
  const ask = askOf(request.fields, request.caps);
  if (isInputProblem(ask)) return refusal(ask);
  const task = await inputTask(kit, who, {
    ask,
    rules: linkRules('base64', who, request.model),
    prompt: request.prompt,
    input: request.fields,
  });
  if (task === 'no-credits') {
    return jsonReply(402, {
      detail: 'Insufficient credits. Add credits to your account to continue.',
    });
  }
  return isInputProblem(task) ? refusal(task) : { id: task.id };
}
