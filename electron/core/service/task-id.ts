/**
 * Task ids come from the service or are pasted by a user; either way they end up in a URL path
 * that carries the key, so they are checked here and always percent-encoded by the client.
 */
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { TASK_ID_CONTROL } from '../../../shared/domain/limits';
import { carriesKey, type SecretKeys } from '../secrets';
import { hasHiddenDotSegment } from './base-url-path';
import { ServiceError } from './service-error';

export const MAX_TASK_ID_LENGTH = 256;

const WHITESPACE = /\s/;

function refuse(reason: Sentence): never {
  throw new ServiceError({ kind: 'config', message: reason, mayHaveReachedService: false });
}

/**
 * Validates a task id: trimmed, 1..256 characters, no control characters (bidi ones included), no whitespace inside,
 * no `.` or `..` part (even percent-encoded, either slash, or before a `;parameters`) and
 * encodable (no lone surrogates).
 * @returns the trimmed id.
 * @throws ServiceError of kind `config` with a sentence saying what is wrong.
 */
export function checkTaskId(id: string): string {
  const trimmed = typeof id === 'string' ? id.trim() : '';
  if (trimmed === '') refuse(sentence('error.service.taskIdEmpty'));
  if (trimmed.length > MAX_TASK_ID_LENGTH) {
    refuse(sentence('error.service.taskIdTooLong', { max: MAX_TASK_ID_LENGTH }));
  }
  // The one rule a stored record's id is held to too (shared/domain/limits.ts).
  if (TASK_ID_CONTROL.test(trimmed)) refuse(sentence('error.service.taskIdControl'));
  if (WHITESPACE.test(trimmed)) refuse(sentence('error.service.taskIdSpaces'));
  // URL parsers collapse "." and ".." (even percent-encoded) as path segments: /v1/tasks/.. is
  // /v1/. And a gateway that decodes %2F before routing reads "../x" (sent as ..%2Fx) as a step
  // back out of the base URL the key is bound to.
  if (hasHiddenDotSegment(trimmed)) refuse(sentence('error.service.taskIdDots'));
  try {
    encodeURIComponent(trimmed);
  } catch {
    refuse(sentence('error.service.taskIdUnsendable'));
  }
  return trimmed;
}

/**
 * A task id the user typed to track (the window's "Track a task", the CLI's `track`), checked by
 * {@link checkTaskId}, and refused when it carries any of `keys` (keysToFind's: every key the
 * process holds) in any encoding the key search knows: no service answered it, so no answer
 * check reads it, and it would be kept in the history, a plaintext file.
 * @returns the trimmed id.
 * @throws ServiceError of kind `config` whose sentence names neither the id nor the key.
 */
export function checkTypedTaskId(id: string, keys: SecretKeys): string {
  const taskId = checkTaskId(id);
  if (carriesKey(taskId, keys)) refuse(sentence('error.service.taskIdCarriesKey'));
  return taskId;
}

/** The path of a task under the base URL; the id cannot leave /v1/tasks/. */
export function taskPath(id: string): string {
  return `/v1/tasks/${encodeURIComponent(checkTaskId(id))}`;
}
