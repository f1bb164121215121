/**
 * A record read from a file anyone could have written (a gallery folder's sidecar, an exported
 * archive) keeps its facts, not its words. A task's or an image's error is shown by Pictor as its
 * own sentence, in the window and on the command line; a crafted one could be any catalogue
 * sentence with values of the file's choosing, or any text ("your key expired: set the key of
 * evil.example in Settings", a command to paste with SERVICE_API_KEY set), naming a service the
 * user never chose. So the task's error keeps its kind and says in Pictor's words only that it
 * ended with an error before it came; an image's error goes (its state stays).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence } from '../../../shared/i18n/sentence';

const IMPORTED_TASK_ERROR = sentence('error.library.importedTaskError');

/** `record` without the words of its file (see the file's comment). */
export function withoutFileWords(record: TaskRecord): TaskRecord {
  const images = record.images.map(
    ({ error: _error, errorSentence: _sentence, ...image }) => image,
  );
  const error = record.error && {
    kind: record.error.kind,
    message: englishText(IMPORTED_TASK_ERROR),
    sentence: IMPORTED_TASK_ERROR,
  };
  return { ...record, error, images };
}
