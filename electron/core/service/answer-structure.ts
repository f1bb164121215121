/**
 * What the structural bounds of an answer (answer-limits.ts, enforced by answer-scan.ts) say
 * when an answer passes one, and the checks made after the profile read it: the images it lists
 * (the canonical `output.data`) are within the same bound whatever list they came from, and a
 * placeholder the profile put where text is shown reads as what it stands for.
 */
import type { CanonicalTask, ServiceTask } from '../../../shared/service/wire';
import { MAX_ANSWER_DEPTH, MAX_ANSWER_ENTRIES } from './answer-limits';
import type { ScanFault } from './answer-scan';
import { namedPlaceholders } from './inline-taken';
import { ServiceError } from './service-error';
import { errorForBadBody, sentenceFor, type ServiceOperation } from './status-errors';

/** An answer with a list longer than Pictor reads: refused, with its own sentence. */
function errorForTooManyEntries(op: ServiceOperation, where: string, max: number): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentenceFor(
      op,
      'error.service.answerTooManyEntriesSubmit',
      'error.service.answerTooManyEntriesQuery',
      { max },
    ),
    detail: `HTTP 200; ${where} lists more than ${max} entries; Pictor stopped reading it.`,
    httpStatus: 200,
    mayHaveReachedService: true,
  });
}

/**
 * The error of an answer its structure refused (`maxBytes`: the limit of everything in it but
 * the inline payloads it may carry, `takeOut`: whether it may carry them, `maxEntries`: its
 * lists' bound where it is not the usual one).
 */
export function errorForStructure(
  op: ServiceOperation,
  fault: ScanFault,
  limits: { readonly maxBytes: number; readonly takeOut: boolean; readonly maxEntries?: number },
): ServiceError {
  switch (fault) {
    case 'tooManyEntries':
      return errorForTooManyEntries(op, 'a list', limits.maxEntries ?? MAX_ANSWER_ENTRIES);
    case 'tooDeep':
      return errorForBadBody(
        op,
        `HTTP 200; nested more than ${MAX_ANSWER_DEPTH} levels deep; Pictor stopped reading it.`,
      );
    case 'malformed':
      return errorForBadBody(op, 'HTTP 200; not JSON (a string JSON does not allow)');
    case 'tooLarge':
      return errorForBadBody(
        op,
        limits.takeOut
          ? `HTTP 200 body larger than ${limits.maxBytes} bytes besides its inline images; Pictor stopped reading it.`
          : `HTTP 200 body larger than ${limits.maxBytes} bytes; Pictor stopped reading it.`,
      );
  }
}

/**
 * @throws ServiceError when the answer, as its profile read it, lists more images than any list
 *   of an answer may hold, `max` (a profile that built the list from something else than a list).
 */
export function checkEntryCount(task: CanonicalTask, max = MAX_ANSWER_ENTRIES): void {
  const count = task.output?.data?.length ?? 0;
  if (count > max) throw errorForTooManyEntries('query', 'output.data', max);
}

/** `task` with any placeholder in its shown text (a failure's reason, a status word) named. */
export function withPlaceholdersNamed(task: ServiceTask): ServiceTask {
  if (task.status === 'failed' && task.message.includes('pictor-inline:')) {
    return { ...task, message: namedPlaceholders(task.message) };
  }
  if (task.status === 'processing' && task.word?.includes('pictor-inline:')) {
    return { ...task, word: namedPlaceholders(task.word) };
  }
  return task;
}
