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
 *
 * Each delete, removal and Undo is a user's change asked through the core's closing gate
 * (core/base/closing-gate.ts): once the core closes, one asked for is refused with "Pictor is
 * closing" (the page may still ask while the window goes): run then, it would meet a history
 * already closed and say the disk was full. Those asked before run to their end first, with the
 * history open, so what an outcome says is removed is written.
 */
import { randomUUID } from 'node:crypto';
import { sentence } from '../../../shared/i18n/sentence';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { Disposable } from '../../ports/disposable';
import { Emitter, type Event } from '../../ports/event';
import { silentLogger, type Logger } from '../../ports/logger';
import { EngineInputError } from '../engine';
import {
  distinctImages,
  findImage,
  GalleryImageError,
  imageFilesOf,
  type ImageRef,
  savedFile,
} from '../gallery';
import { GalleryTrash, TRASH_KEEP_MS, heldNames } from './gallery-trash';
import { HeldEntries, type HeldImage, type HeldTask } from './held-entries';
import { imageKey, putAside } from './image-entries';
import { ClosingGate, nextTurn, type Operation, OperationRunner, processTimers } from '../base';
import {
  OutcomeBuilder,
  type TaskRemoval,
  type TrashOutcome,
  type TrashProgress,
} from './trash-outcome';
import { replayJournal } from './trash-replay';
import { AskedDeletes } from './asked-deletes';
import { TrashBatches } from './trash-batches';

export type { TaskRemoval, TrashOutcome, TrashProgress } from './trash-outcome';
export type { TrashEngine, TrashOperationsOptions, TrashRunOptions } from './trash-options';
import type { TrashOperationsOptions, TrashRunOptions } from './trash-options';
import type { ImageBatch, ImageEntry, TaskBatch } from './trash-journal';

/** Records a delete or an Undo reads on main per turn of its loop before anything moves. */
const READS_PER_TURN = 25;

