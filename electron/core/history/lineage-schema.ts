/**
 * The history's lineage columns (shared/domain/image-inputs.ts): a task made from a library image
 * names it in `request.inputs.parent`, one made from a file names the file's digest in
 * `request.inputs.source`. The record stays the truth (the sidecar and an archive carry it too);
 * `tasks.parent_id`/`parent_index` (the parent image) and `tasks.input_source` (the source file's
 * digest, for a task with no parent) are what the stack walks (electron/core/lineage), kept by
 * every write of a record (history-records.ts), each with a partial index over the tasks that have
 * one, so the children of an image cost one index range however large the history is.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TaskRecord } from '../../../shared/domain/task-record';

/** Only records that name inputs are read (none in a library written before them). */
const HAS_INPUTS = `instr(record, '"inputs":') > 0 AND json_valid(record)`;

export function addLineageColumns(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN parent_id TEXT;
    ALTER TABLE tasks ADD COLUMN parent_index INTEGER;
    ALTER TABLE tasks ADD COLUMN input_source TEXT;
    UPDATE tasks SET
      parent_id = json_extract(record, '$.request.inputs.parent.localId'),
      parent_index = json_extract(record, '$.request.inputs.parent.index')
      WHERE ${HAS_INPUTS} AND json_type(record, '$.request.inputs.parent.localId') = 'text'
        AND json_type(record, '$.request.inputs.parent.index') = 'integer';
    UPDATE tasks SET input_source = json_extract(record, '$.request.inputs.source.sha256')
      WHERE ${HAS_INPUTS} AND json_type(record, '$.request.inputs.parent') IS NULL
        AND json_type(record, '$.request.inputs.source.sha256') = 'text';
    CREATE INDEX tasks_parent ON tasks (parent_id, parent_index, created_at, local_id)
      WHERE parent_id IS NOT NULL;
    CREATE INDEX tasks_input_source ON tasks (input_source, created_at, local_id)
      WHERE input_source IS NOT NULL;
  `);
}

/** The lineage columns a task row's write binds, in this order. */
export const LINEAGE_COLUMNS = ['parent_id', 'parent_index', 'input_source'] as const;

/** The values of {@link LINEAGE_COLUMNS} for `record`. */
export function lineageColumns(record: TaskRecord): (string | number | null)[] {
  const inputs = record.request.inputs;
  if (!inputs) return [null, null, null];
  const { parent } = inputs;
  return parent ? [parent.localId, parent.index, null] : [null, null, inputs.source.sha256];
}
