/**
 * Turning a 200 body into what the app uses. Every byte goes through a schema; whatever does
 * not fit becomes a `protocol` error with a short excerpt and the schema's complaint.
 */
import type { z } from 'zod';
import {
  cleanText,
  normaliseTask,
  readReportedModel,
  submitResponseSchema,
  taskResponseSchema,
} from '../../../shared/service/wire';
import type { CompletedTask, ServiceTask } from '../../../shared/service/wire';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { bodyExcerpt, parseJson } from './http-response';
import { carriesKey } from './key-echo';
import { redactBody, redactText } from './request-guard';
import { ServiceError } from './service-error';
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

function badBody(op: ServiceOperation, text: string, key: string, problem: string): ServiceError {
  // Redact before shortening, so a key cut in half by the excerpt cannot survive.
  return errorForBadBody(
    op,
    cleanText(`HTTP 200; ${problem}; body: ${bodyExcerpt(redactText(text, key))}`, 600),
  );
}

function parseWith<T>(op: ServiceOperation, text: string, key: string, schema: z.ZodType<T>): T {
  if (text.trim() === '') throw badBody(op, text, key, 'empty body');
  const json = parseJson(text);
  if (!json.ok) throw badBody(op, text, key, 'not JSON');
  const parsed = schema.safeParse(json.value);
  if (!parsed.success)
    throw badBody(op, text, key, `unexpected shape (${issuesText(parsed.error)})`);
  return parsed.data;
}

/** The task id of a submit answer that carried the API key: refused, never kept. */
function keyInTaskId(text: string, key: string): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentence('error.service.keyInTaskId'),
    detail: cleanText(
      `HTTP 200; the task id carries the API key; body: ${bodyExcerpt(redactText(text, key))}`,
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
function reread<T>(scrubbed: string, schema: z.ZodType<T>): T | null {
  const json = parseJson(scrubbed);
  const parsed = json.ok ? schema.safeParse(json.value) : null;
  return parsed?.success ? parsed.data : null;
}

/**
 * The model the body reports, kept only when it is a usable name (see `readReportedModel`) and
 * carries no part of the key: not in itself, and not as half of an echo split with the next
 * field (the model read again from the scrubbed body must be the same).
 */
function reportedModelOf(found: unknown, text: string, key: string): string | undefined {
  const model = readReportedModel(found);
  if (model === undefined || carriesKey(model, key)) return undefined;
  const scrubbed = redactBody(text, key);
  if (scrubbed === text) return model;
  const json = parseJson(scrubbed);
  const again =
    json.ok && typeof json.value === 'object' && json.value !== null
      ? readReportedModel((json.value as Record<string, unknown>)['model'])
      : undefined;
  return again === model ? model : undefined;
}

/** `task` with its reported model checked against the key (dropped when it carried any). */
function withCheckedModel(task: ServiceTask, text: string, key: string): ServiceTask {
  if (task.reportedModel === undefined) return task;
  const { reportedModel: _unchecked, ...rest } = task;
  const model = reportedModelOf(task.reportedModel, text, key);
  return model === undefined ? rest : { ...rest, reportedModel: model };
}

/**
 * Reads a submit's 200 body: an object with a usable task id. An id that carries the key (in
 * any encoding, or together with the next field) is refused: a stored id is written to the
 * history, the sidecar and the screen.
 * @throws ServiceError of kind `protocol` (the task may have been created).
 */
export function parseSubmitAnswer(
  text: string,
  key: string,
): { id: string; reportedModel?: string } {
  const answer = parseWith('submit', text, key, submitResponseSchema);
  const { id } = answer;
  const scrubbed = redactBody(text, key);
  if (scrubbed !== text && reread(scrubbed, submitResponseSchema)?.id !== id)
    throw keyInTaskId(text, key);
  const model = reportedModelOf(answer['model'], text, key);
  try {
    return { id: checkTaskId(id), ...(model === undefined ? {} : { reportedModel: model }) };
  } catch (error) {
    const why = error instanceof ServiceError ? error.message : 'unusable id';
    throw badBody('submit', text, key, `task id Pictor cannot use (${why})`);
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

/**
 * Reads a task query's 200 body and normalises it. Whatever the body says is read twice: as
 * sent and with the key scrubbed from it (as written and inside every escape, see key-echo.ts).
 * A failed task's reason comes from the scrubbed body (withheld when that no longer reads); an
 * image URL that differs between the two carried the key and is refused.
 * @throws ServiceError of kind `protocol`.
 */
export function parseTaskAnswer(text: string, key: string): ServiceTask {
  return withCheckedModel(readTaskAnswer(text, key), text, key);
}

function readTaskAnswer(text: string, key: string): ServiceTask {
  const task = parseWith('query', text, key, taskResponseSchema);
  if (task.status === 'processing') return normaliseTask(task);
  const scrubbed = redactBody(text, key);
  if (scrubbed === text) return normaliseTask(task);
  const clean = reread(scrubbed, taskResponseSchema);
  if (task.status === 'completed') {
    const normalised = normaliseTask(task);
    const cleaned = clean ? normaliseTask(clean) : null;
    return normalised.status === 'completed' ? withoutKeyedUrls(normalised, cleaned) : normalised;
  }
  if (clean?.status !== 'failed') {
    return { status: 'failed', message: englishText(WITHHELD), sentence: WITHHELD };
  }
  const normalised = normaliseTask({ ...task, error: clean.error });
  if (normalised.status !== 'failed') return normalised;
  return {
    status: 'failed',
    message: redactText(normalised.message, key),
    ...(normalised.sentence ? { sentence: normalised.sentence } : {}),
  };
}
