/**
 * The submit requests: new tasks on the service a target names. The target travels with the
 * request as data (shared/domain/submit-target.ts): the compose form names its own service, and
 * sending again names only the tasks, whose requests and services main reads from their records.
 * Main sends nothing to a target whose address and key the user did
 * not set for that service (electron/core/engine/target-check.ts); the settings are never read
 * for it.
 */
import { z } from 'zod';
import { channel } from './lazy-contract';
import { TASKS_PER_SUBMIT } from '../domain/limits';
import { submitTargetSchema } from '../domain/submit-target';
import { MAX_BOARD_PATH_UNITS } from '../domain/triage';
import { pageRequestSchema } from '../service/wire';
import { batchItems, localIds } from './selection-schemas';
import { localIdSchema, taskItemSchema } from './task-item';

export const submitRequests = {
  /**
   * `count` new tasks of `request` on the service `target` names (the compose form's choice);
   * with `board` (a board's path, checked and made by main when the library lacks it), their
   * images join that board as they arrive.
   */
  'tasks:submit': channel(() => ({
    input: z
      .object({
        request: pageRequestSchema(),
        target: submitTargetSchema(),
        count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max),
        board: z.string().min(1).max(MAX_BOARD_PATH_UNITS).optional(),
      })
      .strict(),
    output: z.array(taskItemSchema()),
  })),
  /**
   * "Copy as command": main puts on the clipboard the `pictor generate …` line and a cURL line
   * (none for the built-in demo or a request with input images) that send a request again, with
   * `$SERVICE_API_KEY` where the key goes (electron/core/service/request-command.ts). A task's is
   * named by its id (main reads its request as it ran and its service from its record); the
   * form's draft travels as a submit's does, to a built-in demo or the address Settings gives its
   * service only (electron/ipc/task-command-handlers.ts). The page never names the text:
   * `app:copyText` takes one plain line only. Nothing is sent.
   */
  'tasks:copyCommand': channel(() => ({
    input: z.union([
      z.object({ localId: localIdSchema() }).strict(),
      z.object({ request: pageRequestSchema(), target: submitTargetSchema() }).strict(),
    ]),
    output: z.void(),
  })),
  /**
   * Sending stored tasks again, the one way (a task's "Submit again" and "Rerun", a batch's Rerun,
   * the selection's action): the page names only the tasks; main reads their requests and
   * services, and asks in its own dialog before a hard cap (electron/core/batch/resend.ts). `each`:
   * each its own new task (`onlyFailed`: only failed or unsent ones); `batch`: one batch's tasks as
   * one new batch. `items` are the new tasks, `skipped` the ids that made none. `newSeed` (a
   * task's "Vary"): each with a seed main draws, so it runs the graph the task ran (ComfyUI),
   * never the one imported under its model's name now.
   */
  'tasks:resend': channel(() => ({
    input: z
      .object({
        localIds: localIds(),
        as: z.enum(['each', 'batch']),
        onlyFailed: z.boolean().optional(),
        newSeed: z.literal(true).optional(),
      })
      .strict(),
    output: batchItems(),
  })),
} as const;
