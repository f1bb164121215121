/**
 * A change of triage alone (a rating, a flag, a star, tags, boards: triage-change.ts says which
 * changes are) written as such (from v16; an older file takes the record's full write). The rows
 * are triage's one home (triage-rows-schema.ts): the
 * task's star and time of change (columns, which also tell other processes of the change) and the
 * changed images' rows; the task's record JSON is not written. Every other column and index
 * entry stays as it is, which is what makes rating 10,000 images one short transaction (the
 * "Triage at a million tasks" row of docs/PERFORMANCE.md).
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { SqliteConnection } from './sqlite-connection';
import { imageTriageColumns } from './image-rows';
import { deleteImageLists, writeImageLists } from './triage-rows';

// Each sets only what changed: an index whose columns an UPDATE does not name is not touched.
const UPDATE_TASK_TIME = 'UPDATE tasks SET updated_at = ? WHERE local_id = ?';
const UPDATE_TASK_STAR_TIME = 'UPDATE tasks SET favourite = ?, updated_at = ? WHERE local_id = ?';
const UPDATE_IMAGE_ROW =
  'UPDATE images SET favourite = ?, rating = ?, flag = ?, triaged_at = ? WHERE local_id = ? AND idx = ?';

const names = (list: readonly string[] | undefined) => (list ?? []).join('\n');

/**
 * Writes `next` over `stored`, a change of triage alone (the caller found so: triage-change.ts),
 * into the triage rows only.
 */
export function writeTriageRowsOnly(
  connection: SqliteConnection,
  stored: TaskRecord,
  next: TaskRecord,
): void {
  const { localId } = next;
  if (next.favourite === stored.favourite) {
    connection.run(UPDATE_TASK_TIME, [next.updatedAt, localId]);
  } else {
    connection.run(UPDATE_TASK_STAR_TIME, [next.favourite ? 1 : 0, next.updatedAt, localId]);
  }
  next.images.forEach((image, idx) => {
    const before = stored.images[idx] ?? image;
    if (image === before) return;
    const columns = imageTriageColumns(image);
    if (columns.some((value, n) => value !== imageTriageColumns(before)[n])) {
      connection.run(UPDATE_IMAGE_ROW, [...columns, localId, idx]);
    }
    const listed = (record: ImageRecord) => `${names(record.tags)}\n\n${names(record.boards)}`;
    if (listed(image) !== listed(before)) {
      deleteImageLists(connection, localId, idx);
      writeImageLists(connection, localId, idx, image, next.updatedAt);
    }
  });
}
