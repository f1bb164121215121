/**
 * v18 of the history's schema: the tasks of a service this version does not know, in an index of
 * their own. A newer Pictor may add a service at this schema; this version neither shows nor
 * writes over such a task (history-statements.ts) and tells the user how many it kept aside
 * (COUNT_NEWER_TASKS). A task's service is in its row's `provider` column (v7), after the record
 * in the row: counting them there reads every record (about 0.5 s of CPU at a million tasks, at
 * every start), and the cost ledger's index holds only the tasks that have a cost.
 *
 * `tasks_newer_service` holds the local id of every task whose `provider` is none of the services
 * this schema knew, kept by triggers on every write of any version (a trigger is part of the file:
 * a newer Pictor's writes run it too). No row is filled here: a library at v17 was last written by
 * a Pictor older than this one, which knew no service this one does not. The list is this
 * version's, written out, never PROVIDER_IDS: a later version adds services to PROVIDER_IDS, and
 * a library it creates must still note the tasks of the services this version does not know
 * (tests/unit/core/history/newer-service-schema.test.ts reads it from a new library). A trigger
 * only compares a text with six words at each task write.
 */
import type { DatabaseSync } from 'node:sqlite';

/** The services this schema version knew (the first of PROVIDER_IDS, never changed). */
const SERVICES_AT_V18 = ['pictor', 'fal', 'replicate', 'dashscope', 'bfl', 'comfyui'];

/** Whether `provider` (a task row's column) is a service v18 did not know; NULL is `pictor`'s. */
const unknownAtV18 = (provider: string) =>
  `(${provider} IS NOT NULL AND NOT (${SERVICES_AT_V18.map((id) => `${provider} = '${id}'`).join(' OR ')}))`;

export function addNewerServiceTasks(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE tasks_newer_service (local_id TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TRIGGER tasks_newer_service_insert AFTER INSERT ON tasks
    WHEN ${unknownAtV18('NEW.provider')} BEGIN
      INSERT OR IGNORE INTO tasks_newer_service (local_id) VALUES (NEW.local_id);
    END;
    CREATE TRIGGER tasks_newer_service_update AFTER UPDATE OF provider, local_id ON tasks
    WHEN ${unknownAtV18('NEW.provider')} OR ${unknownAtV18('OLD.provider')} BEGIN
      DELETE FROM tasks_newer_service WHERE local_id = OLD.local_id;
      INSERT OR IGNORE INTO tasks_newer_service (local_id)
        SELECT NEW.local_id WHERE ${unknownAtV18('NEW.provider')};
    END;
    CREATE TRIGGER tasks_newer_service_delete AFTER DELETE ON tasks
    WHEN ${unknownAtV18('OLD.provider')} BEGIN
      DELETE FROM tasks_newer_service WHERE local_id = OLD.local_id;
    END;
  `);
}
