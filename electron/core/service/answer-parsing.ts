/**
 * Turning a 200 body into what the app uses. Every byte goes through a schema; whatever does
 * not fit becomes a `protocol` error with a short excerpt and the schema's complaint.
 */
import type { z } from 'zod';
import { z as zod } from 'zod';
import { DOWNLOAD_MAX_IMAGE_BYTES, MAX_URL_CHARS } from '../../../shared/domain/limits';
import {
  canonicalTaskSchema,
  cleanText,
  normaliseCanonical,
  readReportedModel,
  submitResponseSchema,
} from '../../../shared/service/wire';
import type { CanonicalTask, CompletedTask, ServiceTask } from '../../../shared/service/wire';
import { takeInline, textWithoutInline, withInlineImages } from './inline-answer';
import { checkEntryCount, withPlaceholdersNamed } from './answer-structure';
import type { TakenPayloads } from './inline-taken';
import type { TaskHandles } from './providers/provider-profile';
import { pictorProfile } from './providers/pictor';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { bodyExcerpt, parseJson } from './http-response';
import { carriesKey, type SecretKeys } from '../secrets';
import { redactBody, redactText } from './request-guard';
import { ServiceError } from './service-error';
import { withCommonReason } from './failure-reason';
import type { Reading } from './reading';
import { errorForBadBody } from './status-errors';
import type { ServiceOperation } from './status-errors';
import { checkTaskId } from './task-id';

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map(
      (issue) =>
        `${issue.path.length ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`,
    )
    .join('; ');
}

/**
 * The start of a body that an excerpt is made from: a large answer (one that may carry images
 * inline runs to tens of megabytes) is not scanned whole for a 200-character excerpt. The finder
 * scrubs any run of 12 of the key's characters, so a key cut at this edge cannot survive either.
 */
const EXCERPT_SOURCE_CHARS = 64 * 1024;

function badBody(
  op: ServiceOperation,
  text: string,
  keys: SecretKeys,
  problem: string,
): ServiceError {
  const head = text.length > EXCERPT_SOURCE_CHARS ? text.slice(0, EXCERPT_SOURCE_CHARS) : text;
  // Redact before shortening, so a key cut in half by the excerpt cannot survive.
  return errorForBadBody(
    op,
    cleanText(`HTTP 200; ${problem}; body: ${bodyExcerpt(redactText(head, keys))}`, 600),
  );
}

/** A profile reads objects; anything else goes to the schema as it is, to be refused there. */
function readObject(read: Reading, value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? read(value) : value;
}

/** What a body must be once read: the schema, after the profile's reading. */
interface Shape<T> {
  readonly schema: z.ZodType<T>;
  readonly read: Reading;
}

/** The body as `shape` reads it, and the JSON it was read from. */
function parseBody<T>(
  op: ServiceOperation,
  text: string,
  keys: SecretKeys,
  shape: Shape<T>,
): { data: T; json: unknown } {
  const { schema, read } = shape;
  if (text.trim() === '') throw badBody(op, text, keys, 'empty body');
  const json = parseJson(text);
  if (!json.ok) throw badBody(op, text, keys, 'not JSON');
  const parsed = schema.safeParse(readObject(read, json.value));
  if (!parsed.success)
    throw badBody(op, text, keys, `unexpected shape (${issuesText(parsed.error)})`);
  return { data: parsed.data, json: json.value };
}

/**
 * A submit answer whose task id (`id`) or a task address (`address`) carried the API key: refused
 * with the answer, never kept.
 */
function keyInAnswer(where: 'id' | 'address', text: string, keys: SecretKeys): ServiceError {
  const what = where === 'id' ? 'the task id carries' : 'a task address carries';
  const said = where === 'id' ? 'error.service.keyInTaskId' : 'error.service.keyInTaskAddress';
  return new ServiceError({
    kind: 'protocol',
    message: sentence(said),
    detail: cleanText(
      `HTTP 200; ${what} the API key; body: ${bodyExcerpt(redactText(text, keys))}`,
      600,
    ),
    httpStatus: 200,
    mayHaveReachedService: true,
    refusedAnswer: true,
  });
}

