/**
 * Deleting images and removing tasks with a way back, each one durable step: the journal
 * (trash-journal.ts) says what is put aside before anything moves, and which entries an Undo
 * brings back before the first one comes back. A quit, a crash or a kill at any moment leaves
 * every item where it was or where it went; what was under way is finished at the next start
 * (trash-replay.ts), never sent to the system trash by accident.
 *
 * Operations run one at a time, in the order asked, and report progress. Held images go on to
 * the system trash, held tasks are removed for good, when their time for Undo ends
 * ({@link TRASH_KEEP_MS}), when the app quits (after waiting a bounded time for an operation in
 * flight) or when the gallery changes folder.
 */
import { randomUUID } from 'node:crypto';
import { sentence } from '../../../shared/i18n/sentence';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { Disposable } from '../../ports/disposable';
import { Emitter } from '../../ports/event';
import { silentLogger, type Logger } from '../../ports/logger';
import { EngineInputError } from '../engine/engine-types';
import { GalleryImageError, findImage, savedFile, type ImageRef } from '../gallery/gallery-images';
import { GalleryTrash, TRASH_KEEP_MS, heldNames } from '../gallery/gallery-trash';
import { imageFilesOf } from '../gallery/image-files';
import { HeldEntries, type HeldImage, type HeldTask } from './held-entries';
import { bringBack, imageKey, putAside } from './image-entries';
import { OperationRunner, type Operation } from '../operations/operation-runner';
import {
  OutcomeBuilder,
  distinctRefs,
  type TrashOutcome,
  type TrashProgress,
} from './trash-outcome';
import { replayJournal } from './trash-replay';
import { processTimers } from '../process-timers';

export type { TrashOutcome, TrashProgress } from './trash-outcome';
export type { TrashEngine, TrashOperationsOptions } from './trash-options';
import type { TrashOperationsOptions } from './trash-options';
import type { ImageBatch, ImageEntry, Restore, TaskBatch, TaskEntry } from './trash-journal';

