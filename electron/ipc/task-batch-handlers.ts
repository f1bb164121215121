/**
 * IPC handlers of the `tasks:` batch channels (a selection in the Tasks screen): each translates
 * to core/batch, which runs the single-task action for every id. The ids were checked by the
 * contract (at most MAX_IDS_PER_BATCH local ids); the export folder comes from main's own dialog.
 */
import type { taskBatchRequests } from '../../shared/ipc/batch-contract';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import type { BatchEngine, BatchTaskActions } from '../core/batch';
import type { TaskEngine } from '../core/engine';
import type { CoreOperations } from '../core/operations';
import type { TrashOperations } from '../core/trash';
import { batchOutcome } from './gallery-batch-handlers';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import type { TaskChangeSink } from './task-updates';

type BatchChannel = keyof typeof taskBatchRequests;

export interface TaskBatchDeps {
  readonly core: {
    readonly engine: TaskEngine & BatchEngine;
    /** The core's long operations: copies of the tasks' images, one at a time. */
    readonly operations: Pick<CoreOperations, 'exportImages'>;
    /** The core's stars and favourites of many tasks at once. */
    readonly batchActions: BatchTaskActions;
  };
  /** The main process's own folder dialog: the only source of the export folder. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly emit: Emit;
  /** Where removals go to the page (in its task batches). */
  readonly changes: Pick<TaskChangeSink, 'removed'>;
  /** Removes with a way back (core/trash), journaled like the gallery's deletes. */
  readonly trash: Pick<TrashOperations, 'removeTasks' | 'restoreTasks'>;
  /** A record as the page gets it (with the engine's live state). */
  readonly item: (record: TaskRecord) => TaskItem;
}

export function taskBatchHandlers(deps: TaskBatchDeps): Pick<IpcHandlers, BatchChannel> {
  const { core, emit, item } = deps;
  const actions = core.batchActions;
  const items = ({ records, skipped }: { records: TaskRecord[]; skipped: number }) => ({
    items: records.map(item),
    skipped,
  });
  return {
    'tasks:removeMany': async ({ localIds }) => {
      const outcome = await deps.trash.removeTasks(localIds);
      for (const localId of outcome.removed) deps.changes.removed(localId);
      return outcome;
    },
    'tasks:undoRemove': async ({ localIds }) =>
      batchOutcome(await deps.trash.restoreTasks(localIds), item),
    'tasks:setFavouriteMany': ({ localIds, favourite }) =>
      items(actions.setFavourite(localIds, favourite)),
    'tasks:retryMany': ({ localIds }) => items(actions.retry(localIds)),
    'tasks:exportMany': async ({ localIds }) => {
      const folder = await deps.chooseFolder();
      if (folder === null) return { folder: null, copied: 0, failed: 0, skipped: 0 };
      const onProgress = (progress: { done: number; total: number }) =>
        emit('export:progress', progress);
      const outcome = await core.operations.exportImages({ localIds }, folder, { onProgress });
      return { folder, ...outcome };
    },
  };
}
