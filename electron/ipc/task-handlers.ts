/** IPC handlers of the `tasks:` channels: thin translations from contract channels to the engine. */
import { MAX_SELECT_ALL, type RequestInput, type TaskItem } from '../../shared/ipc/contract';
import { type TaskRecord } from '../../shared/domain/task-record';
import {
  type BatchTaskActions,
  type ExportGallery,
  redactRefusedTrack,
  refusedForKeyInId,
  resend,
} from '../core/batch';
import type { CostBook } from '../core/costs';
import { heldKeyScrubber, type HeldKeys } from '../core/secrets';
import { followSubmits, type TaskEngine } from '../core/engine';
import type { CoreOperations } from '../core/operations';
import type { HistoryQuery, HistoryStore, LibraryReads } from '../core/history';
import type { TrashOperations } from '../core/trash';
import type { OverCapPrompts } from '../ports/user-prompts';
import type { Emit, HandlersOf } from './ipc-main-bridge';
import type { TaskCancelChannel } from './task-cancel-handlers';
import { taskBatchHandlers } from './task-batch-handlers';
import type { TaskChangeSink } from './task-updates';
import type { OpenViews } from './open-views';

export interface TaskHandlerDeps {
  /** The one core (moving the library changes its folder, never the core). */
  readonly core: {
    readonly engine: TaskEngine;
    readonly history: Pick<HistoryStore, 'list' | 'getByTaskId' | 'findByTaskId'>;
    /** The whole-library reads (a count, Select all) answered by the history worker. */
    readonly libraryReads: Pick<LibraryReads, 'taskCount' | 'taskSelection'>;
    /** Its long operations: a selection's images copied into a folder. */
    readonly operations: Pick<CoreOperations, 'exportImages'>;
    /** What sending tasks again would cost, and the caps' word on it. */
    readonly costs: Pick<CostBook, 'previewGroup'>;
    /** Stars and favourites of many tasks at once. */
    readonly batchActions: BatchTaskActions;
  };
  /**
   * Main's own question before tasks sent again pass a hard spending cap, as a template run
   * asks; absent (the harnesses), such a send is refused.
   */
  readonly overCap?: OverCapPrompts;
  /** The main process's own folder dialog, for exporting a selection's images. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly emit: Emit;
  /** Where removals and refused submits go to the page (in its task batches: task-updates.ts). */
  readonly changes: TaskChangeSink;
  /** Removes with a way back (core/trash): a removed task's record is held for Undo. */
  readonly trash: Pick<TrashOperations, 'removeTasks' | 'restoreTasks'>;
  /** The page's open views: a first page of the list names the task list's filter. */
  readonly views?: Pick<OpenViews, 'showTasks'>;
  /**
   * What cleans a task kept under an id a track was refused for (batch/kept-key-id.ts): the
   * library's folder and every key the app holds (AppCredentials.heldKeys). Absent (harnesses of
   * other handlers): none is cleaned.
   */
  readonly keptIds?: {
    readonly gallery: ExportGallery;
    readonly heldKeys: HeldKeys;
  };
}

/** The renderer's filter as the history takes it (absent fields left out, not undefined). */
function historyFilter(filter: RequestInput<'tasks:count'>): HistoryQuery {
  return {
    ...(filter.search ? { search: filter.search } : {}),
    ...(filter.statuses ? { statuses: filter.statuses } : {}),
    ...(filter.favourite === undefined ? {} : { favourite: filter.favourite }),
    ...(filter.provider === undefined ? {} : { provider: filter.provider }),
    ...(filter.compareGroup === undefined ? {} : { compareGroup: filter.compareGroup }),
    ...(filter.template === undefined ? {} : { template: filter.template }),
  };
}

/** The task kept under the refused `typed` id, cleaned (the page gets its redacted record). */
async function redactKept(deps: TaskHandlerDeps, typed: string): Promise<void> {
  if (!deps.keptIds) return;
  const { engine, history } = deps.core;
  const { gallery, heldKeys } = deps.keptIds;
  const scrub = await heldKeyScrubber(heldKeys);
  await redactRefusedTrack({ records: engine, gallery, history }, typed, null, scrub);
}

/**
 * Every `tasks:` handler but cancel's (task-cancel-handlers.ts) and Copy as command's
 * (task-command-handlers.ts), wired beside these.
 */
export function taskHandlers(
  deps: TaskHandlerDeps,
): Omit<HandlersOf<'tasks'>, TaskCancelChannel | 'tasks:copyCommand'> {
  const { core, emit, changes, chooseFolder, trash, overCap } = deps;
  const { engine } = core;
  const item = (record: TaskRecord): TaskItem => engine.item(record);
  // A submit refused for the account is not kept: the page hears it once (account-refusal.ts).
  const follow = (records: readonly TaskRecord[]): TaskItem[] =>
    followSubmits(
      engine,
      records,
      (refusal) => changes.refused(refusal),
      (localId) => changes.removed(localId),
    ).map(item);
  return {
    ...taskBatchHandlers({ core, chooseFolder, emit, changes, item, trash }),
    // The service travels with the request: the page's target, checked by the engine, as is the
    // board the images join ("Generate into").
    'tasks:submit': async ({ request, target, count, board }) =>
      follow(await engine.submit(request, target, count, board)),
    // Sending again, the one way: main reads the tasks the page names (core/batch/resend.ts).
    'tasks:resend': async ({ localIds, as, onlyFailed, newSeed }) => {
      const options = { as, onlyFailed, newSeed, ...(overCap ? { prompts: overCap } : {}) };
      const { records, skipped } = await resend(core, localIds, options);
      // One refused for the account is gone (the page hears it once): it made no task either.
      const items = follow(records);
      return { items, skipped: skipped + records.length - items.length };
    },
    'tasks:list': ({ limit, cursor, ...filter }) => {
      if (!cursor) deps.views?.showTasks(historyFilter(filter));
      const page = core.history.list({
        ...historyFilter(filter),
        ...(limit ? { limit } : {}),
        cursor: cursor ?? null,
      });
      return { items: page.items.map(item), nextCursor: page.nextCursor };
    },
    'tasks:count': async (filter) => ({
      total: await core.libraryReads.taskCount(historyFilter(filter)),
    }),
    // "Select all": the tasks main finds for the filter, never a list the page made up.
    'tasks:selectAll': (filter) =>
      core.libraryReads.taskSelection(historyFilter(filter), MAX_SELECT_ALL),
    'tasks:get': ({ localId }) => {
      const record = engine.get(localId);
      return record ? item(record) : null;
    },
    'tasks:track': async ({ taskId, prompt }) => {
      try {
        return item(await engine.track(taskId, prompt ? { prompt } : {}));
      } catch (error) {
        // An id with a key in it is refused; a task the library kept under it is cleaned, as
        // the CLI's track cleans it (batch/kept-key-id.ts), before the page hears the refusal.
        if (refusedForKeyInId(error)) await redactKept(deps, taskId);
        throw error;
      }
    },
    'tasks:resume': ({ localId }) => item(engine.resumeTask(localId)),
    'tasks:retryImages': ({ localId }) => item(engine.resumeTask(localId)),
    'tasks:remove': async ({ localId }) => {
      const { removed } = await trash.removeTasks([localId]);
      if (removed.length > 0) changes.removed(localId);
      return { removed: removed.length > 0 };
    },
  };
}
