/**
 * The image task service's wire format (see docs/SERVICE.md).
 *
 * Schemas accept what real providers send beyond the spec (extra fields, any `error` shape)
 * and reject only what the app cannot use.
 */
import { z } from 'zod';
import {
  MAX_IMAGES_PER_TASK,
  MAX_QUEUE_POSITION,
  MAX_URL_CHARS,
  REQUEST_LIMITS,
} from '../domain/limits';
import { englishText, sentence, type Sentence } from '../i18n/sentence';
import { CONTROL_CHARACTERS, anyOf } from '../text/control-characters';
import { cleanNameSchema, optionalNameSchema } from '../text/shown-name';
import type { InlineImage } from './inline-token';
import { readSeed, seedSchema } from './service-seed';
import { paramValuesSchema } from '../domain/model-params';
import { imageInputsSchema } from '../domain/image-inputs';
import { comfyWorkflowSchema } from '../domain/comfy-workflow';
import { lazySchema } from '../domain/lazy-schema';

/** `<width>x<height>`, both positive integers (the spec's only rule for `size`). */
export const SIZE_PATTERN = /^([1-9]\d{0,5})x([1-9]\d{0,5})$/;

/** The payload of `POST /v1/images/generations`. Which fields are required is not shown,
 * so only `prompt` is required here and empty optional fields are left out of the body. Built on
 * first use (lazy-schema.ts). */
export const generationRequestSchema = lazySchema(() =>
  z.object({
    prompt: z
      .string()
      .trim()
      .min(1, 'The prompt is empty.')
      .max(REQUEST_LIMITS.prompt, 'The prompt is too long.'),
    /** A name from a file too (a sidecar, an archive): cleaned (shared/text/shown-name.ts). */
    model: optionalNameSchema(REQUEST_LIMITS.model).optional(),
    size: z
      .string()
      .trim()
      .regex(SIZE_PATTERN, 'The size must look like 1024x1024 (two whole numbers).')
      .optional(),
    quality: z.string().trim().min(1).max(REQUEST_LIMITS.quality).optional(),
    /**
     * Images the task is given (shared/domain/image-inputs.ts): by digest, never by an address, so
     * the record can be sent again offline. Absent: a text-to-image task, as every record before.
     */
    inputs: imageInputsSchema().optional(),
    /**
     * The model's own options, by the names its service documents (shared/domain/model-params.ts),
     * checked against its schema before anything is sent. Absent: none, as on every record before.
     */
    params: paramValuesSchema().optional(),
    /**
     * The seed asked for (`--seed`, "Use this seed"), sent where the model's schema has one. The
     * seed the service says it used is the record's own `seed`. Absent: the service draws one.
     */
    seed: seedSchema().optional(),
    /**
     * The ComfyUI workflow a task of that provider runs, with the map of its inputs
     * (shared/domain/comfy-workflow.ts): the model's own graph, kept with the task so a resend runs
     * what ran. Absent: the provider's built-in graph, or no ComfyUI task.
     */
    workflow: comfyWorkflowSchema().optional(),
  }),
);
export type GenerationRequest = z.infer<ReturnType<typeof generationRequestSchema>>;

/**
 * A request as the page sends it (the compose form's submit, its cost, "Copy as command", a
 * template run): never with a ComfyUI graph. A graph runs on the user's engine only as the user
 * imported it (a file main's own dialog picked, `pictor comfy import`) or as a stored task ran it
 * (a resend, read from its record in main); the page names the model, and the engine attaches that
 * model's imported workflow (electron/core/engine/request-workflow.ts). A `workflow` the page puts
 * in (a task's "Vary" copies its record's) is dropped here, so a compromised page cannot have the
 * engine run a graph of its own (tests/hardening/hostile/page-workflow.test.ts).
 */
export const pageRequestSchema = lazySchema(() =>
  generationRequestSchema().omit({ workflow: true }),
);