/** What an image whose address carried the API key says in its place (and its English text). */
export const KEY_IN_IMAGE_URL_SENTENCE = sentence('error.service.keyInImageUrl');
export const KEY_IN_IMAGE_URL = englishText(KEY_IN_IMAGE_URL_SENTENCE);

/**
 * The body read again after the key was scrubbed from it (see key-echo.ts), or `null` when the
 * scrubbed body no longer fits the schema (an echo that took the JSON's structure with it).
 * Comparing a field before and after tells whether the field carried part of an echo: detection
 * and scrubbing are the same search, so they cannot disagree.
 */
function reread<T>(scrubbed: string, schema: z.ZodType<T>, read: Reading): T | null {
  const json = parseJson(scrubbed);
  const parsed = json.ok ? schema.safeParse(readObject(read, json.value)) : null;
  return parsed?.success ? parsed.data : null;
}

/**
 * The model the body reports, kept only when it is a usable name (see `readReportedModel`) and
 * carries no part of the key: not in itself, and not as half of an echo split with the next
 * field (the model read again from the scrubbed body must be the same).
 */
function reportedModelOf(
  found: unknown,
  text: string,
  keys: SecretKeys,
  read: Reading,
): string | undefined {
  const model = readReportedModel(found);
  if (model === undefined || carriesKey(model, keys)) return undefined;
  const scrubbed = redactBody(text, keys);
  if (scrubbed === text) return model;
  const json = parseJson(scrubbed);
  const value = json.ok ? readObject(read, json.value) : undefined;
  const again =
    typeof value === 'object' && value !== null
      ? readReportedModel((value as Record<string, unknown>)['model'])
      : undefined;
  return again === model ? model : undefined;
}

/** `task` with its reported model checked against the key (dropped when it carried any). */
function withCheckedModel(
  task: ServiceTask,
  text: string,
  keys: SecretKeys,
  read: Reading,
): ServiceTask {
  if (task.reportedModel === undefined) return task;
  const { reportedModel: _unchecked, ...rest } = task;
  const model = reportedModelOf(task.reportedModel, text, keys, read);
  return model === undefined ? rest : { ...rest, reportedModel: model };
}

/** A submit answer as a profile reads it: the id, the task's addresses, the model. */
const submitReadingSchema = submitResponseSchema().extend({
  poll: zod.string().trim().min(1).max(MAX_URL_CHARS).optional().catch(undefined),
  result: zod.string().trim().min(1).max(MAX_URL_CHARS).optional().catch(undefined),
  cancel: zod.string().trim().min(1).max(MAX_URL_CHARS).optional().catch(undefined),
});

/** Today's contract's submit answer as it is: `id`, `model`. */
const CONTRACT_SUBMIT: Reading = (json) => json;

/** What a submit answer gave: the checked id, the task's addresses and the reported model. */
export interface SubmitAnswer {
  readonly id: string;
  readonly reportedModel?: string;
  readonly handles?: TaskHandles;
}

const HANDLE_NAMES = ['poll', 'result', 'cancel'] as const;

/**
 * Reads a submit's 200 body (as `read`, a profile's reading, turns it into `{id, model, poll,
 * result, cancel}`): an object with a usable task id. An id or a task address that carries the
 * key (in any encoding, or together with the next field) is refused: a stored id is written to
 * the history, the sidecar and the screen, and an address is where the next request goes.
 * Returns the answer and the JSON it was read from (parsed once: the answer's cost is read from
 * the same value, profile-answers.ts).
 * @throws ServiceError of kind `protocol` (the task may have been created).
 */
export function readSubmitAnswer(
  text: string,
  keys: SecretKeys,
  read: Reading = CONTRACT_SUBMIT,
): { answer: SubmitAnswer; json: unknown } {
  const parsed = parseBody('submit', text, keys, { schema: submitReadingSchema, read });
  return { answer: checkedSubmitAnswer(parsed.data, text, keys, read), json: parsed.json };
}

