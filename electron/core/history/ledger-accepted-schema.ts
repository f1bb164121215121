/**
 * The history's v21: a request the service never accepted is not a task of the ledger.
 *
 * A submit the service refused, or that never reached it (`submit_failed`: no task id, nothing
 * created, never billed: core/engine/task-costs.ts), joins the ledger when it is admitted, as
 * every new task does, so that a spending cap counts it while its submit is out. Once it is known
 * never accepted, it was never a task: it cost nothing, the history keeps no row per such attempt
 * (core/engine/account-refusal.ts), and no list, count or total of the ledger holds it: not the
 * Costs screen's list, its task count or its empty state, not the CSV, not `pictor costs`, not a
 * cap's spend or its tasks it cannot count. Its rows stay (the ledger is append-only: its
 * estimate and its `not_billed` event are still there), and a request sent again after all (the
 * Undo of a task removed before it was sent) comes back with its new status.
 *
 * {@link accepted} is the one test, on a ledger task's current status; every read of the ledger
 * (ledger-pages.ts, ledger-sums.ts, ledger-rows.ts) and, from here, the triggers that keep its
 * sums and size (ledger-sums-schema.ts) use it. This migration makes those triggers skip such a
 * task (and move it out of the sums when its status becomes `submit_failed`, back in when it
 * leaves it), and sums the ledger again without them: a library from before keeps every figure
 * but the tasks it counted that were never accepted.
 */
import type { DatabaseSync } from 'node:sqlite';
import { addToSums, fillSums } from './ledger-sums-schema';

/** Whether the ledger task `row` (an alias, or a trigger's `new`/`old`) is one the service accepted or may have. */
export const accepted = (row: string): string => `(${row}.status <> 'submit_failed')`;

/** The columns whose change moves a task within the sums (and its status, in or out of them). */
const SUMMED = ['provider', 'created_at', 'source', 'unit', 'micros'] as const;

export function leaveNeverAcceptedV21(db: DatabaseSync): void {
  const changed = [
    ...SUMMED.map((column) => `old.${column} IS NOT new.${column}`),
    `${accepted('old')} IS NOT ${accepted('new')}`,
  ].join(' OR ');
  db.exec(`
    DROP TRIGGER ledger_sums_insert;
    DROP TRIGGER ledger_sums_update;
    CREATE TRIGGER ledger_sums_insert AFTER INSERT ON ledger_tasks WHEN ${accepted('new')} BEGIN
      ${addToSums('new', 1)}
      UPDATE ledger_meta SET version = version + 1, tasks = tasks + 1;
    END;
    CREATE TRIGGER ledger_sums_update AFTER UPDATE OF ${SUMMED.join(', ')}, status ON ledger_tasks
    WHEN ${changed} BEGIN
      ${addToSums('old', -1, accepted('old'))}
      ${addToSums('new', 1, accepted('new'))}
      UPDATE ledger_meta SET tasks = tasks + ${accepted('new')} - ${accepted('old')},
        version = version + (${accepted('old')} IS NOT ${accepted('new')});
    END;
    DELETE FROM ledger_sums;
  `);
  fillSums(db, accepted('t'));
  db.exec(`
    UPDATE ledger_meta SET tasks = (SELECT count(*) FROM ledger_tasks t WHERE ${accepted('t')});
  `);
}
