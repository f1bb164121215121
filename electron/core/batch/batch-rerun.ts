/**
 * A batch's "Rerun": the tasks of one batch, each with its own request (a template's batch holds
 * one prompt per combination, not the first one's N times), sent again as one new batch on the
 * batch's own service and address, into its board, with its template kept. It is a new submit:
 * new local ids and new service tasks, the stored tasks left as they are (Pictor never sends a
 * stored task again). The window names the tasks by local id only; main reads their records, and
 * refuses tasks of several batches or services. The caps judge it as a new submit of those tasks:
 * a template's batch as its run (over a hard cap, main asks in its own dialog: over-cap.ts), any
 * other as the form's submit (the engine's admission refuses it with the cap's sentence).
 */
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import { providerOf } from '../../../shared/domain/providers';
import { recordTarget } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { OverCapPrompts } from '../../ports/user-prompts';
import type { CostBook } from '../costs/cost-book';
import { IMPORTED_LOCAL_SENTENCE, isImportedLocal } from '../credentials/record-credentials';
import { EngineInputError } from '../engine/engine-types';
import type { TaskEngine } from '../engine/task-engine';
import { consentOverCaps, hardCapBreach } from './over-cap';

export interface BatchRerunDeps {
  readonly engine: Pick<TaskEngine, 'get' | 'submitBatch'>;
  readonly costs: Pick<CostBook, 'previewBatch'>;
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

/**
 * The records of `localIds` (each once), in the order their batch was made in, the first apart.
 * @throws EngineInputError for no task or more than one submit may make, a task the history does
 *   not have, one imported from a file that names a service on this computer, or tasks of several
 *   batches.
 */
function batchRecords(
  engine: BatchRerunDeps['engine'],
  localIds: readonly string[],
): { first: TaskRecord; records: TaskRecord[] } {
  const ids = [...new Set(localIds)];
  if (ids.length < 1 || ids.length > TASKS_PER_ENGINE_SUBMIT.max) {
    const { min, max } = TASKS_PER_ENGINE_SUBMIT;
    throw new EngineInputError(
      sentence('error.library.taskCountRange', { min: String(min), max: String(max) }),
    );
  }
  const records = ids.map((localId) => {
    const record = engine.get(localId);
    if (!record) throw new EngineInputError(sentence('error.library.taskNotInHistory'));
    if (isImportedLocal(record)) throw new EngineInputError(IMPORTED_LOCAL_SENTENCE);
    return record;
  });
  const [named] = records;
  if (!named || (records.length > 1 && !records.every((record) => sameBatch(named, record)))) {
    throw new EngineInputError(sentence('error.submit.notOneBatch'));
  }
  // Array.prototype.sort is stable: tasks without a place keep the order they were named in.
  records.sort((a, b) => placeOf(a) - placeOf(b));
  return { first: records[0] ?? named, records };
}

/**
 * The tasks `localIds` name, of one batch, submitted again as one new batch (see the file
 * comment). Returns the new tasks as stored, in the old batch's order.
 * @throws EngineInputError (see {@link batchRecords}; the engine's refusals of a request, a target
 *   or a board); SpendingCapError when a hard cap refuses them and the user did not agree.
 */
export async function rerunBatch(
  deps: BatchRerunDeps,
  localIds: readonly string[],
  options: { readonly prompts?: OverCapPrompts } = {},
): Promise<TaskRecord[]> {
  const { first, records } = batchRecords(deps.engine, localIds);
  const target = recordTarget(first);
  const requests = records.map((record) => record.request);
  const overHardCaps =
    first.template === undefined
      ? null
      : await consentOverCaps(
          hardCapBreach(deps.costs.previewBatch(target, requests)),
          requests.length,
          options.prompts,
        );
  const batch = { requests, count: 1, board: first.board, template: first.template };
  return deps.engine.submitBatch({ ...batch, overHardCaps }, target);
}
