/**
 * The one check of a record on its way into the history (history-records.ts): what could not be
 * read back is refused with its sentence; stars follow the one-favourite rule, and tags and boards
 * are checked (shared/domain/triage-edits.ts).
 */
import { withFavourites } from '../../../shared/domain/favourites';
import { taskRecordSchema, type TaskRecord } from '../../../shared/domain/task-record';
import { recordWithCleanTriage } from '../../../shared/domain/triage-edits';
import { sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';

/**
 * Refuses to store what could not be read back; stores stars by the one-favourite rule and tags
 * and boards checked (shared/domain/triage-edits.ts).
 */
export function validate(record: TaskRecord): TaskRecord {
  const parsed = taskRecordSchema().safeParse(record);
  if (parsed.success) return withFavourites(recordWithCleanTriage(parsed.data));
  throw new HistoryError(sentence('error.library.historyRecordInvalid'), {
    detail: parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; '),
  });
}
