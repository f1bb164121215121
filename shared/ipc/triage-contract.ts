/**
 * The triage requests: a rating, a flag, a tag or a board applied to a selection of images as one
 * step (and its Undo and Redo), the boards and tags the library holds, and the rejects a purge
 * would move to the trash. Main checks every word (core/triage); the page only names images.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { MAX_RATING } from '../domain/triage';
import { ruleReportSchema, smartRulesInputSchema, smartRulesSchema } from '../domain/smart-board';
import { sentenceSchema } from '../i18n/sentence';
import { MAX_SELECT_ALL, count, galleryFilter, imageRef } from './selection-schemas';
import { localIdSchema } from './task-item';

/** A tag or a board's path as the page sends it (main checks and normalises it). */
const name = lazySchema(() => z.string().min(1).max(1_000));

/** What a change does to each image (core/triage/triage-actions.ts's TriageChange). */
const triageChangeSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('rating'), rating: z.number().int().min(0).max(MAX_RATING) })
      .strict(),
    z.object({ kind: z.literal('flag'), flag: z.enum(['pick', 'reject', 'none']) }).strict(),
    z.object({ kind: z.literal('tag'), tag: name(), add: z.boolean() }).strict(),
    z
      .object({
        kind: z.literal('board'),
        path: name(),
        add: z.boolean(),
        /** With `add`: the board the images leave in the same step (a move). */
        from: name().optional(),
      })
      .strict(),
  ]),
);
export type TriageChangeInput = z.infer<ReturnType<typeof triageChangeSchema>>;

/** Most changes one `triage:applyEach` step carries. */
const MAX_STEP_PARTS = 10;

/**
 * Most tasks a change may write for its answer to wait for their `tasks:updated`: a keypress's
 * rating is on the page when its answer comes; a larger change answers at its commit, with the
 * number `triage:settled` waits on for its tasks.
 */
export const MAX_ANSWERED_TASKS = 500;

/**
 * What a change (or its Undo or Redo) did. What it changed of each task reaches the page once, as
 * `tasks:updated` triage changes (shared/ipc/task-changes.ts); for a change of at most
 * {@link MAX_ANSWERED_TASKS} tasks, before this answer. A larger one answers at its commit and
 * says `settle`: `triage:settled` with it answers once every task it changed was sent, so the
 * page knows until when what it draws is from before the change (renderer/store/pending-triage.ts).
 */
const triageOutcomeSchema = lazySchema(() =>
  z.object({
    changed: count(),
    unchanged: count(),
    missing: count(),
    /** Images that already had as many tags as an image may. */
    refused: count(),
    canUndo: z.boolean(),
    canRedo: z.boolean(),
    /** A change whose tasks follow its answer: its number for `triage:settled`. */
    settle: z.number().int().positive().optional(),
  }),
);
export type TriageOutcomeOutput = z.infer<ReturnType<typeof triageOutcomeSchema>>;

const boardRowSchema = lazySchema(() =>
  z.object({
    key: z.string(),
    path: z.string(),
    parent: z.string().nullable(),
    images: count(),
  }),
);
export type BoardRowOutput = z.infer<ReturnType<typeof boardRowSchema>>;

/** A smart board as the sidebar lists it: its rules, and each rule naming a board or tag gone. */
const smartBoardSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    rules: smartRulesSchema().nullable(),
    /** The rules in order (groups flattened), each with what it names that is gone. */
    reports: z.array(ruleReportSchema()).max(1_000),
    /** Why its stored rules cannot be read: it then matches nothing. */
    problem: sentenceSchema().optional(),
  }),
);
export type SmartBoardOutput = z.infer<ReturnType<typeof smartBoardSchema>>;

const boardMoveSchema = lazySchema(() => z.object({ from: z.string(), to: z.string() }));

/** How many images a step's parts name together, read from their lengths alone; 0 when not a step. */
function stepImages(value: unknown): number {
  if (typeof value !== 'object' || value === null || !('parts' in value)) return 0;
  const { parts } = value;
  if (!Array.isArray(parts) || parts.length > MAX_STEP_PARTS) return 0;
  let sum = 0;
  for (const part of parts as unknown[]) {
    if (typeof part !== 'object' || part === null || !('images' in part)) continue;
    const { images } = part;
    if (Array.isArray(images)) sum += images.length;
  }
  return sum;
}

/** One Undo step of several changes, each to its own images. */
const stepSchema = lazySchema(() =>
  z
    .object({
      parts: z
        .array(
          z
            .object({
              images: z.array(imageRef()).min(1).max(MAX_SELECT_ALL),
              change: triageChangeSchema(),
            })
            .strict(),
        )
        .min(1)
        .max(MAX_STEP_PARTS),
    })
    .strict(),
);

