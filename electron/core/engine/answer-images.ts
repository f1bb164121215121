/**
 * What a completed answer says about its images: their first records (pending with their URL,
 * or invalid with why an entry has none: the service client's refusal, with its sentence), and
 * the answer's notice for the task.
 */
import type { ImageRecord, TaskError } from '../../../shared/domain/task-record';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { CompletedTask } from '../../../shared/service/wire';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { importedLocalMessage, IMPORTED_LOCAL_SENTENCE, isImportedLocal } from '../credentials';
import type { FailedOutcome } from '../download';
import { imageHostRefusal } from '../service';
import { inlineTokenHash } from '../../../shared/service/inline-token';

const NO_ADDRESS = sentence('error.library.imageNoAddress');

/** An image's failure: its text, and its catalogue sentence when it has one. */
export interface ImageFailure {
  readonly error: string;
  readonly errorSentence?: Sentence | undefined;
}

/** `said` as an image's failure. */
export function failure(said: Sentence): ImageFailure {
  return { error: englishText(said), errorSentence: said };
}

/** The sentences an answer may carry beside its texts (shared/service/wire.ts). */
interface AnswerSentences {
  readonly refusedImageSentences?: Readonly<Record<number, Sentence>>;
  readonly noticeSentence?: Sentence;
}

/**
 * Why an entry of the answer has no address: the service client's refusal (with its sentence
 * when it has one), else none was listed.
 */
function refusedImage(task: CompletedTask, index: number): ImageFailure {
  const refused = task.refusedImages?.[index];
  if (refused === undefined) return failure(NO_ADDRESS);
  const said = (task as AnswerSentences).refusedImageSentences?.[index];
  return said === undefined ? { error: refused } : { error: refused, errorSentence: said };
}

/**
 * The images of the answer as first recorded. Each is in the board the task was submitted into
 * ("Generate into": request-check.ts's checkInto), in this same write: the write of a record makes
 * the boards its images name, so an image is in its board the moment it is in the gallery, and
 * in one of that path again when the board was deleted or renamed while the task ran.
 */
export function answeredImages(record: TaskRecord, task: CompletedTask): ImageRecord[] {
  const boards = record.board === undefined ? {} : { boards: [record.board] };
  return task.imageUrls.map((url, index): ImageRecord => ({
    index,
    ...(url ? { url, state: 'pending' } : { url: null, state: 'invalid' }),
    attempts: 0,
    favourite: false,
    ...(url ? {} : refusedImage(task, index)),
    ...boards,
  }));
}

/** The answer's notice on the task (the images listed beyond what a task keeps). */
export function noticeOf(task: CompletedTask & { readonly notice: string }): TaskError {
  const said = (task as AnswerSentences).noticeSentence;
  return said === undefined
    ? { kind: 'protocol', message: task.notice }
    : { kind: 'protocol', message: task.notice, sentence: said };
}

/**
 * An image not to ask for at all: a record imported from a folder that names this computer, or
 * an image host that is not one of its provider's (service/providers/media-hosts.ts).
 */
export function refusedBeforeDownload(
  record: TaskRecord,
  url: string | null,
  baseUrl: string,
): FailedOutcome | null {
  if (isImportedLocal(record)) {
    return {
      state: 'invalid',
      error: importedLocalMessage(),
      errorSentence: IMPORTED_LOCAL_SENTENCE,
    };
  }
  // An image sent inline comes from its spool file, not from any host.
  const refusal =
    url === null || inlineTokenHash(url) !== null
      ? null
      : imageHostRefusal(record.provider, url, baseUrl);
  return refusal === null ? null : { state: 'invalid', ...failure(refusal) };
}
