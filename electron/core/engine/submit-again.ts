/**
 * "Submit again" and "Rerun": a stored task's request as one new task, on the task's own service
 * and address, never on whatever service the settings or the compose form name now (a BFL task
 * submitted again goes to BFL with its BFL model). The engine checks that target as every other
 * (target-check.ts): a service whose address changed since, or whose key is gone, refuses with a
 * sentence and nothing is sent elsewhere. A record that came from a file and names a service on
 * this computer is refused first, as its polls are (record-credentials.ts). A task generated into
 * a board is submitted again into that board, and one made from a template keeps its template
 * (id, version, values: how its prompt was made), so the gallery's Template filter finds it.
 */
import { recordTarget } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import { IMPORTED_LOCAL_SENTENCE, isImportedLocal } from '../credentials/record-credentials';
import { EngineInputError } from './engine-types';
import type { TaskEngine } from './task-engine';

/** What submitting again uses of the engine. */
export type AgainEngine = Pick<TaskEngine, 'get' | 'submitBatch'>;

/**
 * The new task made from `record` (its request, its service): for a record the caller already has;
 * `count` of them as one submit (a batch's Rerun: one new batch), one by default.
 * @throws EngineInputError (or the engine's refusal) when nothing can be sent for it.
 */
export function submitRecordAgain(
  engine: AgainEngine,
  record: TaskRecord,
  count = 1,
): Promise<TaskRecord[]> {
  if (isImportedLocal(record)) return Promise.reject(new EngineInputError(IMPORTED_LOCAL_SENTENCE));
  // Into the board the task was generated into, as its own images were (made again when gone).
  return engine.submitBatch(
    { requests: [record.request], count, board: record.board, template: record.template },
    recordTarget(record),
  );
}

/**
 * The new task (or `count` tasks, one submit) made from the stored task `localId`.
 * @throws EngineInputError when the history has no such task, or nothing can be sent for it.
 */
export function submitAgain(
  engine: AgainEngine,
  localId: string,
  count = 1,
): Promise<TaskRecord[]> {
  const record = engine.get(localId);
  if (!record) {
    return Promise.reject(new EngineInputError(sentence('error.library.taskNotInHistory')));
  }
  return submitRecordAgain(engine, record, count);
}
