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
import { redactText, redactValue } from './request-guard';
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

/**
 * Reads a task query's 200 body and normalises it. A failed task's reason comes from the
 * server, so the key is scrubbed from it before it is shortened into a message.
 * @throws ServiceError of kind `protocol`.
 */
export function parseTaskAnswer(text: string, key: string): ServiceTask {
  const task = parseWith('query', text, key, taskResponseSchema);
  if (task.status !== 'failed') return normaliseTask(task);
  const normalised = normaliseTask({ ...task, error: redactValue(task.error, key) });
  return normalised.status === 'failed'
    ? { status: 'failed', message: redactText(normalised.message, key) }
    : normalised;
}
