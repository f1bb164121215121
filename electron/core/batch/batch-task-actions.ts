/**
 * Actions on many tasks at once (the Tasks screen's selection): the own star of tasks with no
 * image, retry (removing, with Undo, is core/trash's; sending again, resend.ts; flags of images,
 * core/triage). Each one is the single-task action run for every id, so a batch does exactly what
 * the same clicks row by row would do. Ids the history does not have, and tasks the action does not
 * apply to, are skipped and counted, never an error: a selection can go stale while the user
 * looks at it (another window removed a task, a retry finished).
 */
import { flaggableImages, withTaskFavourite } from '../../../shared/domain/favourites';
import { canRetry } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { ClosingGate } from '../base';
import type { TaskEngine } from '../engine';

/** The engine's single-task actions a batch reuses. */
export type BatchEngine = Pick<TaskEngine, 'get' | 'edit' | 'resumeTask'>;

export interface BatchOutcome {
  /** The records the action changed or created, in the order of the ids. */
  readonly records: TaskRecord[];
  /** Ids not acted on: unknown, or the action does not apply to the task. */
  readonly skipped: number;
}

/** Distinct ids in their first order: a repeated id is acted on once. */
function distinct(localIds: readonly string[]): string[] {
  return [...new Set(localIds)];
}

export class BatchTaskActions {
  constructor(
    private readonly engine: BatchEngine,
    /**
     * The core's closing gate: a batch asked once the close has begun is refused with its
     * sentence, no task changed; absent: never refused.
     */
    private readonly gate?: Pick<ClosingGate, 'askNow'>,
  ) {}

  /**
   * Stars or unstars every known task that has no image (at work, failed): its own star, which its
   * images take when they arrive (shared/domain/favourites.ts). A task with images is skipped: its
   * pick is its images' flags, changed through core/triage with Undo. Tasks already so are not
   * rewritten.
   */
  setFavourite(localIds: readonly string[], favourite: boolean): BatchOutcome {
    return this.each(localIds, (engine, record) => {
      if (flaggableImages(record).length > 0) return null; // Its images' flags are triage's.
      return record.favourite === favourite
        ? record
        : engine.edit(record.localId, (current) => withTaskFavourite(current, favourite));
    });
  }

  /** Resumes held tasks and retries failed images, as the rows' own buttons do. */
  retry(localIds: readonly string[]): BatchOutcome {
    return this.each(localIds, (engine, record) =>
      canRetry(record) ? engine.resumeTask(record.localId) : null,
    );
  }

  /**
   * Runs `act` on every known task; a null answer counts the task as skipped. Refused whole once
   * the core's close has begun.
   */
  private each(
    localIds: readonly string[],
    act: (engine: BatchEngine, record: TaskRecord) => TaskRecord | null,
  ): BatchOutcome {
    const run = (): BatchOutcome => {
      const ids = distinct(localIds);
      const records: TaskRecord[] = [];
      for (const localId of ids) {
        const record = this.engine.get(localId);
        const changed = record ? act(this.engine, record) : null;
        if (changed) records.push(changed);
      }
      return { records, skipped: ids.length - records.length };
    };
    return this.gate ? this.gate.askNow(run) : run();
  }
}
