/**
 * The history's template column (the migration after triage; renumbered when it joins the list
 * after the prompt history's): `tasks.template_id`, the id of the prompt template a task was made
 * from (TaskRecord.template), so the gallery's and the Tasks list's "Template" filter walks an
 * index instead of reading every record. The record stays the truth; every write of a record
 * keeps the column (history-records.ts). Rows written before are filled from their records here,
 * where the id is text.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { SqliteConnection } from './sqlite-connection';

export function addTemplateColumn(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN template_id TEXT;
    UPDATE tasks SET template_id = json_extract(record, '$.template.id')
      WHERE json_type(record, '$.template.id') = 'text';
    CREATE INDEX tasks_template_newest ON tasks (template_id, created_at DESC, local_id DESC)
      WHERE template_id IS NOT NULL;
  `);
}

/** Keeps the task row's template column in line with `record` (the row `id` just written). */
export function writeTemplateColumn(
  connection: Pick<SqliteConnection, 'run'>,
  id: number,
  record: TaskRecord,
): void {
  connection.run('UPDATE tasks SET template_id = ? WHERE id = ?', [
    record.template?.id ?? null,
    id,
  ]);
}
