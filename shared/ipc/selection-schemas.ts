/**
 * The schemas a selection is named with over IPC: images and tasks by reference, the gallery's
 * filters a "Select all" or a count uses, and what a batch action answers. Shared by the batch
 * requests (batch-contract.ts) and the rest of the contract.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { sentenceSchema } from '../i18n/sentence';
import { serviceIdSchema } from '../domain/service-id';
import { compareGroupSchema } from '../domain/compare';
import { MAX_IDS_PER_BATCH, MAX_SEARCH_CHARS, dateMsSchema } from '../domain/limits';
import { imageStateSchema } from '../domain/task-record';
import { MAX_RATING } from '../domain/triage';
import { localIdSchema, taskItemSchema } from './task-item';

/** One image: its task's id and its place among the task's images. */
export const imageRef = lazySchema(() =>
  z.object({ localId: localIdSchema(), index: z.number().int().min(0).max(1_000) }).strict(),
);

/** Most images one gallery batch request (delete, undo, export) takes. */
const MAX_IMAGES_PER_BATCH = 500;
export const imageRefs = lazySchema(() =>
  z.object({ images: z.array(imageRef()).min(1).max(MAX_IMAGES_PER_BATCH) }).strict(),
);

/** A batch's outcome: the records it changed, and how many items it could not act on. */
export const batchOutcome = lazySchema(() =>
  z.object({
    items: z.array(taskItemSchema()),
    failed: z.number().int().min(0),
    problem: z.string().optional(),
    /** `problem` as a catalogue sentence, shown in the window's language. */
    problemSentence: sentenceSchema().optional(),
    /**
     * A delete stopped before its end by an Undo of its images: what it had moved is back (`items`
     * as they are after that; `failed` counts what could not come back yet).
     */
    canceled: z.boolean().optional(),
  }),
);

/**
 * Most images or tasks a "Select all" names (`gallery:selectAll`, `tasks:selectAll`); a larger
 * set is named up to this many, and its `total` says how many there are.
 */
export const MAX_SELECT_ALL = 100_000;

/** A tag or board name in a filter (main folds it; no match is no image). */
const filterName = lazySchema(() => z.string().min(1).max(1_000));

/** The triage filters (core/history/triage-filter.ts): rating, flag, tags, board, unfiled. */
const triageFilterFields = lazySchema(() => ({
  rating: z
    .object({ op: z.enum(['=', '>=', '<=']), value: z.number().int().min(0).max(MAX_RATING) })
    .strict()
    .optional(),
  flag: z.enum(['pick', 'reject', 'none']).optional(),
  tags: z
    .object({ mode: z.enum(['any', 'all', 'none']), keys: z.array(filterName()).max(64) })
    .strict()
    .optional(),
  /** The board with this path: its own images. */
  board: filterName().optional(),
  /** Only images in no board. */
  unfiled: z.boolean().optional(),
  /** The images of the smart board with this name (main reads its rules). */
  smart: filterName().optional(),
}));

/** The gallery's filters, shared by a count and a "Select all". */
export const galleryFilter = lazySchema(() =>
  z
    .object({
      search: z.string().max(MAX_SEARCH_CHARS).optional(),
      favourite: z.boolean().optional(),
      /** Only images that carry Content Credentials (true) or none (false). */
      contentCredentials: z.boolean().optional(),
      model: z.string().max(200).optional(),
      /** Only images of tasks of this service: a provider's, or `demo` (service-id.ts). */
      provider: serviceIdSchema().optional(),
      /** Only images of the tasks of this compare group. */
      compareGroup: compareGroupSchema().optional(),
      /** Only images of tasks of a compare, any group (true), or of none (false). */
      compared: z.boolean().optional(),
      /** Only images of tasks made from the prompt template with this id. */
      template: z.uuid().optional(),
      from: dateMsSchema().optional(),
      to: dateMsSchema().optional(),
      states: z.array(imageStateSchema()).max(10).optional(),
      ...triageFilterFields(),
    })
    .strict(),
);

/** The tasks a batch action works on: distinct or not, at most {@link MAX_IDS_PER_BATCH}. */
export const localIds = lazySchema(() => z.array(localIdSchema()).min(1).max(MAX_IDS_PER_BATCH));
export const batchCount = lazySchema(() => z.number().int().min(0));
/** What a batch action changed or created, and how many ids it skipped. */
export const batchItems = lazySchema(() =>
  z.object({ items: z.array(taskItemSchema()), skipped: batchCount() }),
);

/** A count in an answer. */
export const count = lazySchema(() => z.number().int().min(0));