/**
 * The model a service says it used (`model` in a submit or task body: not in the spec, sent by
 * the demo service and by real providers). Kept only when it reads as a name: at most
 * {@link REQUEST_LIMITS.model} characters, with no control, format or line-separator
 * characters (a name shown on screen cannot reorder or hide text); anything else is dropped,
 * never shortened (a cut name would name another model).
 */
export const reportedModelSchema = lazySchema(() =>
  z.string().trim().pipe(cleanNameSchema(REQUEST_LIMITS.model)),
);

/** The reported model in `value`, or `undefined` when there is none or it is not a usable name. */
export function readReportedModel(value: unknown): string | undefined {
  // A megabyte of "model" is not trimmed or scanned: it is not a name.
  if (typeof value !== 'string' || value.length > REQUEST_LIMITS.model * 4) return undefined;
  const parsed = reportedModelSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** HTTP 200 body of a submit: an object with a non-empty string `id`; anything else is allowed. */
export const submitResponseSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().trim().min(1).max(1_000),
  }),
);

/**
 * The one set of task states every provider's status words map onto
 * (electron/core/service/providers): `unknown` is a word the profile does not know, and the task
 * keeps being polled; only a profile's own mapping says a task `failed`.
 */
const CANONICAL_STATES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'moderated',
  'canceled',
  'expired',
  'unknown',
] as const;
export type CanonicalState = (typeof CANONICAL_STATES)[number];

/** The states in which the service is still working on the task (or said nothing usable). */
function isPending(state: CanonicalState): state is 'queued' | 'running' | 'unknown' {
  return state === 'queued' || state === 'running' || state === 'unknown';
}

/**
 * A provider's task answer after its profile read it: the canonical state and the same fields.
 * Built on first use (lazy-schema.ts), as this module's other schemas.
 */
export const canonicalTaskSchema = lazySchema(() =>
  z.looseObject({
    status: z.enum(CANONICAL_STATES),
    /**
     * The service's own status word, kept to show when the state is `unknown`. A longer one is
     * dropped, not refused: a word Pictor does not know never makes the answer unreadable.
     */
    word: z.string().max(200).optional().catch(undefined),
    output: z
      .looseObject({
        data: z.array(z.looseObject({ url: z.string().optional() })).optional(),
      })
      .nullish(),
    error: z.unknown().optional(),
    model: z.unknown().optional(),
    progress: z.unknown().optional(),
    /** Tasks ahead of this one in the service's queue, where it says so. */
    queuePosition: z.unknown().optional(),
    /** The seed the images were made with, where the service says so (service-seed.ts). */
    seed: z.unknown().optional(),
  }),
);
export type CanonicalTask = z.infer<ReturnType<typeof canonicalTaskSchema>>;

/** A task as the app uses it, normalised from a {@link CanonicalTask}. */
export type ServiceTask =
  | {
      readonly status: 'processing';
      readonly reportedModel?: string;
      /** Percent done (0–100, whole), when the service said. */
      readonly progress?: number;
      /** Queued, or a status word Pictor does not know; absent: running (`processing`). */
      readonly phase?: 'queued' | 'unknown';
      /** Tasks ahead in the service's queue (whole, 0 = next, bounded), when it said. */
      readonly queuePosition?: number;
      /** The status word a profile did not know (phase `unknown`), cleaned for display. */
      readonly word?: string;
    }
  | CompletedTask
  | {
      readonly status: 'failed';
      /** The service's own words, or Pictor's English when it gave none (then `sentence` too). */
      readonly message: string;
      /** Pictor's sentence for a failure the service did not explain (or could not be shown). */
      readonly sentence?: Sentence;
      readonly reportedModel?: string;
      /** Why the service ended it, when not a plain failure. */
      readonly outcome?: 'moderated' | 'canceled' | 'expired';
    };

