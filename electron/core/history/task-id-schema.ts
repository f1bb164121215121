/**
 * v17 of the history's schema: one task per service task id. Since the submit that is answered
 * with an id another task holds is refused it (engine/answered-id.ts), no new pair of tasks shares
 * one; a library written before may hold such pairs, each still polling the one service task,
 * downloading its images twice and counting its cost twice against the spending caps. Here the
 * same rule is applied once to what is stored: of the tasks sharing an id at one endpoint, the
 * first (oldest, then by local id, as SQLite orders them) keeps it; a later one still waiting on
 * the service is recorded as the engine records a refused answer today, `submit_unknown` with the
 * sentence that says why, no task id, never polled or sent again, and the ledger follows. A later
 * task that already finished (its images saved, or its failure said) is left as it is: what it
 * holds is the user's, and it polls nothing. A record that does not parse is left untouched.
 */
import type { DatabaseSync } from 'node:sqlite';
import { parseTaskRecord, TASK_KEYS } from '../../../shared/domain/record-check';
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence } from '../../../shared/i18n/sentence';

/** Every task of an id some other task at its endpoint holds too, each id's first one first. */
const SHARED_IDS = `
  SELECT t.id, t.local_id, t.endpoint, t.task_id, t.status, t.record
  FROM tasks t JOIN (
    SELECT endpoint, task_id FROM tasks WHERE task_id IS NOT NULL
    GROUP BY endpoint, task_id HAVING count(*) > 1
  ) d ON t.endpoint = d.endpoint AND t.task_id = d.task_id
  ORDER BY t.endpoint, t.task_id, t.created_at, t.local_id`;

/** What the engine says of a submit answered with another task's id (engine/answered-id.ts). */
function idOfAnother(holder: string): TaskError {
  const said = sentence('error.library.taskIdOfAnother');
  return {
    kind: 'protocol',
    message: englishText(said),
    sentence: said,
    detail: `The task id is the one task ${holder} holds (found when the library was upgraded).`,
  };
}

/** `record` refused the id `holder` holds, finished when it last changed (no clock is read). */
function refused(record: TaskRecord, holder: string): TaskRecord {
  return {
    ...record,
    taskId: null,
    status: 'submit_unknown',
    hold: null,
    finishedAt: record.updatedAt,
    error: idOfAnother(holder),
  };
}

const KNOWN = new Set(TASK_KEYS);

function unknownFields(json: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => !KNOWN.has(key)));
}

export function oneTaskPerIdV17(db: DatabaseSync): void {
  const rows = db.prepare(SHARED_IDS).all();
  const updateTask = db.prepare(
    'UPDATE tasks SET task_id = NULL, status = ?, unfinished = 0, record = ? WHERE id = ?',
  );
  const updateLedger = db.prepare(
    'UPDATE ledger_tasks SET task_id = NULL, status = ? WHERE local_id = ?',
  );
  let holder: { key: string; localId: string } | undefined;
  for (const row of rows) {
    const key = JSON.stringify([row['endpoint'], row['task_id']]);
    const localId = String(row['local_id']);
    if (holder?.key !== key) {
      holder = { key, localId };
      continue;
    }
    if (row['status'] !== 'processing') continue;
    let json: unknown;
    try {
      json = JSON.parse(String(row['record']));
    } catch {
      continue;
    }
    const record = parseTaskRecord(json);
    if (record === undefined || record.localId !== localId || record.status !== 'processing')
      continue;
    const next = refused(record, holder.localId);
    // The fields a newer Pictor added stay, as through any write (history-statements.ts).
    const kept = { ...next, ...unknownFields(json as Record<string, unknown>) };
    updateTask.run(next.status, JSON.stringify(kept), Number(row['id']));
    updateLedger.run(next.status, localId);
  }
}
