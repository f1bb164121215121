/**
 * How task changes reach the page: as `tasks:updated` batches (shared/ipc/task-changes.ts), at
 * most one every {@link TASK_UPDATES_INTERVAL_MS}, each task once per batch with its last change.
 * With 200 tasks polling every 3 s the engine changes a task about 70 times a second; the page
 * hears of it about seven times a second and draws each batch once.
 *
 * A change that moved only the poll bookkeeping (the count, when it was polled, `updatedAt`:
 * what core/engine/bookkeeping-writes.ts calls bookkeeping) since the record the page was last
 * sent goes as the task's live part, without the record and its prompt. The record the page was
 * sent is remembered for the tasks still under way only (bounded), so a task that is done costs
 * nothing here; one not remembered is sent whole.
 *
 * Each whole record goes with its place in the views the page has open (open-views.ts), found
 * when the batch leaves, so it says where the record stands after its last change.
 *
 * A change of triage alone (a triage commit) goes as the task's triage delta, never its record;
 * one queued after the task's whole record is applied onto that record, two deltas are merged.
 *
 * Removals and refused submits go through the same queue: a removal after an update of the same
 * task replaces it (the page never gets the task back after it went), and an Undo after a
 * removal replaces that; a refusal never overtakes the record of the submit it ends.
 */
import { isUnfinished, type TaskRecord } from '../../shared/domain/task-record';
import { type TaskTriageDelta, withTriageDelta } from '../../shared/domain/triage-delta';
import type { TaskChange, TaskItem, TaskRefusal } from '../../shared/ipc/contract';
import { MAX_TASK_CHANGES, taskChangeSchema } from '../../shared/ipc/task-changes';
import { isBookkeepingOnly } from '../core/engine';
import type { Clock } from '../ports/clock';
import type { Disposable } from '../ports/disposable';
import type { Logger } from '../ports/logger';
import { CoalescingQueue } from './coalescing-queue';
import { parsedByContract, type Emit } from './ipc-main-bridge';
import type { Memberships, OpenViews } from './open-views';

/** The least time between two batches: at most about seven a second. */
export const TASK_UPDATES_INTERVAL_MS = 150;
/** Records remembered as what the page has (tasks under way); the oldest goes beyond this. */
const MAX_REMEMBERED = 10_000;

/** What handlers tell the page of tasks besides the engine's own changes. */
export interface TaskChangeSink {
  /** The task left the history. */
  removed(localId: string): void;
  /** A submit refused for the account (not kept). */
  refused(refusal: TaskRefusal): void;
}

export interface TaskUpdatesDeps {
  readonly clock: Clock;
  readonly emit: Emit;
  readonly logger: Logger;
  /** Default {@link TASK_UPDATES_INTERVAL_MS}. */
  readonly intervalMs?: number;
  /** The page's open views; without, changes say nothing of views. */
  readonly views?: Pick<OpenViews, 'membership'>;
}

/** A change waiting for the next batch. */
type Queued =
  | { readonly change: 'task'; readonly item: TaskItem }
  | { readonly change: 'triage'; readonly delta: TaskTriageDelta }
  | { readonly change: 'removed'; readonly localId: string }
  | { readonly change: 'refused'; readonly refusal: TaskRefusal };

export class TaskUpdates implements TaskChangeSink, Disposable {
  private readonly queue: CoalescingQueue<Queued>;
  /** The record the page was last sent whole, of each task under way. */
  private readonly sent = new Map<string, TaskRecord>();

  constructor(private readonly deps: TaskUpdatesDeps) {
    this.queue = new CoalescingQueue({
      clock: deps.clock,
      intervalMs: deps.intervalMs ?? TASK_UPDATES_INTERVAL_MS,
      deliver: (batch) => this.deliver(batch),
    });
  }

  /** The task changed: `item` is its record and live state now. */
  updated(item: TaskItem): void {
    this.queue.push(item.record.localId, { change: 'task', item });
  }

  /** The task's triage alone changed (shared/domain/triage-delta.ts). */
  triaged(delta: TaskTriageDelta): void {
    // A record remembered for live parts lacks this change: the next is sent whole.
    this.sent.delete(delta.localId);
    this.queue.push(delta.localId, { change: 'triage', delta }, withTriage);
  }

  removed(localId: string): void {
    // Whatever comes of the task next (an Undo) is sent whole: the page may have let it go.
    this.sent.delete(localId);
    this.queue.push(localId, { change: 'removed', localId });
  }

  refused(refusal: TaskRefusal): void {
    this.sent.delete(refusal.localId);
    this.queue.push(refusal.localId, { change: 'refused', refusal });
  }