export class TrashOperations implements Disposable {
  private readonly held: HeldEntries;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** The trash's operations, one at a time in the order asked (the core's runner, queuing). */
  private readonly runner: OperationRunner<'trash'>;
  private readonly progressed: Emitter<TrashProgress>;
  /** The trash's place around the library's changes of folder. */
  private readonly following: Disposable | undefined;
  /** Deletes and removals asked and not ended: an Undo of their items stops them. */
  private readonly asked = new AskedDeletes();
  /** The steps over what is held: restores, time for Undo, the journal's files. */
  private readonly batches: TrashBatches;
  /** Where deletes, removals and Undos are asked: the core's gate, else the trash's own. */
  private readonly gate: ClosingGate;

  constructor(private readonly options: TrashOperationsOptions) {
    this.clock = options.clock ?? processTimers;
    this.logger = options.logger ?? silentLogger;
    this.gate = options.core.gate ?? new ClosingGate();
    this.held = new HeldEntries(this.clock);
    this.runner = new OperationRunner({ clock: this.clock, kinds: { trash: 'queue' } });
    this.batches = new TrashBatches({
      held: this.held,
      journal: options.journal,
      engine: options.core.engine,
      trashAt: (root) => this.trashAt(root),
      keepMs: options.keepMs ?? TRASH_KEEP_MS,
      later: (work) => void this.run(work).catch(() => undefined),
    });
    this.progressed = new Emitter({ name: 'trash progress', logger: this.logger });
    this.following = options.core.library?.aroundChanges((change) => this.reroot(change));
  }

  /** Stops following the library's changes of folder (what is held stays held). */
  dispose(): void {
    this.following?.dispose();
  }

  /**
   * Refuses every delete, removal and Undo asked for from now on (its gate's asks: the core's
   * close has refused them already), and waits for those asked before and for what they left
   * queued (the core closes next: they must end while the history is open).
   */
  async close(): Promise<void> {
    this.dispose();
    await this.gate.refuseAsks();
    await this.run(async () => undefined);
  }

  /** Calls `listener` as operations progress (a few times a second, and at the end of each). */
  readonly onDidProgress: Event<TrashProgress> = (listener) => this.progressed.event(listener);

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

  /**
   * Moves saved images to the gallery's trash and marks them deleted. Stopped (an Undo of any of
   * its images, or `options.signal`), it moves no more and brings back what it had moved, in the
   * same operation: the outcome is then `canceled`, its records as they are after that.
   */
  deleteImages(refs: readonly ImageRef[], options: TrashRunOptions = {}): Promise<TrashOutcome> {
    return this.gate.ask(() => {
      const distinct = distinctImages(refs);
      const asked = this.asked.ask('images', distinct.map(imageKey), options.signal);
      return this.run((operation) => this.deleteRun(distinct, operation), asked.signal).finally(
        asked.end,
      );
    });
  }

  /**
   * Brings deleted images back from the gallery's trash (Undo). A delete of any of them still
   * under way, or waiting, is stopped first and brings back what it moved itself: each image it
   * named that is not deleted then counts as back.
   */
  restoreImages(refs: readonly ImageRef[]): Promise<TrashOutcome> {
    return this.gate.ask(() => {
      const distinct = distinctImages(refs);
      // Before the restore's turn: the stopped delete runs (or ends) first, in the order asked.
      const stopped = this.asked.stop('images', new Set(distinct.map(imageKey)));
      return this.run(async (operation) => {
        const { engine } = this.options.core;
        const outcome = new OutcomeBuilder();
        const chosen: HeldImage[] = [];
        for (const [n, ref] of distinct.entries()) {
          if (n > 0 && n % READS_PER_TURN === 0) await nextTurn();
          const held = this.held.image(imageKey(ref));
          try {
            const found = findImage(engine, ref);
            if (!held && stopped.has(imageKey(ref)) && found.image.state !== 'deleted') {
              outcome.changed(found.record);
              continue;
            }
            if (!held) throw new GalleryImageError(sentence('error.gallery.imageInSystemTrash'));
            if (found.image.state !== 'deleted')
              throw new GalleryImageError(sentence('error.gallery.imageChangedSinceDelete'));
            chosen.push(held);
          } catch (error) {
            outcome.fail(error);
          }
        }
        await this.batches.restoring(
          { chosen, items: 'images', operation },
          this.batches.imageBack(outcome),
          outcome,
        );
        return outcome.done();
      });
    });
  }

  /**
   * Removes tasks from the history, their records held for Undo. Their files stay in the gallery.
   * Stopped (an Undo of any of them, or `options.signal`), it removes no more and puts back what
   * it had removed, in the same operation (`canceled`; `removed` then names what could not come
   * back).
   */
  removeTasks(localIds: readonly string[], options: TrashRunOptions = {}): Promise<TaskRemoval> {
    return this.gate.ask(() => {
      const ids = [...new Set(localIds)];
      const asked = this.asked.ask('tasks', ids, options.signal);
      return this.run((operation) => this.removeRun(ids, operation), asked.signal).finally(
        asked.end,
      );
    });
  }

  /**
   * Puts removed tasks back in the history (Undo); an unfinished one is worked on again. A removal
   * of any of them still under way, or waiting, is stopped first and puts back what it removed.
   */
  restoreTasks(localIds: readonly string[]): Promise<TrashOutcome> {
    return this.gate.ask(() => {
      const ids = [...new Set(localIds)];
      const stopped = this.asked.stop('tasks', new Set(ids));
      return this.run(async (operation) => {
        const { engine } = this.options.core;
        const outcome = new OutcomeBuilder();
        const chosen: HeldTask[] = [];
        for (const localId of ids) {
          const held = this.held.task(localId);
          const present = engine.get(localId);
          if (held) chosen.push(held);
          else if (stopped.has(localId) && present) outcome.changed(present);
          else outcome.fail(new EngineInputError(sentence('error.library.taskNoLongerHeld')));
        }
        await this.batches.restoring(
          { chosen, items: 'tasks', operation },
          this.batches.taskBack(outcome),
          outcome,
        );
        return outcome.done();
      });
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
    for (const batchId of this.held.batchIds()) await this.batches.expire(batchId);
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

  /**
   * Runs `work` after every operation asked before it, its progress to the listeners; `signal`
   * stops it (its own signal aborts, even before its turn).
   */
  private run<T>(
    work: (operation: Operation<TrashProgress>) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.runner.run('trash', work, {
      onProgress: (p) => this.progressed.fire(p),
      ...(signal ? { signal } : {}),
    });
  }

  /** A delete of images as one operation: see {@link deleteImages}. */
  private async deleteRun(
    refs: readonly ImageRef[],
    operation: Operation<TrashProgress>,
  ): Promise<TrashOutcome> {
    const outcome = new OutcomeBuilder();
    if (operation.signal.aborted) return { ...outcome.done(), canceled: true };
    const { engine, gallery } = this.options.core;
    const entries: ImageEntry[] = [];
    for (const [n, ref] of refs.entries()) {
      // Each image's record is read on main: a turn of its loop every READS_PER_TURN.
      if (n > 0 && n % READS_PER_TURN === 0) await nextTurn();
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
    // A task that just finished may still have its sidecar on the way (an XMP beside the image):
    // written after the move, it would be left behind in the folder, at the image's old name.
    await engine.whenWritten?.([...new Set(entries.map((entry) => entry.localId))]);
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
    const moved: HeldImage[] = [];
    for (const [n, entry] of entries.entries()) {
      if (operation.signal.aborted) break;
      try {
        outcome.changed(await putAside(deps, entry));
        this.held.addImage(batch, entry);
        moved.push({ batch, entry });
      } catch (error) {
        outcome.fail(error);
      }
      operation.report(
        { operation: 'delete', items: 'images', done: n + 1, total: entries.length },
        n + 1 === entries.length,
      );
    }
    if (operation.signal.aborted) {
      return this.batches.takeBack(
        { batchId: batch.id, moved, items: 'images', operation },
        outcome,
      );
    }
    await this.batches.close(batch.id);
    return outcome.done();
  }

  /** A removal of tasks as one operation: see {@link removeTasks}. */
  private async removeRun(
    ids: readonly string[],
    operation: Operation<TrashProgress>,
  ): Promise<TaskRemoval> {
    const { engine } = this.options.core;
    if (operation.signal.aborted) return { removed: [], skipped: ids.length, canceled: true };
    const records = ids.map((id) => engine.get(id)).filter((r): r is TaskRecord => r !== undefined);
    if (records.length === 0) return { removed: [], skipped: ids.length };
    // Nothing of a removed task is written after its removal (its last sidecar, just asked for).
    await engine.whenWritten?.(records.map((record) => record.localId));
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
    const moved: HeldTask[] = [];
    for (const [n, entry] of entries.entries()) {
      if (operation.signal.aborted) break;
      if (await engine.remove(entry.record.localId)) {
        this.held.addTask(batch, entry);
        moved.push({ batch, entry });
      }
      operation.report(
        { operation: 'delete', items: 'tasks', done: n + 1, total: entries.length },
        n + 1 === entries.length,
      );
      // A removal is a write each (in the history worker): between two, an Undo asked meanwhile
      // is heard.
      await nextTurn();
    }
    const removed = (): string[] => moved.map(({ entry }) => entry.record.localId);
    if (operation.signal.aborted) {
      await this.batches.takeBack({ batchId: batch.id, moved, items: 'tasks', operation });
      const left = removed().filter((localId) => this.held.task(localId) !== undefined);
      return { removed: left, skipped: ids.length - left.length, canceled: true };
    }
    await this.batches.close(batch.id);
    return { removed: removed(), skipped: ids.length - moved.length };
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