/**
 * A step naming more than MAX_SELECT_ALL images in all is refused from its arrays' lengths,
 * before any image is read: ten parts at their own bound would otherwise be a million refs
 * parsed first.
 */
const stepWithinBound = lazySchema(() =>
  z
    .custom<z.input<ReturnType<typeof stepSchema>>>(
      (value) => stepImages(value) <= MAX_SELECT_ALL,
      {
        message: `At most ${String(MAX_SELECT_ALL)} images in one step.`,
        abort: true,
      },
    )
    .pipe(stepSchema()),
);

export const triageRequests = {
  /**
   * Applies one change to every named image, or to every image of the named tasks (the task
   * list's Reject; a task main does not have counts as missing): one history transaction, one
   * step of Undo.
   */
  'triage:apply': channel(() => ({
    input: z.union([
      z
        .object({
          images: z.array(imageRef()).min(1).max(MAX_SELECT_ALL),
          change: triageChangeSchema(),
        })
        .strict(),
      z
        .object({
          tasks: z.array(localIdSchema()).min(1).max(MAX_SELECT_ALL),
          change: triageChangeSchema(),
        })
        .strict(),
    ]),
    output: triageOutcomeSchema(),
  })),
  /**
   * Applies each part's change to its images as ONE step of Undo ("keep the winner, reject the
   * rest": a pick and a reject); every part's words are checked before anything is written.
   */
  'triage:applyEach': channel(() => ({
    input: stepWithinBound(),
    output: triageOutcomeSchema(),
  })),
  /**
   * Answers once the tasks of the change an answer said `settle` of were all sent to the page
   * (`tasks:updated`, before this answer); at once for a change already settled or unknown.
   */
  'triage:settled': channel(() => ({
    input: z.object({ change: z.number().int().positive() }).strict(),
    output: z.void(),
  })),
  /** Puts back the last triage step; null when there is none. */
  'triage:undo': channel(() => ({
    input: z.undefined(),
    output: triageOutcomeSchema().nullable(),
  })),
  /** Applies again the last step undone; null when there is none. */
  'triage:redo': channel(() => ({
    input: z.undefined(),
    output: triageOutcomeSchema().nullable(),
  })),
  /** The library's boards (parents before children) and tags in use, with their image counts. */
  'triage:library': channel(() => ({
    input: z.undefined(),
    output: z.object({
      boards: z.array(boardRowSchema()),
      tags: z.array(z.object({ key: z.string(), tag: z.string(), images: count() })),
      smart: z.array(smartBoardSchema()),
    }),
  })),
  /** Saves rules (the gallery's filter, "Save as smart board") under a new name. */
  'smart:create': channel(() => ({
    input: z.object({ name: name(), rules: smartRulesInputSchema() }).strict(),
    output: z.object({ name: z.string() }),
  })),
  'smart:rename': channel(() => ({
    input: z.object({ name: name(), newName: name() }).strict(),
    output: z.object({ name: z.string() }),
  })),
  'smart:delete': channel(() => ({ input: z.object({ name: name() }).strict(), output: z.void() })),
  'boards:create': channel(() => ({
    input: z.object({ path: name() }).strict(),
    output: z.object({ path: z.string() }),
  })),
  'boards:rename': channel(() => ({
    input: z.object({ path: name(), name: name() }).strict(),
    output: boardMoveSchema(),
  })),
  /** Moves a board (and what is below it) under `parent` (null: to the top). */
  'boards:move': channel(() => ({
    input: z.object({ path: name(), parent: name().nullable() }).strict(),
    output: boardMoveSchema(),
  })),
  /** Deletes a board and those below it; their images stay in the library. */
  'boards:delete': channel(() => ({
    input: z.object({ path: name() }).strict(),
    output: z.object({ images: count() }),
  })),
  /**
   * The rejected images a purge would move to the trash (in `board` and below it, among the
   * images the gallery's `filter` shows, or all), with their total size: the page asks, then
   * deletes them with Undo as any selection.
   */
  'triage:rejects': channel(() => ({
    input: z
      .object({ board: name().optional(), filter: galleryFilter().optional() })
      .strict()
      .refine((input) => input.board === undefined || input.filter === undefined, {
        message: 'A purge takes a board or a filter, not both.',
      }),
    output: z.object({ images: z.array(imageRef()).max(MAX_SELECT_ALL), bytes: count() }),
  })),
  /**
   * "Write metadata to files": each image's rating and tags into its gallery file; a file with
   * Content Credentials is left byte for byte (its XMP sidecar has them).
   */
  'triage:writeMetadata': channel(() => ({
    input: z.object({ images: z.array(imageRef()).min(1).max(MAX_SELECT_ALL) }).strict(),
    output: z.object({
      written: count(),
      unchanged: count(),
      withCredentials: count(),
      failed: count(),
    }),
  })),
} as const;
