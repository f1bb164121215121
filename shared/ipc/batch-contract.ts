/**
 * The batch requests: actions on a selection of tasks or gallery images, each item on its own
 * (one failing stops none), counted in the answer. Their channel unions are these objects' keys,
 * so a handler file names exactly the channels it serves.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import {
  MAX_SELECT_ALL,
  batchCount,
  batchItems,
  batchOutcome,
  count,
  galleryFilter,
  imageRef,
  imageRefs,
  localIds,
} from './selection-schemas';
import { localIdSchema, taskItemSchema } from './task-item';

const localId = lazySchema(() => localIdSchema());

export const taskBatchRequests = {
  /** Batch actions on a selection of tasks: unknown ids and tasks an action skips are counted. */
  'tasks:removeMany': channel(() => ({
    input: z.object({ localIds: localIds() }).strict(),
    output: z.object({
      removed: z.array(localId()),
      skipped: batchCount(),
      /** Stopped before its end by an Undo: what it had removed is back (`removed`: what is not). */
      canceled: z.boolean().optional(),
    }),
  })),
  /**
   * Puts back tasks removed a moment ago (`tasks:remove`, `tasks:removeMany`) while main still
   * holds their records; progress as `trash:progress`. A removal of any of them still under way
   * (or waiting) is stopped and puts back what it removed, as one step.
   */
  'tasks:undoRemove': channel(() => ({
    input: z.object({ localIds: localIds() }).strict(),
    output: batchOutcome(),
  })),
  'tasks:setFavouriteMany': channel(() => ({
    input: z.object({ localIds: localIds(), favourite: z.boolean() }).strict(),
    output: batchItems(),
  })),
  'tasks:retryMany': channel(() => ({
    input: z.object({ localIds: localIds() }).strict(),
    output: batchItems(),
  })),
  /**
   * Copies the tasks' saved images into a folder main asks for in its own dialog (`folder` null:
   * the user cancelled). The page never names a path.
   */
  'tasks:exportMany': channel(() => ({
    // One folder dialog for the whole selection, "Select all" included.
    input: z.object({ localIds: z.array(localId()).min(1).max(MAX_SELECT_ALL) }).strict(),
    output: z.object({
      folder: z.string().nullable(),
      copied: batchCount(),
      failed: batchCount(),
      skipped: batchCount(),
    }),
  })),
} as const;

/** Deletes, their Undo and copies of a selection of the gallery's images. */
export const galleryBatchRequests = {
  'gallery:deleteImage': channel(() => ({ input: imageRef(), output: taskItemSchema() })),
  /**
   * A selection of the gallery's images to the trash, each as `gallery:deleteImage` does (held
   * for Undo a while). One failing does not stop the rest: `failed` counts them, `problem` says
   * why the first one failed.
   */
  'gallery:deleteImages': channel(() => ({ input: imageRefs(), output: batchOutcome() })),
  /**
   * Undoes the deletes of these images while main still holds them (`gallery:deleteImage(s)`). A
   * delete of any of them still under way (or waiting) is stopped and brings back what it moved,
   * as one step: its own answer says `canceled`.
   */
  'gallery:undoDelete': channel(() => ({ input: imageRefs(), output: batchOutcome() })),
  /**
   * Copies the images' saved files into a folder main asks for in its own dialog (`folder` null:
   * the user cancelled), never over a file there. The page never names a path.
   */
  'gallery:exportImages': channel(() => ({
    // One folder dialog for the whole selection, "Select all" included.
    input: z.object({ images: z.array(imageRef()).min(1).max(MAX_SELECT_ALL) }).strict(),
    output: z.object({ folder: z.string().nullable(), copied: count(), failed: count() }),
  })),
} as const;

/** The gallery's selection named whole, and starred or unstarred at once. */
export const gallerySelectionRequests = {
  /**
   * Every image the filters match, loaded by the page or not: the whole set "Select all" names,
   * found by main from the filters (newest first, at most MAX_SELECT_ALL; `total` counts all).
   */
  'gallery:selectAll': channel(() => ({
    input: galleryFilter(),
    output: z.object({ images: z.array(imageRef()).max(MAX_SELECT_ALL), total: count() }),
  })),
} as const;
