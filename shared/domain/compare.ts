/**
 * A compare: one prompt (or a few) sent to several targets at once, a target being a service,
 * its model and parameters (electron/core/compare/). Each task of a compare carries which one it
 * belongs to, so the history lists the group again later (`compare_group`) and a sidecar or an
 * archive carries it with the task.
 */
import { z } from 'zod';
import { optionalNameSchema, shownNameSchema } from '../text/shown-name';
import { lazySchema } from './lazy-schema';
import { dateMsSchema } from './limits';
import { providerIdSchema } from './providers';

/** How many targets one compare takes (the same target twice counts twice). */
export const COMPARE_TARGETS = { min: 2, max: 6 } as const;
/** How many prompts one compare takes (one, or an expansion of a few). */
export const COMPARE_PROMPTS = { min: 1, max: 10 } as const;
/** The longest label a target keeps ("fal.ai · fal-ai/flux-pro #2"). */
export const MAX_COMPARE_LABEL_CHARS = 120;

/**
 * How the window names a model on a service: the service first, as a task row's parameters and
 * the compose form (service, then model) put them — "fal.ai · fal-ai/flux/dev", or the service
 * alone when no model is named. A compare's and an edit's target labels (main) and the edit
 * panel's targets (the page, with the service's name in the window's language) are this one.
 */
export function targetLabel(service: string, model: string | undefined): string {
  return model ? `${service} · ${model}` : service;
}

/**
 * A compare group's id: a UUID, as `randomUUID` makes it. This module's schemas are built on
 * first use (lazy-schema.ts).
 */
export const compareGroupSchema = lazySchema(() => z.uuid());

/** The longest model name a compare's target keeps (a compare's input takes no longer). */
const MAX_COMPARE_MODEL_CHARS = 200;

/**
 * The compare a task belongs to: its group, its target's place (1 to 6), and what its target is,
 * as facts the window names in the shown language at display time (renderer/lib/service-label.ts
 * compareTargetName, as the target's Service box named it): its service, whether the built-in
 * demo stood in for it, its model, and which of a target chosen twice it is (#1, #2). `label` is
 * the same in English words ("Image task service (demo) · m1 #2"), written too: for the command
 * line, and for a version before the facts, which reads the label and drops the rest. A compare
 * written before the facts has the label only.
 *
 * Read back from files anyone may write: the label and model are cleaned of control, format and
 * bidi characters (shared/text/shown-name.ts), a label longer than the bound is refused. A fact
 * that does not fit is dropped (the label names the target then), and a field it does not know
 * (a later version's) is dropped, as the record's own are, never the whole compare.
 */
export const compareFieldSchema = lazySchema(() =>
  z.object({
    group: compareGroupSchema(),
    slot: z.number().int().min(1).max(COMPARE_TARGETS.max),
    label: shownNameSchema(MAX_COMPARE_LABEL_CHARS),
    service: providerIdSchema().optional().catch(undefined),
    demo: z.literal(true).optional().catch(undefined),
    model: optionalNameSchema(MAX_COMPARE_MODEL_CHARS).optional().catch(undefined),
    nth: z.number().int().min(1).max(COMPARE_TARGETS.max).optional().catch(undefined),
  }),
);
export type CompareField = z.infer<ReturnType<typeof compareFieldSchema>>;

/**
 * What a fan-out's target is, as its tasks keep it (the compare field's label and facts, read as
 * the record reads them): what a plan says of each target too (shared/ipc/fan-out-contract.ts), so
 * the dialog names a target left out or adapted as the cells of its tasks are named.
 */
export const targetNameSchema = lazySchema(() =>
  compareFieldSchema().pick({ label: true, service: true, demo: true, model: true, nth: true }),
);
export type TargetName = z.infer<ReturnType<typeof targetNameSchema>>;

/** Most compare groups one listing names (the gallery's Compare group filter). */
export const MAX_COMPARE_GROUPS_LISTED = 200;
/** How much of a group's prompt its listing keeps (enough to tell compares apart). */
export const MAX_GROUP_PROMPT_CHARS = 200;

/**
 * A compare group as the history lists it: its first prompt (cleaned as a name is, cut), when its
 * first task was made, how many targets (slots) and tasks it has. Read from rows anyone with the
 * file may have written: a row that does not fit is left out of the listing.
 */
export const compareGroupSummarySchema = lazySchema(() =>
  z.object({
    group: compareGroupSchema(),
    prompt: z.string().max(MAX_GROUP_PROMPT_CHARS),
    createdAt: dateMsSchema(),
    targets: z.number().int().min(0).max(COMPARE_TARGETS.max),
    tasks: z.number().int().min(1),
  }),
);
export type CompareGroupSummary = z.infer<ReturnType<typeof compareGroupSummarySchema>>;
