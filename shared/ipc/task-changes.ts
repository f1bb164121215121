/**
 * The one event that tells the page how tasks changed: `tasks:updated`, a batch of changes main
 * has coalesced per task (the last change of each task since the previous batch, in the order
 * the tasks first changed) and sends at most every 150 ms (electron/ipc/task-updates.ts). Each
 * change is one of:
 * - `task`: the whole record (prompt included) with the engine's live state, for any change of
 *   what the page shows of the task (status, hold, error, images, cost, favourite…), and its
 *   place in each view the page has open (`views`, {@link viewMembershipSchema});
 * - `live`: only what a poll that changed nothing else moves (the poll count, when it was
 *   polled, `updatedAt`) and the live state (next poll, progress, queue place), for a task whose
 *   whole record main sent before: the page applies it onto the record it has, and ignores it
 *   for a task it has not loaded;
 * - `triage`: a change of the task's triage alone (a rating, a flag, a star, tags, boards): the
 *   task's star and time and each changed image's triage (shared/domain/triage-delta.ts), with
 *   its place in the open views as for `task`; the page applies it onto the record it has, and
 *   ignores it for a task it has not loaded (a rating of 10,000 images sends no record);
 * - `removed`: the task left the history;
 * - `refused`: a submit refused for the account, never kept (its request comes back).
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { sentenceSchema } from '../i18n/sentence';
import { liveStateSchema } from '../domain/live-state';
import {
  MAX_COUNT,
  MAX_IMAGES_PER_TASK,
  MAX_MESSAGE_CHARS,
  boundedInt,
  dateMsSchema,
} from '../domain/limits';
import { taskRecordSchema } from '../domain/task-record';
import { taskTriageDeltaSchema } from '../domain/triage-delta';
import { generationRequestSchema } from '../service/wire';
import { localIdSchema } from './task-item';

/**
 * Most changes one `tasks:updated` message carries: main splits a larger batch (a removal of
 * thousands of tasks) into messages of this many, sent together.
 */
export const MAX_TASK_CHANGES = 500;

/** The fields of a task's live part: what a poll that moved only bookkeeping changed. */
const taskLivePartSchema = lazySchema(() =>
  z.object({
    localId: localIdSchema(),
    updatedAt: dateMsSchema(),
    polls: boundedInt(0, MAX_COUNT),
    lastPolledAt: dateMsSchema().nullable(),
    live: liveStateSchema().nullable(),
  }),
);
export type TaskLivePart = z.infer<ReturnType<typeof taskLivePartSchema>>;

/**
 * A submit refused for the account (key refused, no credits, no key, service unreachable): not
 * kept in the history (it never got an id); its request comes back so nothing typed is lost.
 */
const taskRefusalSchema = lazySchema(() =>
  z.object({
    localId: localIdSchema(),
    request: generationRequestSchema(),
    kind: z.enum(['auth', 'credits', 'network', 'config']),
    message: z.string().max(MAX_MESSAGE_CHARS),
    /** `message` as a catalogue sentence (the window shows it in its language). */
    sentence: sentenceSchema().optional(),
  }),
);
export type TaskRefusal = z.infer<ReturnType<typeof taskRefusalSchema>>;

/**
 * Where a changed record stands in the views the page has open, as main finds it with the query
 * it lists each view with (electron/ipc/open-views.ts): `tasks`, whether the task list's filter
 * holds the task; `gallery`, which of its images the gallery's filters hold (none: it holds none
 * of them). A view main does not know to be open is absent: the page then neither adds the
 * record to it nor takes it out. The page decides nothing of a filter itself: a record joins a
 * view, or leaves it, when this says so. Like every event's, a field it does not name is dropped
 * on the way out (main's emitter sends what the schema parsed).
 */
const viewMembershipSchema = lazySchema(() =>
  z.object({
    tasks: z.boolean().optional(),
    gallery: z
      .array(boundedInt(0, MAX_IMAGES_PER_TASK - 1))
      .max(MAX_IMAGES_PER_TASK)
      .optional(),
  }),
);
export type ViewMembership = z.infer<ReturnType<typeof viewMembershipSchema>>;

export const taskChangeSchema = lazySchema(() =>
  z.discriminatedUnion('change', [
    z.object({
      change: z.literal('task'),
      record: taskRecordSchema(),
      live: liveStateSchema().nullable(),
      views: viewMembershipSchema().optional(),
    }),
    taskLivePartSchema().extend({ change: z.literal('live') }),
    taskTriageDeltaSchema().extend({
      change: z.literal('triage'),
      views: viewMembershipSchema().optional(),
    }),
    z.object({ change: z.literal('removed'), localId: localIdSchema() }),
    taskRefusalSchema().extend({ change: z.literal('refused') }),
  ]),
);
export type TaskChange = z.infer<ReturnType<typeof taskChangeSchema>>;

/** One `tasks:updated` message: at least one change, at most {@link MAX_TASK_CHANGES}. */
export const taskChangesSchema = lazySchema(() =>
  z.array(taskChangeSchema()).min(1).max(MAX_TASK_CHANGES),
);
