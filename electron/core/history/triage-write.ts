/**
 * A change of triage alone (a rating, a flag, a star, tags, boards: triage-change.ts says which
 * changes are) written as such (from v16; an older file takes the record's full write). The rows
 * are triage's one home (triage-rows-schema.ts): the task's star (its column) or else its time of
 * change (`task_triage`), an entry in the change log (other processes learn of it), and the
 * changed images' rows; the task's record JSON is not written. Every other column and index
 * entry stays as it is, which is what makes rating 10,000 images one short transaction (the
 * "Triage at a million tasks" row of docs/PERFORMANCE.md).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { ImageTriage } from '../../../shared/domain/triage';
import type { SqliteConnection } from './sqlite-connection';
import { imageTriageColumns } from './image-rows';
import { deleteImageLists, writeImageLists } from './triage-rows';

// Each sets only what changed: an index whose columns an UPDATE does not name is not touched.
const UPSERT_TRIAGE_TIME = `INSERT INTO task_triage (local_id, updated_at) VALUES (?, ?)
  ON CONFLICT (local_id) DO UPDATE SET updated_at = excluded.updated_at`;
const LOG_CHANGE = 'INSERT INTO task_changes (local_id) VALUES (?)';
const UPDATE_IMAGE_RATING =
  'UPDATE images SET rating = ?, triaged_at = ? WHERE local_id = ? AND idx = ?';
const UPDATE_TASK_STAR_TIME = 'UPDATE tasks SET favourite = ?, updated_at = ? WHERE local_id = ?';
const UPDATE_IMAGE_ROW =
  'UPDATE images SET favourite = ?, rating = ?, flag = ?, triaged_at = ? WHERE local_id = ? AND idx = ?';

/** The statements a change of triage writes with: the history worker prepares them as it opens. */
export const TRIAGE_ROW_WRITES = [
  UPSERT_TRIAGE_TIME,
  LOG_CHANGE,
  UPDATE_IMAGE_RATING,
  UPDATE_TASK_STAR_TIME,
  UPDATE_IMAGE_ROW,
] as const;

const names = (list: readonly string[] | undefined) => (list ?? []).join('\n');

/** One image's triage before and after a change, by its position in the task. */
export type ImageChange = readonly [idx: number, before: ImageTriage, after: ImageTriage];

/**
 * Writes `next` over `stored`, a change of triage alone (the caller found so: triage-change.ts),
 * into the triage rows only.
 */
export function writeTriageRowsOnly(
  connection: SqliteConnection,
  stored: TaskRecord,
  next: TaskRecord,
): void {
  const changes: ImageChange[] = [];
  next.images.forEach((image, idx) => {
    const before = stored.images[idx] ?? image;
    if (image !== before) changes.push([idx, before, image]);
  });
  writeTaskTriage(
    connection,
    { localId: next.localId, star: [stored.favourite, next.favourite], at: next.updatedAt },
    changes,
  );
}

/**
 * Writes a change of one task's triage into the triage rows: its star (`[before, after]`) or
 * else its time of change, and each changed image's row and lists. What a record edit found
 * changed (writeTriageRowsOnly) and what the triage rows alone changed (triage-rows-edit.ts)
 * are written by this one function.
 */
export function writeTaskTriage(
  connection: SqliteConnection,
  task: { localId: string; star: readonly [boolean, boolean]; at: number },
  changes: readonly ImageChange[],
): void {
  const { localId, star, at } = task;
  if (star[0] === star[1]) {
    // The time in a small row of its own and the change in the log (what the task row's trigger
    // writes): the task's row, large with its record, is not rewritten for a rating.
    connection.run(UPSERT_TRIAGE_TIME, [localId, at]);
    connection.run(LOG_CHANGE, [localId]);
  } else {
    connection.run(UPDATE_TASK_STAR_TIME, [star[1] ? 1 : 0, at, localId]);
  }
  for (const [idx, before, image] of changes) {
    const [favourite, rating, flag, triagedAt] = imageTriageColumns(image);
    const [favouriteBefore, ratingBefore, flagBefore, triagedBefore] = imageTriageColumns(before);
    if (favourite !== favouriteBefore || flag !== flagBefore) {
      connection.run(UPDATE_IMAGE_ROW, [favourite, rating, flag, triagedAt, localId, idx]);
    } else if (rating !== ratingBefore || triagedAt !== triagedBefore) {
      // Only the columns that changed: an index whose columns are not named is not touched.
      connection.run(UPDATE_IMAGE_RATING, [rating, triagedAt, localId, idx]);
    }
    const listed = (entry: ImageTriage) => `${names(entry.tags)}\n\n${names(entry.boards)}`;
    if (listed(image) !== listed(before)) {
      deleteImageLists(connection, localId, idx);
      writeImageLists(connection, [localId, idx], image, at);
    }
  }
}
