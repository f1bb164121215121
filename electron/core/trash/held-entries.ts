/**
 * What the trash holds for Undo in this run, in memory beside the journal: each batch with the
 * entries still held and the timer that ends their time for Undo, and each held image and task
 * by the name the page asks for it with.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import { imageKey } from './image-entries';
import type { Batch, ImageBatch, ImageEntry, TaskBatch, TaskEntry } from './trash-journal';

interface HeldBatch {
  readonly batch: Batch;
  /** Entry ids still held. */
  readonly live: Set<string>;
  timer: TimerHandle | null;
  /** Its operation ended: its entries may go on. An open batch is still being put aside. */
  closed: boolean;
}

export interface HeldImage {
  readonly batch: ImageBatch;
  readonly entry: ImageEntry;
}

export interface HeldTask {
  readonly batch: TaskBatch;
  readonly entry: TaskEntry;
}

export class HeldEntries {
  private readonly batches = new Map<string, HeldBatch>();
  private readonly images = new Map<string, HeldImage>();
  private readonly tasks = new Map<string, HeldTask>();
  /** Entries an Undo under way brings back: their time for Undo does not end meanwhile. */
  private readonly restoring = new Set<string>();

  constructor(private readonly clock: Clock) {}

  /** Starts holding a batch whose entries are added as each is put aside. */
  open(batch: Batch): void {
    this.batches.set(batch.id, { batch, live: new Set(), timer: null, closed: false });
  }

  addImage(batch: ImageBatch, entry: ImageEntry): void {
    this.batches.get(batch.id)?.live.add(entry.id);
    this.images.set(imageKey(entry), { batch, entry });
  }

  addTask(batch: TaskBatch, entry: TaskEntry): void {
    this.batches.get(batch.id)?.live.add(entry.id);
    this.tasks.set(entry.record.localId, { batch, entry });
  }

  /** Ends the batch's time for Undo after `ms` (then `expire` runs); true when it holds anything. */
  close(batchId: string, ms: number, expire: () => void): boolean {
    const held = this.batches.get(batchId);
    if (!held) return false;
    if (held.live.size === 0) {
      this.batches.delete(batchId);
      return false;
    }
    held.closed = true;
    held.timer = this.clock.setTimeout(expire, ms);
    return true;
  }

  image(key: string): HeldImage | undefined {
    return this.images.get(key);
  }

  task(localId: string): HeldTask | undefined {
    return this.tasks.get(localId);
  }

  /**
   * A closed batch with the entries it still holds that no Undo under way brings back: what may
   * go on now. Null for a batch still being put aside.
   */
  settled(batchId: string): { batch: Batch; entries: Array<ImageEntry | TaskEntry> } | null {
    const held = this.batches.get(batchId);
    if (!held?.closed) return null;
    const live = (id: string) => held.live.has(id) && !this.restoring.has(id);
    const entries: Array<ImageEntry | TaskEntry> = held.batch.entries.filter((entry) =>
      live(entry.id),
    );
    return { batch: held.batch, entries };
  }

  batchIds(): string[] {
    return [...this.batches.keys()];
  }

  markRestoring(ids: readonly string[], on: boolean): void {
    for (const id of ids) {
      if (on) this.restoring.add(id);
      else this.restoring.delete(id);
    }
  }

  /**
   * The entry is held no more (back, or gone on). Returns the batch id when that was its last
   * entry (its journal file can go).
   */
  forget(batchId: string, entry: ImageEntry | TaskEntry): string | null {
    if ('record' in entry) {
      if (this.tasks.get(entry.record.localId)?.entry === entry)
        this.tasks.delete(entry.record.localId);
    } else if (this.images.get(imageKey(entry))?.entry === entry) {
      this.images.delete(imageKey(entry));
    }
    const held = this.batches.get(batchId);
    if (!held) return null;
    held.live.delete(entry.id);
    if (held.live.size > 0) return null;
    if (held.timer !== null) this.clock.clearTimeout(held.timer);
    this.batches.delete(batchId);
    return batchId;
  }
}
