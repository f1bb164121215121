/**
 * The history's compare groups (shared/domain/compare.ts): the record stays the truth (its
 * `compare` field, which the sidecar and an archive carry too); `tasks.compare_group` is what
 * the Compare group filter reads, kept by every write of a record (history-records.ts), with a
 * partial index over the tasks that have one. A row whose record is not JSON is left as it is
 * (the history reads it as unreadable, as before).
 */
import type { DatabaseSync } from 'node:sqlite';

/** A row's compare group read from its record; NULL for none, or a record that is not JSON. */
const GROUP_OF_RECORD =
  "json_extract(CASE WHEN json_valid(record) THEN record END, '$.compare.group')";

/**
 * Only rows of a compare are touched (each update is a change other processes reload): none in
 * a library written before compares.
 */
export function addCompareGroups(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN compare_group TEXT;
    UPDATE tasks SET compare_group = ${GROUP_OF_RECORD} WHERE ${GROUP_OF_RECORD} IS NOT NULL;
    CREATE INDEX tasks_compare_group ON tasks (compare_group, created_at, local_id)
      WHERE compare_group IS NOT NULL;
  `);
}
