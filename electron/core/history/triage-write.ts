/**
 * A record whose change is triage alone (a rating, a flag, a star, tags, boards), written as
 * such: the task row's record, star and time, and the changed images' triage columns, instead of
 * the whole row and every image row again. Every other column and index entry stays as it is,
 * which is what makes rating 10,000 images one short transaction (the "Triage at a million
 * tasks" row of docs/PERFORMANCE.md). Anything else that differs (triage-change.ts, the same
 * comparison that lets such a change skip the record schema) takes the full write.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { foldName } from '../../../shared/domain/triage';
import type { SqliteConnection } from './sqlite-connection';
import { rememberCheckedText } from './checked-texts';
import { onlyTriageChanged } from './triage-change';
import { triageColumns, writeTriageRows } from './triage-rows';

// Each sets only what changed: an index whose columns an UPDATE does not name is not touched.
const UPDATE_TASK_RECORD = 'UPDATE tasks SET updated_at = ?, record = ? WHERE local_id = ?';
const UPDATE_TASK_STAR =
  'UPDATE tasks SET favourite = ?, updated_at = ?, record = ? WHERE local_id = ?';
const UPDATE_IMAGE_RATING = 'UPDATE images SET rating = ? WHERE local_id = ? AND idx = ?';
const UPDATE_IMAGE_TRIAGE =
  'UPDATE images SET favourite = ?, rating = ?, flag = ? WHERE local_id = ? AND idx = ?';

const keys = (list: readonly string[] | undefined) => (list ?? []).map(foldName).join('\n');

/**
 * Writes `next` over `stored` as a triage change when that is all it is (see the file's
 * comment); false, having written nothing, when it is more. `known`: the caller has just found
 * so (`onlyTriageChanged` need not look again).
 */
export function writeTriageOnly(
  connection: SqliteConnection,
  stored: TaskRecord,
  next: TaskRecord,
  known = false,
): boolean {
  if (!known && !onlyTriageChanged(stored, next)) return false;
  const text = JSON.stringify(next);
  // `next` is checked as history-records.ts's `imagesOnly` checks a triage change.
  rememberCheckedText(text);
  if (next.favourite === stored.favourite) {
    connection.run(UPDATE_TASK_RECORD, [next.updatedAt, text, next.localId]);
  } else {
    connection.run(UPDATE_TASK_STAR, [next.favourite ? 1 : 0, next.updatedAt, text, next.localId]);
  }
  let listsChanged = false;
  next.images.forEach((image, position) => {
    const before = stored.images[position] ?? image;
    listsChanged ||= differ(before, image);
    const [rating, flag] = triageColumns(image);
    const [ratingBefore, flagBefore] = triageColumns(before);
    if (image.favourite === before.favourite && flag === flagBefore) {
      if (rating !== ratingBefore) {
        connection.run(UPDATE_IMAGE_RATING, [rating, next.localId, position]);
      }
      return;
    }
    connection.run(UPDATE_IMAGE_TRIAGE, [
      image.favourite ? 1 : 0,
      rating,
      flag,
      next.localId,
      position,
    ]);
  });
  if (listsChanged) writeTriageRows(connection, next, next.updatedAt);
  return true;
}

function differ(before: ImageRecord, after: ImageRecord): boolean {
  return keys(before.tags) !== keys(after.tags) || keys(before.boards) !== keys(after.boards);
}
