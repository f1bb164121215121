/**
 * The steps the trash's operations (trash-operations.ts) share over what is held for Undo: bring
 * entries back under one restore file (an Undo, or a delete stopped before its end), end a
 * batch's time for Undo, forget an entry and drop its batch's journal file when it was the last.
 * Each runs inside one of the trash's operations, one at a time.
 */
import { randomUUID } from 'node:crypto';
import type { Operation } from '../base';
import type { GalleryTrash } from './gallery-trash';
import type { HeldEntries, HeldImage, HeldTask } from './held-entries';
import { bringBack } from './image-entries';
import type { TrashEngine } from './trash-options';
import type { ImageEntry, Restore, TaskEntry, TrashJournal } from './trash-journal';
import { OutcomeBuilder, type TrashOutcome, type TrashProgress } from './trash-outcome';

/** One held entry, of either kind. */
export type Held = HeldImage | HeldTask;

export interface TrashBatchesDeps {
  readonly held: HeldEntries;
  readonly journal: TrashJournal;
  readonly engine: TrashEngine;
  /** The gallery trash at a root (a batch's own root: where its images were). */
  readonly trashAt: (root: string) => GalleryTrash;
  /** How long a closed batch is held for Undo. */
  readonly keepMs: number;
  /** Runs `work` as one of the trash's operations, later (a batch's time for Undo ended). */
  readonly later: (work: () => Promise<void>) => void;
}

/** What a stopped delete brings back: its batch, what it had moved, its kind and operation. */
export interface TakeBack {
  readonly batchId: string;
  readonly moved: readonly Held[];
  readonly items: 'images' | 'tasks';
  readonly operation: Operation<TrashProgress>;
}

export class TrashBatches {
  constructor(private readonly deps: TrashBatchesDeps) {}

  /**
   * A stopped delete or removal brings back what it had moved, under one restore file as an Undo
   * does; what cannot come back stays held for a later Undo. Its outcome starts from the records
   * the delete changed (each replaced by the record brought back).
   */
  async takeBack(what: TakeBack, deleted?: OutcomeBuilder): Promise<TrashOutcome> {
    const outcome = new OutcomeBuilder();
    for (const record of deleted?.done().records ?? []) outcome.changed(record);
    const { batchId, moved, items, operation } = what;
    const back = items === 'images' ? this.imageBack(outcome) : this.taskBack(outcome);
    await this.restoring({ chosen: moved, items, operation }, back, outcome);
    await this.close(batchId);
    return { ...outcome.done(), canceled: true };
  }

  /** Brings one held image back, its record to `outcome`. */
  imageBack(outcome: OutcomeBuilder): (held: Held) => Promise<boolean> {
    const { engine, trashAt } = this.deps;
    return async ({ batch, entry }) => {
      if (batch.kind !== 'images' || !('files' in entry)) return false;
      const record = await bringBack({ records: engine, trash: trashAt(batch.root) }, entry);
      if (record) outcome.changed(record);
      return true;
    };
  }

  /** Puts one held task back in the history, its record to `outcome`. */
  taskBack(outcome: OutcomeBuilder): (held: Held) => Promise<boolean> {
    const { engine } = this.deps;
    return async ({ entry }) => {
      if (!('record' in entry)) return false;
      outcome.changed(await engine.reinstate(entry.record));
      return true;
    };
  }

  /** Brings back the chosen entries under one restore file; `back` returns true when done. */
  async restoring(
    what: {
      chosen: readonly Held[];
      items: 'images' | 'tasks';
      operation: Operation<TrashProgress>;
    },
    back: (held: Held) => Promise<boolean>,
    outcome: OutcomeBuilder,
  ): Promise<void> {
    const { chosen, items, operation } = what;
    if (chosen.length === 0) return;
    const { held, journal } = this.deps;
    const restore: Restore = {
      v: 1,
      id: randomUUID(),
      entries: chosen.map(({ batch, entry }) => ({ batch: batch.id, entry: entry.id })),
    };
    const ids = chosen.map(({ entry }) => entry.id);
    // Marked before the journal write: a quit meanwhile sends none of them on.
    held.markRestoring(ids, true);
    try {
      await journal.saveRestore(restore);
      for (const [n, each] of chosen.entries()) {
        await this.bringOne(each, back, outcome);
        const done = n + 1;
        operation.report(
          { operation: 'restore', items, done, total: chosen.length },
          done === chosen.length,
        );
      }
      await journal.dropRestore(restore.id);
    } finally {
      held.markRestoring(ids, false);
    }
  }

  /** The batch's time for Undo ends: what it still holds goes on. */
  async expire(batchId: string): Promise<void> {
    const settled = this.deps.held.settled(batchId);
    if (!settled) return;
    const { batch, entries } = settled;
    for (const entry of entries) {
      if (batch.kind === 'images' && 'files' in entry) {
        // A file that cannot go yet keeps its entry: the next start tries again.
        if (!(await this.deps.trashAt(batch.root).toSystemTrash(entry.id, entry.files))) continue;
      }
      await this.forget(batchId, entry);
    }
  }

  /** The batch's operation ended: what it holds is held for its time, or its file goes. */
  async close(batchId: string): Promise<void> {
    const { held, journal, keepMs, later } = this.deps;
    const expire = () => later(() => this.expire(batchId));
    if (!held.close(batchId, keepMs, expire)) await journal.dropBatch(batchId);
  }

  /** One entry back (then forgotten); a failure is counted, the entry still held. */
  private async bringOne(
    each: Held,
    back: (held: Held) => Promise<boolean>,
    outcome: OutcomeBuilder,
  ): Promise<void> {
    try {
      if (await back(each)) await this.forget(each.batch.id, each.entry);
    } catch (error) {
      outcome.fail(error);
    }
  }

  private async forget(batchId: string, entry: ImageEntry | TaskEntry): Promise<void> {
    const emptied = this.deps.held.forget(batchId, entry);
    if (emptied !== null) await this.deps.journal.dropBatch(emptied);
  }
}
