/**
 * The template a task was made from, as its record keeps it (TaskRecord.template): which template
 * and which version of it, the values its form was filled in with, and how it was expanded. The
 * prompt the template resolved to is the task's own request prompt. Read back from the history,
 * gallery sidecars, XMP packets and archives anyone could have written, so every part is bounded:
 * at most {@link MAX_TEMPLATE_RUN_VALUES} values, each name a template variable's name and each
 * value at most {@link MAX_TEMPLATE_VALUE_CHARS} characters.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { promptTemplateSchema } from './prompt-template';
import { ownKeysSchema } from './plain-object';
import { isVariableName } from './template-language';

/** Values one run of a template may carry (a template uses far fewer variables). */
export const MAX_TEMPLATE_RUN_VALUES = 64;
/** One variable's value, in UTF-16 units. */
export const MAX_TEMPLATE_VALUE_CHARS = 2_000;

/**
 * Values by variable name: a plain object whose own keys are variable names (a `__proto__` key,
 * an own key of parsed JSON, fails rather than vanishing), checked before it is copied.
 */
const templateValuesSchema = () =>
  ownKeysSchema((key) => isVariableName(key) && key !== '__proto__', {
    maxKeys: MAX_TEMPLATE_RUN_VALUES,
    message: `at most ${MAX_TEMPLATE_RUN_VALUES} values, each under a variable's name`,
  }).pipe(z.record(z.string(), z.string().max(MAX_TEMPLATE_VALUE_CHARS)));

/** Built on first use (lazy-schema.ts), as the template's own schema it takes its fields from. */
export const taskTemplateSchema = lazySchema(() => {
  const { shape } = promptTemplateSchema();
  return z.object({
    id: shape.id,
    name: shape.name,
    version: shape.version,
    values: templateValuesSchema(),
    mode: z.enum(['combinatorial', 'random']),
    /** Random mode's seed (a 32-bit unsigned integer), so the same draw can be made again. */
    seed: z.number().int().min(0).max(0xffff_ffff).optional(),
  });
});

export type TaskTemplate = z.infer<ReturnType<typeof taskTemplateSchema>>;
