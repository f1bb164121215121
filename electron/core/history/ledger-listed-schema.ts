/**
 * The history's v20: `ledger_tasks.listed_at`, where a ledger task lists when that is not its date
 * made (`created_at`), so the Costs screen lists in the gallery's order (ledger-pages.ts). NULL in
 * the usual case (a right clock's task: its date made is where it lists), as `tasks.made_at` is
 * (made-at.ts), so a library gains no data and no write of such a task changes. Filled from the
 * tasks the history lists apart (`tasks.made_at` set: their order column holds the list time), by
 * their partial index. A ledger task whose task was removed from the history before this version
 * has no list time left to read: its date made stands in (it lists where the ledger listed it).
 * One index pages by list time, newest or oldest first (`ledger_tasks_listed`), one a service's
 * tasks (`ledger_tasks_provider_listed`), and a partial one finds the few tasks listed apart
 * within a query's dates (`ledger_tasks_listed_apart`). A task written again may list elsewhere
 * (ledger-rows.ts follows it): the screen's order changes, so the ledger's version moves.
 */
import type { DatabaseSync } from 'node:sqlite';
import { BUMP } from './ledger-sums-schema';

export function addLedgerListedV20(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE ledger_tasks ADD COLUMN listed_at INTEGER;
    UPDATE ledger_tasks SET listed_at = t.created_at FROM tasks t INDEXED BY tasks_made_apart
      WHERE t.made_at IS NOT NULL AND t.local_id = ledger_tasks.local_id
        AND t.created_at IS NOT ledger_tasks.created_at;
    CREATE INDEX ledger_tasks_listed ON ledger_tasks (coalesce(listed_at, created_at), local_id);
    CREATE INDEX ledger_tasks_provider_listed
      ON ledger_tasks (provider, coalesce(listed_at, created_at), local_id);
    CREATE INDEX ledger_tasks_listed_apart ON ledger_tasks (created_at, listed_at)
      WHERE listed_at IS NOT NULL;
    CREATE TRIGGER ledger_listed_update AFTER UPDATE OF listed_at ON ledger_tasks BEGIN
      ${BUMP}
    END;
  `);
}
