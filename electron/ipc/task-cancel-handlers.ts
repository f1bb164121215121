/**
 * IPC handlers of "Cancel on the service" (`tasks:cancel`, `tasks:cancelMany`) and "Stop watching"
 * (`tasks:stopWatching`): each translates to core/batch/cancel-tasks.ts, which asks the services
 * one task at a time. The ids were checked by the contract; what a task's service is, and whether
 * it may be asked, is read from main's own record, never from the page.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import type { CancelOutcomeItem } from '../../shared/ipc/task-cancel-contract';
import type { TaskItem } from '../../shared/ipc/task-item';
import type { CancelOutcome, TaskCancels } from '../core/batch';
import type { TaskEngine } from '../core/engine';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import type { taskCancelRequests } from '../../shared/ipc/task-cancel-contract';

/** The channels of the contract's cancel part (shared/ipc/task-cancel-contract.ts). */
export type TaskCancelChannel = keyof typeof taskCancelRequests;

export interface TaskCancelDeps {
  readonly engine: TaskEngine;
  /** The core's cancels (each wait for a service's answer bounded by the core's clock). */
  readonly cancels: TaskCancels;
  readonly emit: Emit;
}

export function taskCancelHandlers(deps: TaskCancelDeps): Pick<IpcHandlers, TaskCancelChannel> {
  const { engine, emit } = deps;
  const { cancels } = deps;
  const item = (record: TaskRecord): TaskItem => engine.item(record);
  const outcomeItem = (outcome: CancelOutcome) => cancelOutcomeItem(engine, outcome);
  return {
    'tasks:cancel': async ({ localId }) => {
      const [outcome] = await cancels.cancel([localId]);
      // One id always has one outcome; an unknown one says so.
      return outcomeItem(outcome ?? { kind: 'not_running', localId });
    },
    'tasks:cancelMany': async ({ localIds }) => {
      const onProgress = (done: number, total: number) =>
        emit('tasks:cancelProgress', { done, total });
      const outcomes = await cancels.cancel(localIds, { onProgress });
      return { outcomes: outcomes.map(outcomeItem) };
    },
    'tasks:stopWatching': ({ localIds }) => {
      const { records, skipped } = cancels.stopWatching(localIds);
      return { items: records.map(item), skipped };
    },
  };
}

/** A cancel's outcome as the page reads it, with its task as it stands. */
export function cancelOutcomeItem(
  engine: Pick<TaskEngine, 'item'>,
  { kind, localId, record, reason }: CancelOutcome,
): CancelOutcomeItem {
  return {
    kind,
    localId,
    item: record ? engine.item(record) : null,
    ...(reason ? { reason } : {}),
  };
}
