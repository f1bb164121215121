/**
 * What a completed answer says about its images beside their URLs: why an entry has none (the
 * service client's refusal, with its sentence), and the answer's notice for the task.
 */
import type { TaskError } from '../../../shared/domain/task-record';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { CompletedTask } from '../../../shared/service/wire';

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
export function refusedImage(task: CompletedTask, index: number): ImageFailure {
  const refused = task.refusedImages?.[index];
  if (refused === undefined) return failure(NO_ADDRESS);
  const said = (task as AnswerSentences).refusedImageSentences?.[index];
  return said === undefined ? { error: refused } : { error: refused, errorSentence: said };
}

/** The answer's notice on the task (the images listed beyond what a task keeps). */
export function noticeOf(task: CompletedTask & { readonly notice: string }): TaskError {
  const said = (task as AnswerSentences).noticeSentence;
  return said === undefined
    ? { kind: 'protocol', message: task.notice }
    : { kind: 'protocol', message: task.notice, sentence: said };
}
