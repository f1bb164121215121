/**
 * The id a submit's answer gives is the task's for good: it is what is polled, what names the
 * task's folder and what an archive's import matches tasks by. A hostile or broken service may
 * answer two different submits with the same id; kept twice, both records would poll the one task
 * and download the same images, and an archive's import would merge them. The second answer's id
 * is refused: its task is recorded as one whose outcome is not known (the service did answer, and
 * may have charged), never sent again on its own, and the task that holds the id is untouched.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import { ServiceError } from '../service';
import type { EngineHistory } from './engine-types';
import type { RoomRecords } from './submit-room';

/** Where the ids already held are found: the history, and the records the engine holds live. */
export interface HeldIds {
  readonly history: Pick<EngineHistory, 'getByTaskId'>;
  readonly records: Pick<RoomRecords, 'liveRecords'>;
}

/**
 * The task other than `record` that holds the service's id `taskId` at `record`'s endpoint; none
 * when the id is new there. The live records count too: one the history could not take yet is
 * only there.
 */
export function holderOfId(
  record: TaskRecord,
  taskId: string,
  held: HeldIds,
): TaskRecord | undefined {
  const { endpoint, localId } = record;
  const other = (one: TaskRecord | undefined) =>
    one !== undefined &&
    one.localId !== localId &&
    one.endpoint === endpoint &&
    one.taskId === taskId;
  const stored = held.history.getByTaskId(endpoint, taskId);
  if (other(stored)) return stored;
  for (const live of held.records.liveRecords()) if (other(live)) return live;
  return undefined;
}

/** The refusal of an answer whose id another task holds (`holder`'s local id in the detail). */
export function idOfAnotherTask(holder: TaskRecord): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentence('error.library.taskIdOfAnother'),
    detail: `HTTP 200; the answer's task id is the one task ${holder.localId} holds`,
    httpStatus: 200,
    mayHaveReachedService: true,
    refusedAnswer: true,
  });
}