/** The submit answer `answer` (read from `text`), refused when its id or an address carries the key. */
function checkedSubmitAnswer(
  answer: z.infer<typeof submitReadingSchema>,
  text: string,
  keys: SecretKeys,
  read: Reading,
): SubmitAnswer {
  const { id } = answer;
  const scrubbed = redactBody(text, keys);
  if (scrubbed !== text) {
    const again = reread(scrubbed, submitReadingSchema, read);
    if (again?.id !== id) throw keyInAnswer('id', text, keys);
    if (HANDLE_NAMES.some((name) => again[name] !== answer[name])) {
      throw keyInAnswer('address', text, keys);
    }
  }
  if (HANDLE_NAMES.some((name) => answer[name] !== undefined && carriesKey(answer[name], keys))) {
    throw keyInAnswer('address', text, keys);
  }
  const model = reportedModelOf(answer['model'], text, keys, read);
  const handles: { poll?: string; result?: string; cancel?: string } = {};
  for (const name of HANDLE_NAMES) {
    const value = answer[name];
    if (value !== undefined) handles[name] = value;
  }
  try {
    return {
      id: checkTaskId(id),
      ...(model === undefined ? {} : { reportedModel: model }),
      ...(Object.keys(handles).length === 0 ? {} : { handles }),
    };
  } catch (error) {
    const why = error instanceof ServiceError ? error.message : 'unusable id';
    throw badBody('submit', text, keys, `task id Pictor cannot use (${why})`);
  }
}

/** A failure whose reason carried the key, read as a failure without one. */
const WITHHELD = sentence('error.service.failureWithheld');

/** Each image URL that changed when the key was scrubbed carried part of it: refused. */
function withoutKeyedUrls(task: CompletedTask, clean: ServiceTask | null): CompletedTask {
  const cleanUrls = clean?.status === 'completed' ? clean.imageUrls : [];
  const refusedImages: Record<number, string> = { ...task.refusedImages };
  const refusedImageSentences: Record<number, Sentence> = { ...task.refusedImageSentences };
  const imageUrls = task.imageUrls.map((url, index) => {
    if (url === null || cleanUrls[index] === url) return url;
    refusedImages[index] = KEY_IN_IMAGE_URL;
    refusedImageSentences[index] = KEY_IN_IMAGE_URL_SENTENCE;
    return null;
  });
  if (Object.keys(refusedImages).length === Object.keys(task.refusedImages ?? {}).length)
    return task;
  return { ...task, imageUrls, refusedImages, refusedImageSentences };
}

/** A seed that changed when the key was scrubbed carried part of it: dropped, the task kept. */
function withoutKeyedSeed(task: CompletedTask, clean: ServiceTask | null): CompletedTask {
  if (task.seed === undefined) return task;
  if (clean?.status === 'completed' && clean.seed === task.seed) return task;
  const { seed: _dropped, ...rest } = task;
  return rest;
}

/**
 * Today's contract's task answer in canonical states (providers/pictor.ts): its answer is the
 * one task asked about, read whole, so no id is needed to find it.
 */
const CONTRACT_TASK: Reading = (json) => pictorProfile.readPoll(json, '');

/**
 * Reads a task query's 200 body (as `profileRead`, a profile's reading, puts it into the
 * canonical shape, with the reason of an ended task found as failure-reason.ts says) and
 * normalises it. Whatever the body says is read twice: as sent and with the key
 * scrubbed from it (as written and inside every escape, see key-echo.ts). A failed task's reason
 * comes from the scrubbed body (withheld when that no longer reads); an image URL that differs
 * between the two carried the key and is refused. Returns the task and the JSON it was read from
 * (parsed once: an answer may run to tens of megabytes of inline images, and its cost is read
 * from the same value).
 * @throws ServiceError of kind `protocol`.
 */
