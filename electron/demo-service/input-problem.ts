/**
 * Why the demo refuses an image input, in words every dialect turns into its own error shape and
 * status (dialects/*-inputs.ts).
 */

/**
 * - `invalid`: a field of the wrong type or form; `unfetchable`: a link the demo will not fetch;
 * - `format`: not a PNG, JPEG or WebP by its bytes (or a damaged one);
 * - `too-large`: more bytes than the model takes; `too-wide`: a side longer than it takes;
 * - `mask-size`: a mask not the source's size; `mask-kind`: a mask of the wrong convention;
 * - `references`: more references than the model takes; `safety`: a safety tolerance above what
 *   the model allows with an input; `output-too-large`: an answer larger than the demo draws.
 */
export type InputProblemKind =
  | 'invalid'
  | 'unfetchable'
  | 'format'
  | 'too-large'
  | 'too-wide'
  | 'mask-size'
  | 'mask-kind'
  | 'references'
  | 'safety'
  | 'output-too-large';

/** A refused image input: its kind, the request field it is about, and a sentence. */
export interface InputProblem {
  readonly problem: InputProblemKind;
  readonly field: string;
  readonly message: string;
}

export function inputProblem(
  problem: InputProblemKind,
  field: string,
  message: string,
): InputProblem {
  return { problem, field, message };
}

/** Tells a refusal from the value a step produces instead. */
export function isInputProblem(value: unknown): value is InputProblem {
  return typeof value === 'object' && value !== null && 'problem' in value && 'field' in value;
}
