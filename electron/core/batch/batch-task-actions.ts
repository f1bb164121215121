/**
 * Actions on many tasks at once (the Tasks screen's selection): favourite, retry (removing, with
 * Undo, is core/trash's; sending again, resend.ts); and starring many images (the gallery's selection). Each one is the single-task action run for every id,
 * so a batch does exactly what the same clicks row by row would do. Ids the history does not have, and tasks the action does not
 * apply to, are skipped and counted, never an error: a selection can go stale while the user
 * looks at it (another window removed a task, a retry finished).
 */
import {
  isFavouriteTask,
  withImageFavourite,
  withTaskFavourite,
} from '../../../shared/domain/favourites';
import { canRetry } from '../../../shared/domain/task-actions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskEngine } from '../engine';
import { findImage, imagesByTask, type ImageRef } from '../gallery';
import { OutcomeBuilder, type TrashOutcome } from '../trash';

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
  constructor(private readonly engine: BatchEngine) {}

  /**
   * Stars or unstars every known task as its own star does: with all its images (one favourite,
   * shared/domain/favourites.ts). Tasks already so are not rewritten.
   */
  setFavourite(localIds: readonly string[], favourite: boolean): BatchOutcome {
    return this.each(localIds, (engine, record) =>
      isFavouriteTask(record) === favourite &&
      record.images.every((image) => image.favourite === favourite)
        ? record
        : engine.edit(record.localId, (current) => withTaskFavourite(current, favourite)),
    );
  }

  /**
   * Stars or unstars the named images: one edit (one sidecar written) per task, however many of
   * its images were named. A task whose image is unknown is left as it was and counted failed.
   */
  setImageFavourites(images: readonly ImageRef[], favourite: boolean): TrashOutcome {
    const outcome = new OutcomeBuilder();
    for (const [localId, indexes] of imagesByTask(images)) {
      try {
        for (const index of indexes) findImage(this.engine, { localId, index });
        const star = (record: TaskRecord) =>
          [...indexes].reduce((next, index) => withImageFavourite(next, index, favourite), record);
        outcome.changed(this.engine.edit(localId, star));
      } catch (error) {
        for (let n = 0; n < indexes.size; n += 1) outcome.fail(error);
      }
    }
    return outcome.done();
  }

  /** Resumes held tasks and retries failed images, as the rows' own buttons do. */
  retry(localIds: readonly string[]): BatchOutcome {
    return this.each(localIds, (engine, record) =>
      canRetry(record) ? engine.resumeTask(record.localId) : null,
    );
  }

  /** Runs `act` on every known task; a null answer counts the task as skipped. */
  private each(
    localIds: readonly string[],
    act: (engine: BatchEngine, record: TaskRecord) => TaskRecord | null,
  ): BatchOutcome {
    const ids = distinct(localIds);
    const records: TaskRecord[] = [];
    for (const localId of ids) {
      const record = this.engine.get(localId);
      const changed = record ? act(this.engine, record) : null;
      if (changed) records.push(changed);
    }
    return { records, skipped: ids.length - records.length };
  }
}
