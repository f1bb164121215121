/**
 * The history as an import writes it: records a batch at a time, one transaction each, instead of
 * one per task (a transaction per task made the import wait on the disk's flush 10,000 times).
 * Lookups see the records still waiting, so a task met twice in one source is one task.
 *
 * Each record comes with how to take back the files it brought (a new task's folder, the images
 * added to a task). When a batch cannot be written (a full disk, a record the store refuses),
 * those files are taken back before the failure goes on, so the gallery keeps no task folder
 * without its record. That is best effort: what a failed take-back or a killed process leaves,
 * the next import recognises as the same task (import-task.ts), and `rebuild` finds too.
 */
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  addDropped,
  type HistoryStore,
  type ManyRecordWrites,
  NOTHING_DROPPED,
  type TriageDropped,
} from '../../history';

const BATCH = 100;

/** Takes back the files an import wrote for one record; may fail (it is best effort). */
export type Undo = () => Promise<void>;

/** The history an import reads and writes: its lookups, and its writes of many records at once. */
export type ImportStore = Pick<HistoryStore, 'get' | 'getByTaskId'> & ManyRecordWrites;

/** What a task's import needs of the history (see {@link BatchedHistory}). */
export type ImportHistory = Pick<BatchedHistory, 'get' | 'getByTaskId' | 'put'>;

export class BatchedHistory {
  private readonly waiting = new Map<
    string,
    { record: TaskRecord; undo: Undo[]; carried: string | undefined }
  >();
  private droppedSoFar = NOTHING_DROPPED;

  constructor(private readonly history: ImportStore) {}

  /** The tags and boards the library's limits left out of the records written so far. */
  get dropped(): TriageDropped {
    return this.droppedSoFar;
  }

  get(localId: string): TaskRecord | undefined {
    return this.waiting.get(localId)?.record ?? this.history.get(localId);
  }

  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    for (const { record } of this.waiting.values()) {
      if (record.endpoint === endpoint && record.taskId === taskId) return record;
    }
    return this.history.getByTaskId(endpoint, taskId);
  }

  /**
   * Records `record` with the next batch; `undo` takes back its files should that batch fail;
   * `carried`: a newer Pictor's fields it came with (import-carried.ts), kept by the history.
   * @throws what the history's write threw, once the batch's files are taken back.
   */
  async put(record: TaskRecord, undo?: Undo, carried?: string): Promise<void> {
    const earlier = this.waiting.get(record.localId);
    const undos = earlier?.undo ?? [];
    this.waiting.set(record.localId, {
      record,
      undo: undo ? [...undos, undo] : undos,
      carried: carried ?? earlier?.carried,
    });
    if (this.waiting.size >= BATCH) await this.flush();
  }

  /** Writes the waiting records now (see {@link put}). */
  async flush(): Promise<void> {
    if (this.waiting.size === 0) return;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    try {
      const carried = new Map<string, string>();
      for (const { record, carried: fields } of batch) {
        if (fields !== undefined) carried.set(record.localId, fields);
      }
      const records = batch.map((waiting) => waiting.record);
      const dropped = await (carried.size > 0
        ? this.history.putManyCounted(records, carried)
        : this.history.putManyCounted(records));
      this.droppedSoFar = addDropped(this.droppedSoFar, dropped);
    } catch (error) {
      for (const { undo } of batch) {
        // The latest first: a task met twice undoes its merge before its folder.
        for (const step of [...undo].reverse()) await step().catch(() => undefined);
      }
      throw error;
    }
  }
}
