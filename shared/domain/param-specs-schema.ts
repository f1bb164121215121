/**
 * A model's options as data crosses a trust edge (the book of model options' file, the window's
 * `models:` channels): every option one of the kinds Pictor renders, bounded, named as an option,
 * its choices and text default shown as they are sent (model-params.ts's shownOptionText).
 */
import { z } from 'zod';
import {
  COMMON_PARAMS,
  MAX_PARAMS,
  MAX_PARAM_TEXT,
  choicesApart,
  shownOptionText,
} from './model-params';
import { isParamName } from './param-names';
import { lazySchema } from './lazy-schema';

/** One option of one of the kinds Pictor renders. */
function specSchema() {
  const number = z.number().finite();
  /** A choice's or default's text as the form lists it and a command line types it. */
  const shown = (max: number) => z.string().max(max).refine(shownOptionText);
  const base = {
    title: z.string().max(200).optional(),
    common: z.enum(COMMON_PARAMS).optional(),
  };
  return z.discriminatedUnion('type', [
    z.object({
      ...base,
      type: z.literal('enum'),
      values: z
        .array(z.union([shown(64), number]))
        .min(1)
        .max(64)
        .refine(choicesApart)
        .readonly(),
      default: z.union([shown(64), number]).optional(),
    }),
    z.object({
      ...base,
      type: z.enum(['integer', 'number']),
      min: number,
      max: number,
      step: number.positive().optional(),
      default: number.optional(),
    }),
    z.object({ ...base, type: z.literal('boolean'), default: z.boolean().optional() }),
    z.object({
      ...base,
      type: z.literal('string'),
      maxLength: z.number().int().min(0).max(MAX_PARAM_TEXT),
      default: shown(MAX_PARAM_TEXT).optional(),
    }),
  ]);
}

/**
 * A model's options by name. Built on first use (lazy-schema.ts): loading the module (main's IPC
 * contract does, at its start) builds none.
 */
export const paramSpecsSchema = lazySchema(() =>
  z
    .record(z.string().refine(isParamName), specSchema())
    .refine((params) => Object.keys(params).length <= MAX_PARAMS),
);
