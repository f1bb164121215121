/**
 * What a trash operation did, built item by item: the records it changed and the first reason an
 * item failed; and small helpers the operations share.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';

/** How far the operation under way is. */
export interface TrashProgress {
  readonly operation: 'delete' | 'restore';
  readonly items: 'images' | 'tasks';
  readonly done: number;
  readonly total: number;
}

/** What an operation did: the records it changed, and how many items it could not act on. */
export interface TrashOutcome {
  readonly records: TaskRecord[];
  readonly failed: number;
  /** Why the first failure failed. */
  readonly problem?: unknown;
  /**
   * A delete stopped before its end (an Undo, a stop signal): what it had moved is back, the
   * records as they are after that; `failed` counts what could not come back (still held).
   */
  readonly canceled?: boolean;
}

/** What a removal of tasks did: the tasks it removed, and how many it did not. */
export interface TaskRemoval {
  readonly removed: string[];
  readonly skipped: number;
  /** Stopped before its end: what it had removed is back (`removed`: what could not come back). */
  readonly canceled?: boolean;
}

export class OutcomeBuilder {
  private readonly records = new Map<string, TaskRecord>();
  private failed = 0;
  private problem: unknown;

  changed(record: TaskRecord): void {
    this.records.set(record.localId, record);
  }

  fail(error: unknown): void {
    this.failed += 1;
    this.problem ??= error;
  }

  done(): TrashOutcome {
    return {
      records: [...this.records.values()],
      failed: this.failed,
      ...(this.problem === undefined ? {} : { problem: this.problem }),
    };
  }
}
