/**
 * The compare requests (electron/core/compare/): a prompt (or a few) on 2 to 6 targets the page
 * chooses, a target being a service, its model and parameters. The page never names an address
 * or a key: main takes each service's address from its own settings and the key from its vault,
 * so a target carrying a base URL is refused as bad input. Main plans again before it runs.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import {
  COMPARE_PROMPTS,
  COMPARE_TARGETS,
  MAX_COMPARE_GROUPS_LISTED,
  compareGroupSchema,
  compareGroupSummarySchema,
} from '../domain/compare';
import { paramValuesSchema } from '../domain/model-params';
import { providerIdSchema } from '../domain/providers';
import { seedSchema } from '../service/service-seed';
import { costUnitSchema } from '../domain/task-cost';
import { REQUEST_LIMITS } from '../domain/limits';
import { count } from './selection-schemas';
import { cancelOutcomeSchema } from './task-cancel-contract';
import { fanOutPlanSchema, fanOutRunSchema } from './fan-out-contract';
import { taskItemSchema } from './task-item';

const word = (max: number) => z.string().trim().min(1).max(max);

/** A target as the page chooses it: no address, no key (those are main's). */
const compareTargetSchema = lazySchema(() =>
  z
    .object({
      provider: providerIdSchema(),
      model: word(200).optional(),
      size: word(40).optional(),
      quality: word(40).optional(),
      count: z.number().int().min(1).max(10).optional(),
    })
    .strict(),
);

/** The form's model options and seed, with the service and model they were typed for. */
const compareOptionsSchema = lazySchema(() =>
  z
    .object({
      provider: providerIdSchema(),
      model: word(200).optional(),
      params: paramValuesSchema().optional(),
      seed: seedSchema().optional(),
    })
    .strict(),
);

const compareInputSchema = lazySchema(() =>
  z
    .object({
      prompts: z
        .array(word(REQUEST_LIMITS.prompt))
        .min(COMPARE_PROMPTS.min)
        .max(COMPARE_PROMPTS.max),
      targets: z.array(compareTargetSchema()).min(COMPARE_TARGETS.min).max(COMPARE_TARGETS.max),
      /** Each target takes of them what its model's schema has, and the plan says what it does not. */
      options: compareOptionsSchema().optional(),
    })
    .strict(),
);
export type CompareInputPayload = z.infer<ReturnType<typeof compareInputSchema>>;

/** Amounts by unit (whole millionths), and how many tasks have no price. */
const costSumSchema = lazySchema(() =>
  z.object({
    micros: z.partialRecord(costUnitSchema(), count()),
    unpriced: count(),
  }),
);
export type CostSumOutput = z.infer<ReturnType<typeof costSumSchema>>;

/**
 * The plan as the dialog shows it: what is sent, what is left out and why, the estimate. What it
 * says is catalogue sentences (shared/i18n/errors/compare.ts, the caps' own), shown in the
 * window's language.
 */
const comparePlanSchema = lazySchema(() =>
  fanOutPlanSchema({
    /** Tasks this target makes (prompts × count). */
    tasks: count(),
    estimate: costSumSchema(),
  }).extend({ total: costSumSchema() }),
);
export type ComparePlanOutput = z.infer<ReturnType<typeof comparePlanSchema>>;

const groupInput = lazySchema(() => z.object({ group: compareGroupSchema() }).strict());

export const compareRequests = {
  /** The plan of a compare: nothing stored, nothing sent. */
  'compare:plan': channel(() => ({ input: compareInputSchema(), output: comparePlanSchema() })),
  /**
   * Plans again and sends: every task stored first (one group), then each sent on its own. Over
   * a hard cap, or with no target usable, it is refused with the plan's sentence.
   */
  'compare:run': channel(() => ({ input: compareInputSchema(), output: fanOutRunSchema() })),
  /** The tasks of a compare group, by slot (the compare view, opened again later). */
  'compare:show': channel(() => ({
    input: groupInput(),
    output: z.object({ items: z.array(taskItemSchema()).max(1_000) }),
  })),
  /**
   * The newest compare groups, newest first (the gallery's Compare group filter): `limit` of
   * them, at most {@link MAX_COMPARE_GROUPS_LISTED}.
   */
  'compare:groups': channel(() => ({
    input: z
      .object({ limit: z.number().int().min(1).max(MAX_COMPARE_GROUPS_LISTED).optional() })
      .strict(),
    output: z.object({
      groups: z.array(compareGroupSummarySchema()).max(MAX_COMPARE_GROUPS_LISTED),
    }),
  })),
  /** "Cancel all": each unfinished task of the group, where its service can cancel. */
  'compare:cancel': channel(() => ({
    input: groupInput(),
    output: z.object({ outcomes: z.array(cancelOutcomeSchema()).max(1_000) }),
  })),
} as const;
