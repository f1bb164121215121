/**
 * The history as an import writes it: records a batch at a time, one transaction each, instead of
 * one per task (a transaction per task made the import wait on the disk's flush 10,000 times).
 * Lookups see the records still waiting, so a task met twice in one source is one task. A batch
 * not yet written when the import stops is written by {@link BatchedHistory.flush}; were the
 * process killed first, its task folders and sidecars are in the gallery, and `rebuild` finds them.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryStore } from '../history/history-store';

const BATCH = 100;

export class BatchedHistory {
  private readonly waiting = new Map<string, TaskRecord>();

  constructor(private readonly history: Pick<HistoryStore, 'get' | 'getByTaskId' | 'putMany'>) {}

  get(localId: string): TaskRecord | undefined {
    return this.waiting.get(localId) ?? this.history.get(localId);
  }

  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    for (const record of this.waiting.values()) {
      if (record.endpoint === endpoint && record.taskId === taskId) return record;
    }
    return this.history.getByTaskId(endpoint, taskId);
  }

  put(record: TaskRecord): void {
    this.waiting.set(record.localId, record);
    if (this.waiting.size >= BATCH) this.flush();
  }

  flush(): void {
    if (this.waiting.size === 0) return;
    const records = [...this.waiting.values()];
    this.waiting.clear();
    this.history.putMany(records);
  }
}
