/**
 * The `tasks:` requests of "Cancel on the service" (electron/core/batch/cancel-tasks.ts): one
 * task, a selection (its progress as `tasks:cancelProgress`, one request at a time), and "Stop
 * watching" where a service cannot cancel (the id kept; Resume watches again).
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { cancelOutcomeKindSchema } from '../domain/cancel-outcome';
import { MAX_DETAIL_CHARS, MAX_IDS_PER_BATCH, MAX_MESSAGE_CHARS } from '../domain/limits';
import { sentenceSchema } from '../i18n/sentence';
import { localIdSchema, taskItemSchema } from './task-item';

const localId = lazySchema(() => localIdSchema());
const localIds = lazySchema(() => z.array(localId()).min(1).max(MAX_IDS_PER_BATCH));

/** Why a task was not canceled: a sentence (the service's refusal, "cannot cancel"), its detail. */
const cancelReasonSchema = lazySchema(() =>
  z.object({
    message: z.string().max(MAX_MESSAGE_CHARS),
    sentence: sentenceSchema().optional(),
    detail: z.string().max(MAX_DETAIL_CHARS).optional(),
  }),
);

/** How one task's cancel went, with the task as it stands after the service's answer. */
export const cancelOutcomeSchema = lazySchema(() =>
  z.object({
    kind: cancelOutcomeKindSchema(),
    localId: localId(),
    /** Null for an id main does not know. */
    item: taskItemSchema().nullable(),
    reason: cancelReasonSchema().optional(),
  }),
);
export type CancelOutcomeItem = z.infer<ReturnType<typeof cancelOutcomeSchema>>;

/** How far a selection's cancel is: requests answered, of how many. */
export const cancelProgressSchema = lazySchema(() =>
  z.object({
    done: z.number().int().min(0),
    total: z.number().int().min(0),
  }),
);

export const taskCancelRequests = {
  /** Asks the task's service to cancel it; answers once the service's next word on it came. */
  'tasks:cancel': channel(() => ({
    input: z.object({ localId: localId() }).strict(),
    output: cancelOutcomeSchema(),
  })),
  /** The same for a selection, one task at a time; an outcome per distinct id, in their order. */
  'tasks:cancelMany': channel(() => ({
    input: z.object({ localIds: localIds() }).strict(),
    output: z.object({ outcomes: z.array(cancelOutcomeSchema()).max(MAX_IDS_PER_BATCH) }),
  })),
  /** Stops watching processing tasks (held, ids kept); `items` are the tasks it held. */
  'tasks:stopWatching': channel(() => ({
    input: z.object({ localIds: localIds() }).strict(),
    output: z.object({ items: z.array(taskItemSchema()), skipped: z.number().int().min(0) }),
  })),
} as const;
