/**
 * What the demo service accepts in a generation request. The spec leaves required fields and
 * allowed values "not shown"; the demo decides, and answers a realistic 400 otherwise.
 */
import { REQUEST_LIMITS } from '../../shared/domain/limits';
import { CONTROL_CHARACTERS, anyOf } from '../../shared/text/control-characters';

/** A generation request the service accepted, with its defaults filled in. */
export interface AcceptedRequest {
  prompt: string;
  model: string;
  size: string;
  quality: string;
  width: number;
  height: number;
}

/** Why a request was refused: the error object of a 400. */
export interface RequestProblem {
  code: string;
  message: string;
  param?: string;
}

export type ValidationResult =
  { ok: true; request: AcceptedRequest } | { ok: false; problem: RequestProblem };

/**
 * The model the demo reports when none was asked for. Not a word of the demo's own key (`demo`):
 * the app treats any answer text carrying the key as an echo of it and drops it
 * (core/secrets/key-echo.ts), so a model named after the key would never be reported.
 */
export const DEFAULT_MODEL = 'sketch-image-1';
const DEFAULT_SIZE = '1024x1024';
const DEFAULT_QUALITY = 'auto';
const ACCEPTED_QUALITIES = ['low', 'medium', 'high', 'auto', 'standard', 'hd'] as const;
const SIZE_FORMAT = /^(\d{1,6})x(\d{1,6})$/;
const CONTROLS = anyOf([CONTROL_CHARACTERS], 'g');

function refuse(code: string, message: string, param?: string): ValidationResult {
  return { ok: false, problem: param ? { code, message, param } : { code, message } };
}

/** Echoed user text in messages stays short and printable. */
function quote(text: string): string {
  const flat = text.replace(CONTROLS, ' ');
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

function checkSize(
  size: unknown,
  maxSide: number,
): { ok: true; width: number; height: number } | ValidationResult {
  if (typeof size !== 'string') {
    return refuse('invalid_size', 'The size must be a string such as "1024x1024".', 'size');
  }
  const match = SIZE_FORMAT.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 1 || height < 1) {
    return refuse(
      'invalid_size',
      `The size "${quote(size)}" is not valid: give width and height in pixels, such as "1024x1024".`,
      'size',
    );
  }
  if (width > maxSide || height > maxSide) {
    return refuse(
      'invalid_size',
      `The size "${size}" is too large: this service generates images of at most ${maxSide} pixels per side.`,
      'size',
    );
  }
  return { ok: true, width, height };
}

function checkOptionalText(value: unknown, field: 'model' | 'quality'): ValidationResult | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.trim() === '') {
    return refuse(
      `invalid_${field}`,
      `The ${field} must be a non-empty string when it is given.`,
      field,
    );
  }
  return null;
}

function checkPrompt(prompt: unknown): ValidationResult | null {
  if (prompt === undefined || prompt === null) {
    return refuse(
      'missing_prompt',
      'The request has no prompt. Describe the image you want in the "prompt" field.',
      'prompt',
    );
  }
  if (typeof prompt !== 'string')
    return refuse('invalid_prompt', 'The prompt must be a string.', 'prompt');
  if (prompt.trim() === '') {
    return refuse(
      'missing_prompt',
      'The prompt is empty. Describe the image you want in the "prompt" field.',
      'prompt',
    );
  }
  if (prompt.length > REQUEST_LIMITS.prompt) {
    return refuse(
      'invalid_prompt',
      `The prompt is too long: at most ${REQUEST_LIMITS.prompt} characters are accepted.`,
      'prompt',
    );
  }
  return null;
}

/** Checks the fields of a parsed request body (extra fields are ignored, as real services do). */
export function validateGenerationRequest(body: unknown, maxSide: number): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse(
      'invalid_request',
      'The request body must be a JSON object with at least a "prompt" field.',
    );
  }
  const fields = body as Record<string, unknown>;
  const problem =
    checkPrompt(fields.prompt) ??
    checkOptionalText(fields.model, 'model') ??
    checkOptionalText(fields.quality, 'quality');
  if (problem) return problem;
  const quality = (fields.quality as string | undefined) ?? DEFAULT_QUALITY;
  if (!(ACCEPTED_QUALITIES as readonly string[]).includes(quality)) {
    return refuse(
      'invalid_quality',
      `The quality "${quote(quality)}" is not supported. Use one of: ${ACCEPTED_QUALITIES.join(', ')}.`,
      'quality',
    );
  }
  const size = fields.size === undefined ? DEFAULT_SIZE : fields.size;
  const dimensions = checkSize(size, maxSide);
  if (!('width' in dimensions)) return dimensions;
  const prompt = fields.prompt as string;
  const model = (fields.model as string | undefined) ?? DEFAULT_MODEL;
  return {
    ok: true,
    request: {
      prompt,
      model,
      size: size as string,
      quality,
      width: dimensions.width,
      height: dimensions.height,
    },
  };
}

/** Parses a submit body: JSON first, then the fields. */
export function parseGenerationBody(bytes: Buffer, maxSide: number): ValidationResult {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return refuse(
      'invalid_json',
      'The request body is not valid JSON. Send a JSON object such as {"prompt": "a red fox"}.',
    );
  }
  return validateGenerationRequest(body, maxSide);
}
