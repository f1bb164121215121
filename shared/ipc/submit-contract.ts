/**
 * The submit requests: new tasks on the service a target names. The target travels with the
 * request as data (shared/domain/submit-target.ts): the compose form names its own service, and
 * "Submit again" and "Rerun" name only the task (or a batch's tasks), whose request and service
 * main reads from its record. Main sends nothing to a target whose address and key the user did
 * not set for that service (electron/core/engine/target-check.ts); the settings are never read
 * for it.
 */
import { z } from 'zod';
import { TASKS_PER_ENGINE_SUBMIT, TASKS_PER_SUBMIT } from '../domain/limits';
import { submitTargetSchema } from '../domain/submit-target';
import { MAX_BOARD_PATH_UNITS } from '../domain/triage';
import { generationRequestSchema } from '../service/wire';
import { localIdSchema, taskItemSchema } from './task-item';

export const submitRequests = {
  /**
   * `count` new tasks of `request` on the service `target` names (the compose form's choice);
   * with `board` (a board's path, checked and made by main when the library lacks it), their
   * images join that board as they arrive.
   */
  'tasks:submit': {
    input: z
      .object({
        request: generationRequestSchema,
        target: submitTargetSchema,
        count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max),
        board: z.string().min(1).max(MAX_BOARD_PATH_UNITS).optional(),
      })
      .strict(),
    output: z.array(taskItemSchema),
  },
  /**
   * "Submit again" and "Rerun": the stored task's request as one new task, on its own service
   * (`count` of them as one submit, as the form may ask).
   */
  'tasks:submitAgain': {
    input: z
      .object({
        localId: localIdSchema,
        count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max).optional(),
      })
      .strict(),
    output: z.array(taskItemSchema),
  },
  /**
   * A batch's "Rerun": the tasks of one batch, each with its own request (a template's batch: one
   * prompt each), as one new batch on the batch's own service. Main reads the records, refuses
   * tasks of several batches, and judges the caps as a new submit of them would be
   * (electron/core/batch/batch-rerun.ts).
   */
  'tasks:rerunBatch': {
    input: z
      .object({
        localIds: z.array(localIdSchema).min(1).max(TASKS_PER_ENGINE_SUBMIT.max),
      })
      .strict(),
    output: z.array(taskItemSchema),
  },
} as const;
