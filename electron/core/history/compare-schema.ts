/**
 * The history's compare groups (shared/domain/compare.ts): the record stays the truth (its
 * `compare` field, which the sidecar and an archive carry too); `tasks.compare_group` is what
 * the Compare group filter reads, kept by every write of a record (history-records.ts), with a
 * partial index over the tasks that have one.
 */
import type { DatabaseSync } from 'node:sqlite';

export function addCompareGroups(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN compare_group TEXT;
    UPDATE tasks SET compare_group = json_extract(record, '$.compare.group')
      WHERE json_extract(record, '$.compare.group') IS NOT NULL;
    CREATE INDEX tasks_compare_group ON tasks (compare_group, created_at, local_id)
      WHERE compare_group IS NOT NULL;
  `);
}

/** Keeps a task row's compare group equal to its record's. */
export const SET_COMPARE_GROUP = 'UPDATE tasks SET compare_group = ? WHERE local_id = ?';
