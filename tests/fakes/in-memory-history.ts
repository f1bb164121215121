import type { TaskRecord } from '../../shared/domain/task-record';
import { isUnfinished } from '../../shared/domain/task-record';
import type { EngineHistory } from '../../electron/core/engine/engine-types';

/** An EngineHistory in a Map; `failWrites` simulates a full disk. Stores copies, like a database. */
export class InMemoryHistory implements EngineHistory {
  readonly records = new Map<string, TaskRecord>();
  failWrites = false;
  writes = 0;

  put(record: TaskRecord): void {
    if (this.failWrites)
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    this.writes += 1;
    this.records.set(record.localId, structuredClone(record));
  }

  putMany(records: readonly TaskRecord[]): void {
    if (this.failWrites)
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    for (const record of records) this.put(record);
  }

  editMany(
    localIds: Iterable<string>,
    change: (stored: TaskRecord) => TaskRecord | null,
    alongside?: () => void,
    absent?: TaskRecord,
  ): TaskRecord[] {
    const written: TaskRecord[] = [];
    for (const localId of new Set(localIds)) {
      const stored = this.get(localId);
      if (!stored && absent?.localId === localId) written.push(absent);
      const next = stored && change(stored);
      if (next && next !== stored) written.push(next);
    }
    this.putMany(written);
    alongside?.();
    return written;
  }

  get(localId: string): TaskRecord | undefined {
    const record = this.records.get(localId);
    return record && structuredClone(record);
  }

  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    const record = [...this.records.values()].find(
      (r) => r.endpoint === endpoint && r.taskId === taskId,
    );
    return record && structuredClone(record);
  }

  unfinished(): TaskRecord[] {
    return [...this.records.values()].filter(isUnfinished).map((record) => structuredClone(record));
  }

  delete(localId: string): boolean {
    return this.records.delete(localId);
  }

  all(): TaskRecord[] {
    return [...this.records.values()];
  }
}
