/**
 * What the fan-out requests (compare, edit: one request sent to several targets at once) have in
 * common: the plan's group, its targets kept (a slot, its name, what was adapted, and what the use
 * adds of each), those left out and why, the soft caps passed and the refusal; and the run's
 * answer, the group's tasks as stored. A target's name is what its tasks keep of it (the label in
 * English words and the facts the window words it by, read as a record's are:
 * shared/domain/compare.ts targetNameSchema), so a plan's line names it as its cells do.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { COMPARE_TARGETS, compareGroupSchema, targetNameSchema } from '../domain/compare';
import { sentenceSchema } from '../i18n/sentence';
import { taskItemSchema } from './task-item';

const slotSchema = () => z.number().int().min(1).max(COMPARE_TARGETS.max);

const leftOutSchema = lazySchema(() =>
  z
    .array(targetNameSchema().extend({ slot: slotSchema(), reason: sentenceSchema() }))
    .max(COMPARE_TARGETS.max),
);

/** A fan-out's plan as the page shows it, each kept target with the use's own `fields`. */
export function fanOutPlanSchema<Fields extends z.ZodRawShape>(fields: Fields) {
  return z.object({
    group: compareGroupSchema(),
    targets: z
      .array(
        targetNameSchema().extend({
          slot: slotSchema(),
          /** What was adapted to what the service takes, in sentences. */
          notes: z.array(sentenceSchema()).max(20),
          ...fields,
        }),
      )
      .max(COMPARE_TARGETS.max),
    leftOut: leftOutSchema(),
    /** Soft caps passed. */
    warnings: z.array(sentenceSchema()).max(20),
    /** Why nothing may be sent (a hard cap, no target left): the run is then refused with it. */
    refusal: sentenceSchema().optional(),
  });
}

/** What a run answers: the group, its tasks as stored (priced), the targets left out. */
export const fanOutRunSchema = lazySchema(() =>
  z.object({
    group: compareGroupSchema(),
    items: z.array(taskItemSchema()).max(1_000),
    leftOut: leftOutSchema(),
  }),
);
