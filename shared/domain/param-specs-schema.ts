/**
 * A model's options as data crosses a trust edge (the book of model options' file, the window's
 * `models:` channels): every option one of the kinds Pictor renders, named as an option, and held
 * to the rule every reader of options keeps (param-spec-rule.ts's soundSpec: bounded, its choices
 * and text default shown as they are sent, a range that holds a value, a default it takes), the
 * rule the schema a service publishes is read by.
 */
import { z } from 'zod';
import { COMMON_PARAMS, MAX_PARAMS, type ParamSpec } from './model-params';
import { soundSpec } from './param-spec-rule';
import { isParamName } from './param-names';
import { lazySchema } from './lazy-schema';

/** One option of one of the kinds Pictor renders, its shape; {@link soundSpec} its rule. */
function specSchema() {
  const number = z.number().finite();
  const base = {
    title: z.string().optional(),
    common: z.enum(COMMON_PARAMS).optional(),
  };
  return z
    .discriminatedUnion('type', [
      z.object({
        ...base,
        type: z.literal('enum'),
        values: z.array(z.union([z.string(), number])).readonly(),
        default: z.union([z.string(), number]).optional(),
      }),
      z.object({
        ...base,
        type: z.enum(['integer', 'number']),
        min: number,
        max: number,
        step: number.optional(),
        default: number.optional(),
      }),
      z.object({ ...base, type: z.literal('boolean'), default: z.boolean().optional() }),
      z.object({
        ...base,
        type: z.literal('string'),
        maxLength: number,
        default: z.string().optional(),
      }),
    ])
    .refine((spec) => soundSpec(spec as ParamSpec));
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
