/**
 * The records Pictor keeps for every task and image. They are read back from disk (history
 * database, gallery sidecars), so they are schemas, not just types.
 */
import { sentenceSchema } from '../i18n/sentence';
import { contentCredentialsSchema } from './content-credentials';
import { z } from 'zod';
import { storedBoardPathSchema, triageFields } from './triage';
import { generationRequestSchema, reportedModelSchema } from '../service/wire';
import { seedSchema } from '../service/service-seed';
import { DEFAULT_PROVIDER, providerIdSchema } from './providers';
import { taskCostSchema } from './task-cost';
import { compareFieldSchema } from './compare';
import { taskTemplateSchema } from './task-template';
import { lazySchema } from './lazy-schema';
import {
  MAX_ACCOUNT_CHARS,
  MAX_COUNT,
  MAX_DETAIL_CHARS,
  MAX_ENDPOINT_CHARS,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_PATH_CHARS,
  MAX_TASK_ID_CHARS,
  MAX_URL_CHARS,
  TASK_ID_CONTROL,
  TASKS_PER_ENGINE_SUBMIT,
  boundedInt,
  boundedText,
  dateMsSchema,
} from './limits';

export const TASK_STATUSES = [
  /** Stored, submit request not answered yet. */
  'submitting',
  /** The service answered the submit with something other than 200: nothing was created. */
  'submit_failed',
  /** The submit may have reached the service but no task id came back; never retried. */
  'submit_unknown',
  /** The service has the task; it is polled. */
  'processing',
  'completed',
  'failed',
  /** The service answered 404 to the key that created the task. */
  'not_found',
] as const;
/** This module's schemas are built on first use (lazy-schema.ts), as the record's. */
export const taskStatusSchema = lazySchema(() => z.enum(TASK_STATUSES));
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Why a processing task is not being polled right now. */
export const HOLD_REASONS = [
  /** The watch timeout passed; the id is kept and the task resumes on request or at start. */
  'timed_out',
  /** The current key belongs to another account; waits for the key that created it. */
  'awaiting_key',
  /** The service refused the key that created the task (401/403); waits for a key change. */
  'key_rejected',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

const ERROR_KINDS = [
  'auth',
  'credits',
  'not_found',
  'rate_limited',
  'server',
  'bad_request',
  'network',
  'timeout',
  'protocol',
  'config',
  'task_failed',
  /** The service's content rules stopped the task. */
  'moderated',
  /** The task was canceled on the service. */
  'canceled',
  'interrupted',
  'download',
  'storage',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** An error the user sees: a sentence, plus the technical detail one click away. */
export const taskErrorSchema = lazySchema(() =>
  z.object({
    kind: z.enum(ERROR_KINDS),
    message: boundedText(MAX_MESSAGE_CHARS),
    /**
     * The message as a catalogue sentence, shown in the window's language (`message` is its English
     * text, kept for the CLI, the log and earlier releases). One that does not parse, or that this
     * version does not know, is dropped on read and `message` shows.
     */
    sentence: sentenceSchema().optional().catch(undefined),
    detail: boundedText(MAX_DETAIL_CHARS).optional(),
    httpStatus: boundedInt(100, 599).optional(),
  }),
);
export type TaskError = z.infer<ReturnType<typeof taskErrorSchema>>;

/** The image types the gallery keeps. */
export const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** `deleted`: the user moved the file to the OS trash; the record keeps the prompt and dates. */
export const IMAGE_STATES = ['pending', 'saved', 'expired', 'invalid', 'deleted'] as const;
export const imageStateSchema = lazySchema(() => z.enum(IMAGE_STATES));
export type ImageState = (typeof IMAGE_STATES)[number];
/**
 * What the gallery shows unless asked otherwise (the main process's default for `gallery:list`
 * and `gallery:count`, the page's own list): every state but `deleted`, which is in the trash.
 */
export const VISIBLE_STATES: readonly ImageState[] = IMAGE_STATES.filter(
  (state) => state !== 'deleted',
);

/**
 * Whether the gallery shows the image (its state is one of VISIBLE_STATES: not in the trash), the
 * test of every record the code holds; the history's SQL says it as VISIBLE_IMAGE
 * (electron/core/history/visible-image.ts).
 */
export function isVisibleImage(image: { readonly state: ImageState }): boolean {
  return VISIBLE_STATES.includes(image.state);
}

/** What Pictor may leave out of a saved image's metadata (`ImageRecord.keyRemoved`). */
export const KEY_REMOVED = ['metadata', 'credentials'] as const;

/** One image of a task. Built on first use (lazy-schema.ts), with the task's. */
export const imageRecordSchema = lazySchema(() =>
  z.object({
    index: boundedInt(0, MAX_IMAGES_PER_TASK - 1),
    /** Where the service said the image is; `null` when its entry had no usable URL. */
    url: boundedText(MAX_URL_CHARS).nullable(),
    state: imageStateSchema(),
    /** Paths relative to the gallery root, so the gallery folder can move. */
    file: boundedText(MAX_PATH_CHARS).optional(),
    thumbnail: boundedText(MAX_PATH_CHARS).optional(),
    /**
     * The image was saved by a host with no image decoder: sized from its header, no thumbnail yet.
     * The app makes the thumbnail the next time it shows the gallery, and clears this.
     */
    thumbnailPending: z.literal(true).optional(),
    width: boundedInt(1, MAX_IMAGE_SIDE).optional(),
    height: boundedInt(1, MAX_IMAGE_SIDE).optional(),
    bytes: boundedInt(0, MAX_IMAGE_BYTES).optional(),
    mime: z.enum(IMAGE_MIMES).optional(),
    attempts: boundedInt(0, MAX_COUNT),
    error: boundedText(MAX_MESSAGE_CHARS).optional(),
    /** `error` as a catalogue sentence (see `TaskError.sentence`). */
    errorSentence: sentenceSchema().optional().catch(undefined),
    savedAt: dateMsSchema().optional(),
    /** When Pictor found the image's link expired (state `expired`); `error` says why. */
    expiredAt: dateMsSchema().optional().catch(undefined),
    /** The pick flag of earlier versions, kept equal to `flag === 'pick'` (favourites.ts). */
    favourite: z.boolean().default(false),
    /** Rating, flag, tags and boards (shared/domain/triage.ts). */
    ...triageFields(),
    /**
     * The image's XMP beside it (`image-<n>.xmp`, root-relative), when the image itself could not
     * take it: a file with Content Credentials is saved exactly as it came. Absent: the XMP is in
     * the image (or the image has none).
     */
    xmpFile: boundedText(MAX_PATH_CHARS).optional(),
    /** What the image's C2PA Content Credentials said when verified; absent: never checked. */
    contentCredentials: contentCredentialsSchema().optional().catch(undefined),
    /**
     * Metadata Pictor left out of the image when it saved it, because it carried an API key this
     * computer holds (core/download/key-intake.ts): `metadata`, or `credentials` when the image's
     * Content Credentials went with it (they would no longer match). The pixels are as they came.
     */
    keyRemoved: z.enum(KEY_REMOVED).optional().catch(undefined),
  }),
);
export type ImageRecord = z.infer<ReturnType<typeof imageRecordSchema>>;

/**
 * Whether two of a task's images share an index. Each index names one file (`image-<index + 1>`)
 * and one row of the history's `images` table: a record with two is not one Pictor writes, and
 * a crafted sidecar saying it would have two images staged into one file.
 */
export function repeatsAnIndex(images: readonly { readonly index?: unknown }[]): boolean {
  return new Set(images.map((image) => image.index)).size !== images.length;
}

/** A task's images (the record's `images`), built with it on first use; each index once. */
export const taskImagesSchema = lazySchema(() =>
  z
    .array(imageRecordSchema())
    .max(MAX_IMAGES_PER_TASK)
    .refine((images) => !repeatsAnIndex(images), 'Two images have the same index.'),
);

/** `submitted` by this app, or `tracked`: an id created elsewhere and pasted in. */
export const TASK_ORIGINS = ['submitted', 'tracked'] as const;

/**
 * A task's record. Built on first use (lazy-schema.ts): a command that reads only common records
 * never runs it (shared/domain/record-check.ts).
 */
export const taskRecordSchema = lazySchema(() =>
  z.object({
    /** Ours, assigned before the submit; a task that never got a service id still has one. */
    localId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
    /**
     * The service's id, stored the moment it arrives; one holding a control or bidi character
     * (limits.ts, TASK_ID_CONTROL: refused from the service too) makes the record unreadable.
     */
    taskId: z
      .string()
      .min(1)
      .max(MAX_TASK_ID_CHARS)
      .refine((id) => !TASK_ID_CONTROL.test(id), 'The task id holds a control character.')
      .nullable(),
    origin: z.enum(TASK_ORIGINS),
    /** The service the task lives on: its base URL, or `demo:` for the built-in demo service. */
    endpoint: z.string().min(1).max(MAX_ENDPOINT_CHARS),
    /**
     * The fingerprint of the key that created the task (`ServiceCredentials.keyFingerprint`): the
     * service shows a task only to its account's keys, so the engine polls it with that key and
     * holds it while another is set. Stored under this name in the history and in every gallery
     * sidecar (read by the CLI and earlier releases), so the field stays `account`; the code that
     * makes and compares it calls it the key fingerprint.
     */
    account: boundedText(MAX_ACCOUNT_CHARS),
    request: generationRequestSchema(),
    /**
     * The model the service said it used (absent: it said none). Optional, so histories and
     * sidecars written before it parse; a value that is not a usable name is dropped on read
     * (a crafted sidecar loses the field, not the task).
     */
    reportedModel: reportedModelSchema().optional().catch(undefined),
    /**
     * The seed the service said it made the images with (shared/service/service-seed.ts), a whole
     * number from 0 to 2^53 − 1. Absent: it said none, as on every record written before seeds; a
     * damaged value is dropped on read (a crafted sidecar loses the field, not the task).
     */
    seed: seedSchema().optional().catch(undefined),
    status: taskStatusSchema(),
    hold: z.enum(HOLD_REASONS).nullable(),
    error: taskErrorSchema().nullable(),
    createdAt: dateMsSchema(),
    updatedAt: dateMsSchema(),
    submittedAt: dateMsSchema().nullable(),
    finishedAt: dateMsSchema().nullable(),
    /** When the current watch began; the watch timeout counts from here. */
    watchStartedAt: dateMsSchema().nullable(),
    polls: boundedInt(0, MAX_COUNT),
    lastPolledAt: dateMsSchema().nullable(),
    images: taskImagesSchema(),
    favourite: z.boolean(),
    /** The task's folder relative to the gallery root, once it has one. */
    folder: boundedText(MAX_PATH_CHARS).nullable(),
    /**
     * Set by `rebuild` on a record it created from a gallery sidecar (absent: false). Such a
     * record came from a folder anyone could have written, not from this app's own history.
     */
    imported: z.boolean().optional(),
    /**
     * The kind of service the task lives on (shared/domain/providers.ts); absent: today's contract
     * (`pictor`), as on every record written before services had profiles. A provider this
     * version does not know makes the record unreadable rather than read as another's.
     */
    provider: providerIdSchema().optional(),
    /**
     * The addresses the service gave for the task (a `polling_url`, `status_url`, `urls.get`):
     * kept to poll, fetch and cancel it after a restart. Each is checked before a request carrying
     * the key goes there (core/service/providers/api-origins.ts); a damaged set is dropped, and the
     * task is then found by its id at the provider's documented address.
     */
    handles: z
      .object({
        poll: boundedText(MAX_URL_CHARS).optional(),
        result: boundedText(MAX_URL_CHARS).optional(),
        cancel: boundedText(MAX_URL_CHARS).optional(),
      })
      .optional()
      .catch(undefined),
    /** When the service's links to the results stop working (its documented lifetime). */
    resultsExpireAt: dateMsSchema().optional().catch(undefined),
    /** The user asked the service to cancel the task, at this time (never done automatically). */
    canceledByUserAt: dateMsSchema().optional().catch(undefined),
    /**
     * The user stopped watching the task at this time ("Stop watching", offered where its service
     * cannot cancel): it is held as `timed_out` would be, the id kept for Resume. It says why only
     * while the hold is this one (not after a later watch began).
     */
    stoppedWatchingAt: dateMsSchema().optional().catch(undefined),
    /**
     * The tasks one submit created ("Generate 3") share this id: the first task's `localId`.
     * Absent on a submit of one, on tracked tasks and on records older than batches.
     */
    batchId: z.string().min(1).max(MAX_LOCAL_ID_CHARS).optional(),
    /**
     * The task's place in its batch, from 0: the order its submit made them in (a template's
     * expansion order, each prompt's copies side by side), which the history's order (by creation
     * time, then local id) does not keep. Absent wherever `batchId` is, and on batches made before
     * it was kept; a damaged value is dropped on read.
     */
    batchIndex: z
      .number()
      .int()
      .min(0)
      .max(TASKS_PER_ENGINE_SUBMIT.max - 1)
      .optional()
      .catch(undefined),
    /**
     * What the task cost and how Pictor knows (shared/domain/task-cost.ts). Absent: unknown, as on
     * every record written before costs; a damaged value is dropped, never the task.
     */
    cost: taskCostSchema().optional().catch(undefined),
    /**
     * "Generate into": the board the submit named (its path as the library stores it), which each
     * image of the task joins as it is first recorded. Absent: none. A value that is not a board's
     * path is dropped on read (a crafted sidecar loses the field, not the task).
     */
    board: storedBoardPathSchema().optional().catch(undefined),
    /**
     * The compare the task was sent in (shared/domain/compare.ts): its group, target slot and
     * label. Absent: none. A damaged value is dropped on read (the task is kept).
     */
    compare: compareFieldSchema().optional().catch(undefined),
    /**
     * The prompt template the task was made from (shared/domain/task-template.ts); its resolved
     * prompt is `request.prompt`. Absent: none, as on every record written before templates. A
     * damaged value is dropped on read (a crafted sidecar loses the field, not the task).
     */
    template: taskTemplateSchema().optional().catch(undefined),
    /**
     * Whether the submit request may have left (electron/core/engine/send-mark.ts): `queued` from
     * the moment the task is stored until its request is handed to the network, `sent` from just
     * before (on disk first), `queued` again after a 429 (the service took nothing); dropped once
     * the service has the task. Only a `submitting` task marked `queued` is sent after a restart.
     * Absent (records of earlier versions; a value that does not parse is dropped on read) reads
     * as "may have left": such a task is never sent again.
     */
    sendState: z.enum(['queued', 'sent']).optional().catch(undefined),
    /**
     * Where the task lists, newest first, when that is not `createdAt`: a task made while the
     * clock stood behind the newest task of the library (set back by NTP or the user) lists just
     * above it, in the order tasks were made (electron/core/engine/list-place.ts), while
     * `createdAt` keeps the time the clock said. Absent (the usual case, and records of earlier
     * versions; a value that does not parse is dropped on read): `createdAt`.
     */
    listedAt: dateMsSchema().optional().catch(undefined),
  }),
);
export type TaskRecord = z.infer<ReturnType<typeof taskRecordSchema>>;

/** The time a task lists by, newest first (see `listedAt`): the history's order key. */
export function listedAt(record: Pick<TaskRecord, 'createdAt' | 'listedAt'>): number {
  return record.listedAt ?? record.createdAt;
}

/** Statuses in which the engine still has work to do for the task. */
export function isUnfinished(record: TaskRecord): boolean {
  return (
    record.status === 'submitting' ||
    record.status === 'processing' ||
    (record.status === 'completed' && record.images.some((image) => image.state === 'pending'))
  );
}

/** What a new record needs; everything else starts empty. */
export type NewTaskRecord = Pick<
  TaskRecord,
  'localId' | 'taskId' | 'origin' | 'endpoint' | 'account' | 'request'
> &
  Partial<Pick<TaskRecord, 'provider' | 'board' | 'compare' | 'template'>>;

/** A task as it is stored before anything was sent for it (status `submitting`, created `now`). */
export function newTaskRecord(fields: NewTaskRecord, now: number): TaskRecord {
  // Today's contract stays unnamed, so its records read the same in earlier releases.
  const { provider, ...rest } = fields;
  return {
    ...rest,
    ...(provider === undefined || provider === DEFAULT_PROVIDER ? {} : { provider }),
    status: 'submitting',
    hold: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    submittedAt: null,
    finishedAt: null,
    watchStartedAt: null,
    polls: 0,
    lastPolledAt: null,
    images: [],
    favourite: false,
    folder: null,
  };
}
