/**
 * Replicate's image models (their model pages' input schemas), in the table of
 * shared/domain/model-capabilities.ts: black-forest-labs/flux-kontext-pro `{ input_image,
 * safety_tolerance (at most 2 with an input) }`, black-forest-labs/flux-fill-pro `{ image, mask
 * (white = edit), outpaint? }`, and the community nightmareai/real-esrgan through `POST
 * /v1/predictions` `{ version, input: { image, scale: 2 | 4 } }` (a version Replicate lists for
 * that model, bare or as `nightmareai/real-esrgan:<version>`; any other is refused as Replicate
 * refuses a version it does not have). Each image a `data:` URI or a link
 * (the demo resolves only its own: a file's `urls.get` of the same account within 24 hours, a
 * result image). These models' `output` is one URL string, as on Replicate. Outpaint margins:
 * "Zoom out 1.5x"/"2x" grow each side by the factor (split evenly), "Make square" pads the short
 * side to the long one, "Left/Right/Top/Bottom outpaint" add half the source's side on that edge.
 * Refusals are 422 input validation (`invalid_fields`), an image over the model's bytes 413.
 */
import type { ModelCapabilities } from '../../../shared/domain/model-capabilities';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import type { InputAsk } from '../input-checks';
import type { Margins } from '../input-pixels';
import type { InputProblem } from '../input-problem';
import { isInputProblem } from '../input-problem';
import type { StoredTask } from '../task-store';
import type { DialectKit } from './dialect';
import { inputTask, linkRules } from './input-task';

/** The community upscaler `POST /v1/predictions` runs (by version). */
export const ESRGAN = 'nightmareai/real-esrgan';
/** The upscaler's version the demo runs: its latest on Replicate's model page (the one Pictor sends). */
export const ESRGAN_VERSION = '42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b';

type MarginsOf = (width: number, height: number) => Margins;

function split(total: number): [number, number] {
  const first = Math.floor(total / 2);
  return [first, total - first];
}

const zoom =
  (factor: number): MarginsOf =>
  (w, h) => {
    const [left, right] = split(Math.round(w * factor) - w);
    const [top, bottom] = split(Math.round(h * factor) - h);
    return { top, right, bottom, left };
  };

const NONE = { top: 0, right: 0, bottom: 0, left: 0 };
const OUTPAINTS: Readonly<Record<string, MarginsOf>> = {
  'Zoom out 1.5x': zoom(1.5),
  'Zoom out 2x': zoom(2),
  'Make square': (w, h) => {
    const [left, right] = split(Math.max(w, h) - w);
    const [top, bottom] = split(Math.max(w, h) - h);
    return { top, right, bottom, left };
  },
  'Left outpaint': (w) => ({ ...NONE, left: Math.ceil(w / 2) }),
  'Right outpaint': (w) => ({ ...NONE, right: Math.ceil(w / 2) }),
  'Top outpaint': (_w, h) => ({ ...NONE, top: Math.ceil(h / 2) }),
  'Bottom outpaint': (_w, h) => ({ ...NONE, bottom: Math.ceil(h / 2) }),
};

function refusal(problem: InputProblem): Reply {
  const field = `input.${problem.field}`;
  const status = problem.problem === 'too-large' ? 413 : 422;
  return jsonReply(status, {
    title: status === 413 ? 'Request Entity Too Large' : 'Input validation failed',
    detail: `- ${field}: ${problem.message}\n`,
    invalid_fields: [{ type: 'invalid', field, description: problem.message }],
    status,
  });
}

const invalid = (field: string, message: string): InputProblem => ({
  problem: 'invalid',
  field,
  message,
});

function fillAsk(input: Record<string, unknown>, caps: ModelCapabilities): InputAsk | InputProblem {
  const outpaint = input.outpaint ?? 'None';
  const margins = typeof outpaint === 'string' ? OUTPAINTS[outpaint] : undefined;
  if (outpaint !== 'None' && !margins)
    return invalid('outpaint', 'outpaint is not one of the allowed values');
  if (!margins && input.mask === undefined) return invalid('mask', 'mask is required');
  const mask = input.mask === undefined ? {} : { mask: { field: 'mask', value: input.mask } };
  return {
    operation: margins ? 'outpaint' : 'fill',
    capabilities: caps,
    source: { field: 'image', value: input.image },
    references: [],
    ...mask,
    ...(margins ? { margins } : {}),
  };
}

function askOf(
  model: string,
  input: Record<string, unknown>,
  caps: ModelCapabilities,
): InputAsk | InputProblem {
  if (model === ESRGAN) {
    const scale = input.scale ?? 4;
    if (!caps.upscale.includes(scale as 2 | 4)) return invalid('scale', 'scale must be 2 or 4');
    const source = { field: 'image', value: input.image };
    return {
      operation: 'upscale',
      capabilities: caps,
      source,
      references: [],
      factor: scale as number,
    };
  }
  if (caps.operations.includes('fill')) return fillAsk(input, caps);
  const safety = input.safety_tolerance;
  if (safety !== undefined && (typeof safety !== 'number' || !Number.isInteger(safety))) {
    return invalid('safety_tolerance', 'safety_tolerance must be an integer');
  }
  return {
    operation: 'edit',
    capabilities: caps,
    source: { field: 'input_image', value: input.input_image },
    references: [],
    ...(safety === undefined ? {} : { safety: safety as number }),
  };
}

/** Whether a `version` names the community upscaler here. */
export function isEsrganVersion(version: unknown): boolean {
  return version === ESRGAN_VERSION || version === `${ESRGAN}:${ESRGAN_VERSION}`;
}

/** A prediction of an image model for account `who` (the key and throttle were checked). */
export async function replicateInputCreate(
  kit: DialectKit,
  who: string,
  request: { model: string; caps: ModelCapabilities; input: Record<string, unknown>; id: string },
): Promise<Reply | StoredTask> {
  const { model, caps, input } = request;
  const ask = askOf(model, input, caps);
  if (isInputProblem(ask)) return refusal(ask);
  const prompt =
    typeof input.prompt === 'string' && input.prompt.trim() !== '' ? input.prompt : model;
  const task = await inputTask(kit, who, {
    ask,
    rules: linkRules('data-uri', who, model),
    prompt,
    input,
    id: request.id,
  });
  if (task === 'no-credits') {
    return jsonReply(402, {
      title: 'Insufficient credit',
      detail: 'You have insufficient credit to run this model. Go to the billing page to buy more.',
      status: 402,
    });
  }
  return isInputProblem(task) ? refusal(task) : task;
}
