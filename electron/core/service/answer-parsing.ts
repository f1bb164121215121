/**
 * Turning a 200 body into what the app uses. Every byte goes through a schema; whatever does
 * not fit becomes a `protocol` error with a short excerpt and the schema's complaint.
 */
import type { z } from 'zod';
import {
  cleanText,
  normaliseTask,
  submitResponseSchema,
  taskResponseSchema,
} from '../../../shared/service/wire';
import type { ServiceTask } from '../../../shared/service/wire';
import { bodyExcerpt, parseJson } from './http-response';
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

/**
 * Reads a submit's 200 body: an object with a usable task id.
 * @throws ServiceError of kind `protocol` (the task may have been created).
 */
export function parseSubmitAnswer(text: string, key: string): { id: string } {
  const { id } = parseWith('submit', text, key, submitResponseSchema);
  try {
    return { id: checkTaskId(id) };
  } catch (error) {
    const why = error instanceof ServiceError ? error.message : 'unusable id';
    throw badBody('submit', text, key, `task id Pictor cannot use (${why})`);
  }
}

const WITHHELD = {
  message: 'The service reported a failure; its message contained the API key, so it is not shown.',
};

/**
 * A failed task's error, read again from the body with the key scrubbed as the server wrote it
 * and inside every decoded string (redactBody, as for an error body): once the JSON is read, an
 * echoed key's escapes (`\u0073k-…`, `\/`) have become other characters, and a message cut to
 * length could keep part of it. Withheld when the scrubbed body no longer reads.
 */
function errorAsWritten(text: string, key: string, error: unknown): unknown {
  const scrubbed = redactBody(text, key);
  if (scrubbed === text) return error;
  const json = parseJson(scrubbed);
  const reread = json.ok ? taskResponseSchema.safeParse(json.value) : null;
  return reread?.success && reread.data.status === 'failed' ? reread.data.error : WITHHELD;
}

/**
 * Reads a task query's 200 body and normalises it. A failed task's reason comes from the
 * server, so the key is scrubbed from it before it is shortened into a message.
 * @throws ServiceError of kind `protocol`.
 */
export function parseTaskAnswer(text: string, key: string): ServiceTask {
  const task = parseWith('query', text, key, taskResponseSchema);
  if (task.status !== 'failed') return normaliseTask(task);
  const normalised = normaliseTask({ ...task, error: errorAsWritten(text, key, task.error) });
  return normalised.status === 'failed'
    ? { status: 'failed', message: redactText(normalised.message, key) }
    : normalised;
}
