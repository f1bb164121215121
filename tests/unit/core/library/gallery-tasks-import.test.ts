/**
 * Taking a gallery folder's tasks into the history (`pictor rebuild`, "open the library there":
 * library/relocate-open.ts `importGalleryTasks`): of each batch of sidecars, the tasks the history
 * lacks are added, found with one read of the history for the whole batch (not one per task); a
 * task the history holds stays as the history holds it (edited since its sidecar was written),
 * and one whose stored row cannot be read is taken again from its sidecar.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../../electron/core/history/history-store';
import { importGalleryTasks } from '../../../../electron/core/library/relocate-open';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { addTask, useLibrary, type Library } from './archive/library-fixture';

const library = useLibrary();

/** `history` with every call but the batch writes noted in `reads`, by name. */
function countingReads(history: HistoryStore, reads: string[]): HistoryStore {
  return new Proxy(history, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'putManyCounted') return value;
      return (...args: unknown[]): unknown => {
        reads.push(String(name));
        return Reflect.apply(value, target, args);
      };
    },
  });
}

/** Five tasks in the gallery, each with its sidecar; the history holding them too. */
async function fiveTasks(): Promise<TaskRecord[]> {
  const tasks: TaskRecord[] = [];
  for (let n = 0; n < 5; n += 1) tasks.push(await addTask(library));
  return tasks;
}

/** Makes `localId`'s stored row one no Pictor can read back, with a connection of its own. */
function spoilRow(into: Library, localId: string): void {
  const db = new DatabaseSync(join(into.dir, 'history.sqlite'));
  try {
    db.prepare("UPDATE tasks SET record = '{not json' WHERE local_id = ?").run(localId);
  } finally {
    db.close();
  }
}

describe('a gallery folder taken into the history', () => {
  it('reads the history once for a batch of sidecars, not once a task', async () => {
    const tasks = await fiveTasks();
    for (const task of tasks.slice(2)) library.history.delete(task.localId);
    const reads: string[] = [];
    const history = countingReads(library.history, reads);
    const result = await importGalleryTasks({ intake: library.intake, history });
    expect(result).toMatchObject({ found: 5, added: 3, skipped: [] });
    // Five tasks, one batch: one read of the history.
    expect(reads).toHaveLength(1);
    expect(library.history.getMany(tasks.map((task) => task.localId))).toHaveLength(5);
  });

  it('leaves a task the history holds as it is, and takes an unreadable one from its sidecar', async () => {
    const [edited, spoilt, removed] = (await fiveTasks()) as [TaskRecord, TaskRecord, TaskRecord];
    const newer: TaskRecord = {
      ...edited,
      request: { ...edited.request, prompt: 'Edited since its sidecar was written' },
      updatedAt: edited.updatedAt + 60_000,
    };
    library.history.put(newer);
    spoilRow(library, spoilt.localId);
    library.history.delete(removed.localId);
    const result = await importGalleryTasks({ intake: library.intake, history: library.history });
    expect(result).toMatchObject({ found: 5, added: 2 });
    expect(library.history.get(edited.localId)).toEqual(newer);
    expect(library.history.get(spoilt.localId)?.request.prompt).toBe(spoilt.request.prompt);
    expect(library.history.get(removed.localId)?.request.prompt).toBe(removed.request.prompt);
  });
});
