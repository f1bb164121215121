/**
 * The submit requests: new tasks on the service a target names. The target travels with the
 * request as data (shared/domain/submit-target.ts): the compose form names its own service, and
 * "Submit again" and "Rerun" name only the task, whose request and service main reads from its
 * record. Main sends nothing to a target whose address and key the user did not set for that
 * service (electron/core/engine/target-check.ts); the settings are never read for it.
 */
import { z } from 'zod';
import { TASKS_PER_SUBMIT } from '../domain/limits';
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
   * "Submit again" and "Rerun": the stored task's request as one new task, on its own service;
   * a batch's "Rerun" asks for `count` of them (one submit, so one new batch), as the form may.
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
} as const;