export class TrashOperations implements Disposable {
  private readonly held: HeldEntries;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** The trash's operations, one at a time in the order asked (the core's runner, queuing). */
  private readonly runner: OperationRunner<'trash'>;
  private readonly progressed: Emitter<TrashProgress>;
  /** The trash's place around the library's changes of folder. */
  private readonly following: Disposable | undefined;

  constructor(private readonly options: TrashOperationsOptions) {
    this.clock = options.clock ?? processTimers;
    this.logger = options.logger ?? silentLogger;
    this.held = new HeldEntries(this.clock);
    this.runner = new OperationRunner({ clock: this.clock, kinds: { trash: 'queue' } });
    this.progressed = new Emitter({ name: 'trash progress', logger: this.logger });
    this.following = options.core.library?.aroundChanges((change) => this.reroot(change));
  }

  /** Stops following the library's changes of folder (what is held stays held). */
  dispose(): void {
    this.following?.dispose();
  }

  /** Calls `listener` as operations progress (a few times a second, and at the end of each). */
  onProgress(listener: (progress: TrashProgress) => void): Disposable {
    return this.progressed.event(listener);
  }

  /** How far the operation under way is; null when none is. */
  inFlight(): TrashProgress | null {
    const running = this.runner.inFlight<TrashProgress>('trash');
    if (!running) return null;
    return running.progress ?? { operation: 'restore', items: 'images', done: 0, total: 0 };
  }

  /** Whether the image can still be brought back. */
  holdsImage(ref: ImageRef): boolean {
    return this.held.image(imageKey(ref)) !== undefined;
  }

  /**
   * Finishes what an earlier run left in the journal for the current gallery: Undos under way
   * are completed, held images go on to the system trash, held tasks stay removed.
   */
  replay(): Promise<void> {
    return this.run(() => this.replayJournal());
  }

  /** Moves saved images to the gallery's trash and marks them deleted. */
  deleteImages(refs: readonly ImageRef[]): Promise<TrashOutcome> {
    return this.run(async (operation) => {
      const { engine, gallery } = this.options.core;
      const outcome = new OutcomeBuilder();
      const entries: ImageEntry[] = [];
      for (const ref of distinctRefs(refs)) {
        try {
          const { image } = findImage(engine, ref);
          savedFile(gallery, image);
          const files = imageFilesOf(image);
          if (files.length === 0)
            throw new GalleryImageError(sentence('error.gallery.imageNotOnDiskShort'));
          entries.push({ id: randomUUID(), ...ref, files: heldNames(files) });
        } catch (error) {
          outcome.fail(error);
        }
      }
      if (entries.length === 0) return outcome.done();
      const batch: ImageBatch = {
        v: 1,
        kind: 'images',
        id: randomUUID(),
        root: gallery.root,
        at: this.clock.now(),
        entries,
      };
      await this.options.journal.saveBatch(batch);
      this.held.open(batch);
      const deps = { records: engine, trash: this.trashAt(batch.root) };
      for (const [n, entry] of entries.entries()) {
        try {
          outcome.changed(await putAside(deps, entry));
          this.held.addImage(batch, entry);
        } catch (error) {
          outcome.fail(error);
        }
        operation.report(
          { operation: 'delete', items: 'images', done: n + 1, total: entries.length },
          n + 1 === entries.length,
        );
      }
      await this.closeBatch(batch.id);
      return outcome.done();
    });
  }

  /** Brings deleted images back from the gallery's trash (Undo). */
  restoreImages(refs: readonly ImageRef[]): Promise<TrashOutcome> {
    return this.run(async (operation) => {
      const { engine } = this.options.core;
      const outcome = new OutcomeBuilder();
      const chosen: HeldImage[] = [];
      for (const ref of distinctRefs(refs)) {
        const held = this.held.image(imageKey(ref));
        try {
          if (!held) throw new GalleryImageError(sentence('error.gallery.imageInSystemTrash'));
          if (findImage(engine, ref).image.state !== 'deleted')
            throw new GalleryImageError(sentence('error.gallery.imageChangedSinceDelete'));
          chosen.push(held);
        } catch (error) {
          outcome.fail(error);
        }
      }
      await this.restoring(
        { chosen, items: 'images', operation },
        async ({ batch, entry }) => {
          const record = await bringBack(
            { records: engine, trash: this.trashAt(batch.root) },
            entry,
          );
          if (record) outcome.changed(record);
          return true;
        },
        outcome,
      );
      return outcome.done();
    });
  }

  /** Removes tasks from the history, their records held for Undo. Their files stay in the gallery. */
  removeTasks(localIds: readonly string[]): Promise<{ removed: string[]; skipped: number }> {
    return this.run(async (operation) => {
      const { engine } = this.options.core;
      const ids = [...new Set(localIds)];
      const records = ids
        .map((id) => engine.get(id))
        .filter((r): r is TaskRecord => r !== undefined);
      const removed: string[] = [];
      if (records.length === 0) return { removed, skipped: ids.length };
      const entries = records.map((record) => ({ id: randomUUID(), record }));
      const batch: TaskBatch = {
        v: 1,
        kind: 'tasks',
        id: randomUUID(),
        at: this.clock.now(),
        entries,
      };
      await this.options.journal.saveBatch(batch);
      this.held.open(batch);
      for (const [n, entry] of entries.entries()) {
        if (engine.remove(entry.record.localId)) {
          removed.push(entry.record.localId);
          this.held.addTask(batch, entry);
        }
        operation.report(
          { operation: 'delete', items: 'tasks', done: n + 1, total: entries.length },
          n + 1 === entries.length,
        );
      }
      await this.closeBatch(batch.id);
      return { removed, skipped: ids.length - removed.length };
    });
  }

  /** Puts removed tasks back in the history (Undo); an unfinished one is worked on again. */
  restoreTasks(localIds: readonly string[]): Promise<TrashOutcome> {
    return this.run(async (operation) => {
      const { engine } = this.options.core;
      const outcome = new OutcomeBuilder();
      const chosen: HeldTask[] = [];
      for (const localId of new Set(localIds)) {
        const held = this.held.task(localId);
        if (held) chosen.push(held);
        else outcome.fail(new EngineInputError(sentence('error.library.taskNoLongerHeld')));
      }
      await this.restoring(
        { chosen, items: 'tasks', operation },
        ({ entry }) => {
          outcome.changed(engine.reinstate(entry.record));
          return Promise.resolve(true);
        },
        outcome,
      );
      return outcome.done();
    });
  }

  /**
   * Waits for the operations under way, at most `ms` (the app quits).
   * @returns whether none is left.
   */
  settle(ms: number): Promise<boolean> {
    return this.runner.settle('trash', ms);
  }

  /**
   * Everything held goes on now: images to the system trash, tasks removed for good. Entries an
   * Undo under way brings back are left to it (or to the next start's replay).
   */
  async empty(): Promise<void> {
    for (const batchId of this.held.batchIds()) await this.expire(batchId);
  }

  /**
   * Runs `change`, which moves the gallery to another folder (or opens one elsewhere), as one of
   * the trash's operations: images held for Undo go on to the system trash first (an Undo could
   * not bring them back into a gallery that moved), a delete or Undo asked for meanwhile waits
   * and acts on the gallery where it is then, and afterwards what an earlier run left in the
   * journal for that folder is finished, as at start. Given the core's library, the trash is
   * run this way around every change of its folder (see {@link TrashOperationsOptions.core}).
   */
  reroot<T>(change: () => Promise<T>): Promise<T> {
    return this.run(async () => {
      await this.empty();
      try {
        return await change();
      } finally {
        // Before any operation that waited: it is this run's own, not one to finish.
        await this.replayJournal().catch(() => undefined);
      }
    });
  }

  /** Waits for every operation under way, then empties. */
  async finish(): Promise<void> {
    await this.run(() => this.empty());
  }

  /** Runs `work` after every operation asked before it, its progress to the listeners. */
  private run<T>(work: (operation: Operation<TrashProgress>) => Promise<T>): Promise<T> {
    return this.runner.run('trash', work, { onProgress: (p) => this.progressed.fire(p) });
  }

  /** Brings back the chosen entries under one restore file; `back` returns true when done. */
  private async restoring<T extends HeldImage | HeldTask>(
    what: {
      chosen: readonly T[];
      items: 'images' | 'tasks';
      operation: Operation<TrashProgress>;
    },
    back: (held: T) => Promise<boolean>,
    outcome: OutcomeBuilder,
  ): Promise<void> {
    const { chosen, items, operation } = what;
    if (chosen.length === 0) return;
    const restore: Restore = {
      v: 1,
      id: randomUUID(),
      entries: chosen.map(({ batch, entry }) => ({ batch: batch.id, entry: entry.id })),
    };
    const ids = chosen.map(({ entry }) => entry.id);
    // Marked before the journal write: a quit meanwhile sends none of them on.
    this.held.markRestoring(ids, true);
    try {
      await this.options.journal.saveRestore(restore);
      for (const [n, held] of chosen.entries()) {
        try {
          if (await back(held)) await this.forget(held.batch.id, held.entry);
        } catch (error) {
          outcome.fail(error);
        }
        const done = n + 1;
        operation.report(
          { operation: 'restore', items, done, total: chosen.length },
          done === chosen.length,
        );
      }
      await this.options.journal.dropRestore(restore.id);
    } finally {
      this.held.markRestoring(ids, false);
    }
  }

  /** The batch's time for Undo ends: what it still holds goes on. */
  private async expire(batchId: string): Promise<void> {
    const settled = this.held.settled(batchId);
    if (!settled) return;
    const { batch, entries } = settled;
    for (const entry of entries) {
      if (batch.kind === 'images' && 'files' in entry) {
        // A file that cannot go yet keeps its entry: the next start tries again.
        if (!(await this.trashAt(batch.root).toSystemTrash(entry.id, entry.files))) continue;
      }
      await this.forget(batchId, entry);
    }
  }

  private async forget(batchId: string, entry: ImageEntry | TaskEntry): Promise<void> {
    const emptied = this.held.forget(batchId, entry);
    if (emptied !== null) await this.options.journal.dropBatch(emptied);
  }

  private async closeBatch(batchId: string): Promise<void> {
    const keepMs = this.options.keepMs ?? TRASH_KEEP_MS;
    const expire = () => void this.run(() => this.expire(batchId)).catch(() => undefined);
    if (!this.held.close(batchId, keepMs, expire)) await this.options.journal.dropBatch(batchId);
  }

  private replayJournal(): Promise<void> {
    return replayJournal({
      journal: this.options.journal,
      records: this.options.core.engine,
      trash: this.trashAt(this.options.core.gallery.root),
      logger: this.logger,
    });
  }

  private trashAt(root: string): GalleryTrash {
    return new GalleryTrash({
      root,
      sendToSystemTrash: this.options.sendToSystemTrash,
      logger: this.logger,
    });
  }
}