  /** Sends what waits now (before a quit, so the page's last view is the final one). */
  flush(): void {
    this.queue.flush();
  }

  /** Sends what waits, then nothing more. */
  dispose(): void {
    this.queue.dispose();
    this.sent.clear();
  }

  private deliver(batch: readonly Queued[]): void {
    const changed = batch.map((queued) => this.toChange(queued));
    const places = this.placesOf(changed);
    const changes = changed.flatMap((change) => this.fitting(withViews(change, places)));
    for (let at = 0; at < changes.length; at += MAX_TASK_CHANGES) {
      try {
        const message = changes.slice(at, at + MAX_TASK_CHANGES);
        this.deps.emit('tasks:updated', parsedByContract('tasks:updated', message));
      } catch (error) {
        // A window going away mid-send: the next page reads the tasks afresh.
        this.deps.logger.warn('task updates not sent', { detail: String(error) });
      }
    }
  }

  private toChange(queued: Queued): TaskChange {
    if (queued.change === 'removed') {
      this.sent.delete(queued.localId);
      return queued;
    }
    if (queued.change === 'refused') {
      this.sent.delete(queued.refusal.localId);
      return { ...queued.refusal, change: 'refused' };
    }
    if (queued.change === 'triage') return { ...queued.delta, change: 'triage' };
    const { record, live } = queued.item;
    const before = this.sent.get(record.localId);
    if (before && isBookkeepingOnly(before, record)) {
      const { localId, updatedAt, polls, lastPolledAt } = record;
      return { change: 'live', localId, updatedAt, polls, lastPolledAt, live };
    }
    this.remember(record);
    return { change: 'task', record, live };
  }

  /**
   * The change as the contract parsed it (stripped to its schema), or none. Each change is parsed
   * alone, so one task that does not match would not hold back every other task's: it alone is
   * left out (and sent whole next time). The one parse: the emitter sends the parsed changes as
   * they are (parsedByContract), not parsing each again with the message's schema.
   */
  private fitting(change: TaskChange): TaskChange[] {
    const parsed = taskChangeSchema().safeParse(change);
    if (parsed.success) return [parsed.data];
    this.sent.delete(localIdOf(change));
    this.deps.logger.error('task change dropped: does not match the contract', {
      change: change.change,
    });
    return [];
  }

  /**
   * Where the batch's whole records and triage changes stand in the open views (none when it
   * cannot be read).
   */
  private placesOf(changes: readonly TaskChange[]): Memberships {
    const localIds = changes.flatMap((change) =>
      change.change === 'task' || change.change === 'triage' ? [localIdOf(change)] : [],
    );
    try {
      return this.deps.views?.membership(localIds) ?? new Map();
    } catch (error) {
      // The history closed under the batch (a quit, a move): the page reads its views again.
      this.deps.logger.warn('task views not found', { detail: String(error) });
      return new Map();
    }
  }

  /** Keeps the record the page now has, while the task is under way (live parts may follow). */
  private remember(record: TaskRecord): void {
    this.sent.delete(record.localId);
    if (!isUnfinished(record)) return;
    this.sent.set(record.localId, record);
    if (this.sent.size <= MAX_REMEMBERED) return;
    const oldest = this.sent.keys().next().value;
    if (oldest !== undefined) this.sent.delete(oldest);
  }
}

/** The task a change is about. */
const localIdOf = (change: TaskChange): string =>
  change.change === 'task' ? change.record.localId : change.localId;

/** A whole record's or a triage change with its place in the open views, when main found one. */
function withViews(change: TaskChange, places: Memberships): TaskChange {
  if (change.change !== 'task' && change.change !== 'triage') return change;
  const views = places.get(localIdOf(change));
  return views ? { ...change, views } : change;
}

/**
 * A triage change queued after `queued` (of the same task): applied onto a whole record, merged
 * with an earlier triage change (its images after the earlier's); after a removal, nothing.
 */
function withTriage(queued: Queued, next: Queued): Queued {
  if (next.change !== 'triage') return next;
  const { delta } = next;
  switch (queued.change) {
    case 'task': {
      const record = withTriageDelta(queued.item.record, delta);
      return { change: 'task', item: { ...queued.item, record } };
    }
    case 'triage': {
      const images = new Map(queued.delta.images.map((image) => [image.index, image]));
      for (const image of delta.images) images.set(image.index, image);
      const updatedAt = Math.max(queued.delta.updatedAt, delta.updatedAt);
      return { change: 'triage', delta: { ...delta, updatedAt, images: [...images.values()] } };
    }
    case 'removed':
      return queued;
    case 'refused':
      return next;
  }
}