export function readTaskAnswer(
  text: string,
  keys: SecretKeys,
  profileRead: Reading = CONTRACT_TASK,
  inline: number | TaskAnswerOptions = DOWNLOAD_MAX_IMAGE_BYTES,
): { task: ServiceTask; json: unknown } {
  const {
    maxBytes = DOWNLOAD_MAX_IMAGE_BYTES,
    taken,
    ownAnswer,
    maxEntries,
  } = typeof inline === 'number' ? { maxBytes: inline } : inline;
  // Every profile's reading, with the one fallback for a reason where its document says none.
  const read = withCommonReason(profileRead, ownAnswer);
  const { data, json } = parseBody('query', text, keys, { schema: canonicalTaskSchema(), read });
  checkEntryCount(data, maxEntries);
  // Images sent inline leave the answer here, before anything else reads it (inline-answer.ts);
  // the key is then looked for in the answer without them (textWithoutInline says why).
  const { task, payloads, removed } = takeInline(data, taken);
  const checked = removed.size === 0 ? text : textWithoutInline(json, removed);
  const answer = normalisedTask(task, checked, { keys, read, taken });
  const completed =
    answer.status === 'completed' ? withInlineImages(answer, payloads, maxBytes) : answer;
  const named = taken === undefined ? completed : withPlaceholdersNamed(completed);
  return { task: withCheckedModel(named, checked, keys, read), json };
}

/**
 * How a task answer is read: its inline images' cap and what the answer's reader took, and where
 * its task's own part is.
 */
export interface TaskAnswerOptions {
  /** The most one image may decode to (the gallery's download cap). */
  readonly maxBytes?: number | undefined;
  /** The payloads the answer's reader took out of it as it arrived (answer-scan.ts). */
  readonly taken?: TakenPayloads | undefined;
  /** The part of the answer about its task (a profile's `ownAnswer`); the whole one if absent. */
  readonly ownAnswer?: Reading | undefined;
  /** The most images the answer may list (a profile's `listEntries`); the usual bound if absent. */
  readonly maxEntries?: number | undefined;
}

/** What the key is checked against in a task answer, and how it is read again without it. */
interface Check {
  readonly keys: SecretKeys;
  readonly read: Reading;
  readonly taken: TakenPayloads | undefined;
}

/** `task` (read from `text`) normalised, with whatever carried the key refused or withheld. */
function normalisedTask(task: CanonicalTask, text: string, check: Check): ServiceTask {
  const { keys, read } = check;
  const normalised = normaliseCanonical(task);
  if (normalised.status === 'processing') return withoutKeyedWord(normalised, keys);
  const scrubbed = redactBody(text, keys);
  if (scrubbed === text) return normalised;
  const clean = reread(scrubbed, canonicalTaskSchema(), read);
  if (normalised.status === 'completed') {
    const cleaned = clean ? normaliseCanonical(takeInline(clean, check.taken).task) : null;
    return withoutKeyedSeed(withoutKeyedUrls(normalised, cleaned), cleaned);
  }
  const cleanFailed = clean?.status === task.status ? normaliseCanonical(clean) : null;
  if (cleanFailed?.status !== 'failed') {
    return {
      status: 'failed',
      message: englishText(WITHHELD),
      sentence: WITHHELD,
      ...(normalised.outcome === undefined ? {} : { outcome: normalised.outcome }),
    };
  }
  return {
    status: 'failed',
    message: redactText(cleanFailed.message, keys),
    ...(cleanFailed.sentence ? { sentence: cleanFailed.sentence } : {}),
    ...(cleanFailed.outcome === undefined ? {} : { outcome: cleanFailed.outcome }),
  };
}

/** A status word shown for an unknown state never carries the key: it is dropped if it does. */
function withoutKeyedWord(task: ServiceTask, keys: SecretKeys): ServiceTask {
  if (task.status !== 'processing' || task.word === undefined || !carriesKey(task.word, keys)) {
    return task;
  }
  const { word: _dropped, ...rest } = task;
  return rest;
}
