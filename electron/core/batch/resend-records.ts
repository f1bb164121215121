/**
 * The stored tasks a send again takes (resend.ts), read by main from the ids the window names.
 * `each`: every named task the history holds, each to be its own new task (a task's "Submit
 * again" and "Rerun", the selection's action, which takes only failed or unsent ones); an id the
 * history lacks is skipped and counted, as a selection may go stale, unless none is left. `batch`:
 * the tasks of one batch, in the order it was made in (a template's batch holds one prompt per
 * combination), at most one submit's worth; any id it lacks, or tasks of several batches or
 * services, refuse it. A record imported from a file that names a service on this computer is
 * never sent (record-credentials.ts).
 */
import { MAX_IDS_PER_BATCH, TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import { providerOf } from '../../../shared/domain/providers';
import { canSubmitAgain } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import { IMPORTED_LOCAL_SENTENCE, isImportedLocal } from '../credentials';
import { EngineInputError, type TaskEngine } from '../engine';

/** How the tasks go again: each as its own new task, or all as one new batch. */
export type ResendMode = 'each' | 'batch';

export interface ResendChoice {
  readonly as: ResendMode;
  /** `each` only: tasks that did not fail or go unsent are skipped (the selection's action). */
  readonly onlyFailed?: boolean | undefined;
}

/** The records to send again, in order, and how many named ids are not among them. */
export interface ResendRecords {
  readonly records: TaskRecord[];
  readonly skipped: number;
}

type Reader = Pick<TaskEngine, 'get'>;

const NOT_IN_HISTORY = () => new EngineInputError(sentence('error.library.taskNotInHistory'));

/** Distinct ids within `range`. @throws EngineInputError naming the range otherwise. */
function distinctIds(localIds: readonly string[], range: { min: number; max: number }): string[] {
  const ids = [...new Set(localIds)];
  if (ids.length < range.min || ids.length > range.max) {
    throw new EngineInputError(
      sentence('error.library.taskCountRange', { min: String(range.min), max: String(range.max) }),
    );
  }
  return ids;
}

/** True when `record` went with `first` in one submit: its batch, service and address. */
function sameBatch(first: TaskRecord, record: TaskRecord): boolean {
  return (
    first.batchId !== undefined &&
    record.batchId === first.batchId &&
    record.endpoint === first.endpoint &&
    providerOf(record) === providerOf(first)
  );
}

/** Where a task stood in its batch; one without a place keeps the order it was named in. */
function placeOf(record: TaskRecord): number {
  return record.batchIndex ?? TASKS_PER_ENGINE_SUBMIT.max;
}

function batchRecords(engine: Reader, localIds: readonly string[]): ResendRecords {
  const records = distinctIds(localIds, TASKS_PER_ENGINE_SUBMIT).map((localId) => {
    const record = engine.get(localId);
    if (!record) throw NOT_IN_HISTORY();
    if (isImportedLocal(record)) throw new EngineInputError(IMPORTED_LOCAL_SENTENCE);
    return record;
  });
  const [named] = records;
  if (!named || !records.every((record) => record === named || sameBatch(named, record))) {
    throw new EngineInputError(sentence('error.submit.notOneBatch'));
  }
  // Array.prototype.sort is stable: tasks without a place keep the order they were named in.
  return { records: records.sort((a, b) => placeOf(a) - placeOf(b)), skipped: 0 };
}

function eachRecords(engine: Reader, localIds: readonly string[], onlyFailed: boolean) {
  const ids = distinctIds(localIds, { min: 1, max: MAX_IDS_PER_BATCH });
  const known = ids.flatMap((localId) => engine.get(localId) ?? []);
  if (known.length === 0) throw NOT_IN_HISTORY();
  const wanted = onlyFailed ? known.filter(canSubmitAgain) : known;
  const records = wanted.filter((record) => !isImportedLocal(record));
  if (records.length === 0 && wanted.length > 0) {
    throw new EngineInputError(IMPORTED_LOCAL_SENTENCE);
  }
  return { records, skipped: ids.length - records.length };
}

/**
 * The records `localIds` name, as `choice` takes them (see the file comment).
 * @throws EngineInputError for no id or too many, ids the history lacks (all of them for `each`),
 *   a record from a file naming a service on this computer (`each`: every one left), or tasks of
 *   several batches (`batch`).
 */
export function resendRecords(
  engine: Reader,
  localIds: readonly string[],
  choice: ResendChoice,
): ResendRecords {
  return choice.as === 'batch'
    ? batchRecords(engine, localIds)
    : eachRecords(engine, localIds, choice.onlyFailed === true);
}