/** A completed task as the app uses it: at most {@link MAX_IMAGES_PER_TASK} images. */
export interface CompletedTask {
  readonly status: 'completed';
  /** One entry per image kept; `null` where the entry carried no usable URL or was refused. */
  readonly imageUrls: readonly (string | null)[];
  /** Why an entry's URL was refused, by index (absent when none was). */
  readonly refusedImages?: Readonly<Record<number, string>>;
  /** `refusedImages` as catalogue sentences, by the same indexes. */
  readonly refusedImageSentences?: Readonly<Record<number, Sentence>>;
  /** A sentence about the answer as a whole: the images listed beyond what Pictor keeps. */
  readonly notice?: string;
  /** `notice` as a catalogue sentence. */
  readonly noticeSentence?: Sentence;
  /** The model the service says it used (see {@link readReportedModel}). */
  readonly reportedModel?: string;
  /** The seed the service says it made the images with (service-seed.ts), when it says one. */
  readonly seed?: number;
  /**
   * The images the service sent inline (a `data:` URL or `b64_json` in place of an address),
   * decoded where the answer was read (electron/core/service/inline-answer.ts), by index; their
   * `imageUrls` entry is its `inline:<sha256>` token (inline-token.ts). Absent when there is
   * none. Bytes held by the main process only: never in a record, over IPC or in a log.
   */
  readonly inlineImages?: Readonly<Record<number, InlineImage>>;
}

const MAX_MESSAGE = 500;
const CONTROLS = anyOf([CONTROL_CHARACTERS], 'g');
/**
 * NUL is dropped, not made a space: text read as UTF-16 (a NUL beside each letter) then reads as
 * it was, so an echo of the API key in it is still found by the key's finder (secrets/key-echo.ts
 * drops NULs too) where an error's text is scrubbed after it was cleaned (a transport failure's);
 * spaced out, the key's letters were kept, readable, and not found.
 */
const NUL = /\0/g;

