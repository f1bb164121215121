/**
 * The history's v19: `tasks.made_at`, a task's date where it lists apart from it (made-at.ts says
 * why and how the date filter reads it), filled from the records that carry a `listedAt` (only
 * those can list apart from their date; the text test spares the JSON parse of every other row),
 * and its partial index over those few tasks.
 */
import type { DatabaseSync } from 'node:sqlite';

/** A row's `createdAt` read from its record, where its text is JSON holding a whole number. */
const CREATED_OF_RECORD = `CASE WHEN json_valid(record)
    AND json_type(record, '$.createdAt') = 'integer' THEN json_extract(record, '$.createdAt') END`;

export function addMadeAtV19(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN made_at INTEGER;
    UPDATE tasks SET made_at = ${CREATED_OF_RECORD}
      WHERE instr(record, '"listedAt"') > 0 AND ${CREATED_OF_RECORD} IS NOT created_at;
    CREATE INDEX tasks_made_apart ON tasks (made_at, created_at) WHERE made_at IS NOT NULL;
  `);
}