/** Removes control characters and bounds the length of text that came from the network. */
export function cleanText(text: string, max = MAX_MESSAGE): string {
  const flat = text.replace(NUL, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const MESSAGE_KEYS = ['message', 'msg', 'detail', 'description', 'reason', 'error_description'];
const CODE_KEYS = ['code', 'type', 'error_code', 'status'];

/** Turns a service `error` of any shape (string, object, nested, array) into a sentence. */
export function describeServiceError(error: unknown, depth = 0): string {
  if (error === undefined || error === null || error === '') return '';
  if (typeof error === 'string') return cleanText(error);
  if (typeof error === 'number' || typeof error === 'boolean') return cleanText(String(error));
  if (depth > 3) return '';
  if (Array.isArray(error)) {
    return cleanText(
      error
        .map((item) => describeServiceError(item, depth + 1))
        .filter(Boolean)
        .join('; '),
    );
  }
  if (typeof error === 'object') {
    const record = error as Record<string, unknown>;
    const message =
      MESSAGE_KEYS.map((key) => describeServiceError(record[key], depth + 1)).find(Boolean) ??
      describeServiceError(record.error, depth + 1);
    const code = CODE_KEYS.map((key) => record[key]).find(
      (value): value is string | number => typeof value === 'string' || typeof value === 'number',
    );
    if (message && code !== undefined && !message.includes(String(code))) {
      return cleanText(`${message} (${String(code)})`);
    }
    if (message) return message;
    if (code !== undefined) return cleanText(`Error ${String(code)}`);
    try {
      return cleanText(JSON.stringify(error));
    } catch {
      return '';
    }
  }
  return '';
}

/** A percent as text, already trimmed: `42`, `42.5`, `42%`, `42 %`. */
const PERCENT_TEXT = /^\d{1,3}(\.\d+)?\s*%?$/;

/**
 * A processing task's progress as a whole percent, from what services send: a number of percent
 * (`42`, `42.5`), a fraction below 1 (`0.42`), or a percent string (`"42%"`). Anything else, or a
 * value out of 0–100, says nothing (undefined): it is not a reason to doubt the task.
 */
export function readProgress(value: unknown): number | undefined {
  let number: number;
  if (typeof value === 'number') number = value;
  // Trimmed first, then matched: `\s*%?\s*$` around an optional sign backtracked through every
  // split of a long run of spaces that ended in anything else (a megabyte: half an hour).
  else if (typeof value === 'string' && PERCENT_TEXT.test(value.trim()))
    number = Number.parseFloat(value);
  else return undefined;
  if (!Number.isFinite(number) || number < 0 || number > 100) return undefined;
  const percent = number < 1 && !Number.isInteger(number) ? number * 100 : number;
  return Math.min(100, Math.max(0, Math.floor(percent)));
}

/**
 * A queue position as a whole number from 0 (next) to {@link MAX_QUEUE_POSITION}, or undefined
 * when the value is not one: a figure Pictor cannot believe is dropped, never fails the answer.
 */
function readQueuePosition(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return undefined;
  return value >= 0 && value <= MAX_QUEUE_POSITION ? value : undefined;
}

/** Normalises a task answer a profile read into canonical states. */
export function normaliseCanonical(task: CanonicalTask): ServiceTask {
  const model = readReportedModel(task.model);
  const reported = model === undefined ? {} : { reportedModel: model };
  const state = task.status;
  if (isPending(state)) return pendingTask(task, state, reported);
  if (state !== 'succeeded') {
    const outcome = state === 'failed' ? {} : { outcome: state };
    const reason = describeServiceError(task.error);
    if (reason) return { status: 'failed', message: reason, ...reported, ...outcome };
    const said = sentence(
      state === 'moderated'
        ? 'error.service.moderatedWithoutReason'
        : state === 'canceled'
          ? 'error.service.canceledWithoutReason'
          : state === 'expired'
            ? 'error.service.expiredWithoutReason'
            : 'error.service.failedWithoutReason',
    );
    return {
      status: 'failed',
      message: englishText(said),
      sentence: said,
      ...reported,
      ...outcome,
    };
  }
  const seed = readSeed(task.seed);
  return {
    ...completedTask(task.output?.data ?? []),
    ...reported,
    ...(seed === undefined ? {} : { seed }),
  };
}

function pendingTask(
  task: CanonicalTask,
  state: 'queued' | 'running' | 'unknown',
  reported: { reportedModel?: string },
): ServiceTask {
  const progress = readProgress(task.progress);
  const queuePosition = readQueuePosition(task.queuePosition);
  const word = state === 'unknown' && typeof task.word === 'string' ? cleanText(task.word, 60) : '';
  return {
    status: 'processing',
    // `running` is what `processing` always meant; only the other two say more.
    ...(state === 'running' ? {} : { phase: state }),
    ...reported,
    ...(progress === undefined ? {} : { progress }),
    ...(queuePosition === undefined ? {} : { queuePosition }),
    ...(word === '' ? {} : { word }),
  };
}

/**
 * The images of a completed task: the first {@link MAX_IMAGES_PER_TASK} entries, each looked at
 * once (a listing of 10,000 costs no more than its first entries), the rest counted in a notice.
 */
function completedTask(entries: readonly { url?: string | undefined }[]): CompletedTask {
  const kept = entries.slice(0, MAX_IMAGES_PER_TASK);
  const refusedImages: Record<number, string> = {};
  const refusedImageSentences: Record<number, Sentence> = {};
  const overLong = sentence('error.service.imageUrlOverLong', { max: MAX_URL_CHARS });
  const imageUrls = kept.map((entry, index) => {
    const url = entry.url?.trim() ?? '';
    if (url.length <= MAX_URL_CHARS) return url === '' ? null : url;
    refusedImages[index] = englishText(overLong);
    refusedImageSentences[index] = overLong;
    return null;
  });
  const notice =
    entries.length > kept.length
      ? sentence('error.service.tooManyImages', {
          count: entries.length,
          kept: MAX_IMAGES_PER_TASK,
        })
      : null;
  return {
    status: 'completed',
    imageUrls,
    ...(Object.keys(refusedImages).length > 0 ? { refusedImages, refusedImageSentences } : {}),
    ...(notice ? { notice: englishText(notice), noticeSentence: notice } : {}),
  };
}
