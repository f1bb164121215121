/**
 * A destructive batch the window runs for the user (a delete of images, a removal of tasks) as
 * one entry of the status area from its first moment, as a file manager's move to the trash is:
 * while it runs, what it does, how far, and Undo (which stops it: main then brings back what it
 * had moved, as one step); when it ends, what it did with the real count, said once, with Undo;
 * while its Undo runs, that, with no Undo (a spent Undo is not offered); when that ends, what
 * came back. How far is main's own count (`trash:progress`).
 */
import type { StoreApi } from 'zustand';
import type { TrashProgressPayload } from '../../shared/ipc/contract';
import { t } from '../i18n';
import type { AppState } from './app-state';
import type { Words } from './status-slice';

/** What a job is doing: running, done (Undo offered), its Undo running, undone. */
export type TrashJobPhase = 'running' | 'done' | 'undoing' | 'undone';

export type TrashItems = TrashProgressPayload['items'];

const RUNNING = { images: 'trash.job.deleteImages', tasks: 'trash.job.deleteTasks' } as const;
const UNDOING = { images: 'trash.job.restoreImages', tasks: 'trash.job.restoreTasks' } as const;

export class TrashJob {
  private current: TrashJobPhase = 'running';
  /** Done by the requests before the one under way (a large batch is sent in chunks). */
  private base = 0;
  private readonly entry: number;
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly store: Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>,
    readonly items: TrashItems,
    /** How many it acts on. */
    readonly total: number,
    undo: () => void,
  ) {
    const count = total;
    this.entry = store.getState().startJob(() => t(RUNNING[items], { count }), total, {
      label: () => t('gallery.undo'),
      run: undo,
    });
    this.watch();
  }

  get phase(): TrashJobPhase {
    return this.current;
  }

  /** Its Undo was asked already (running or done): none is offered again. */
  get spent(): boolean {
    return this.current === 'undoing' || this.current === 'undone';
  }

  /** The requests sent so far did `done` of the whole (the next one counts from there). */
  reached(done: number): void {
    this.base = done;
    if (this.current === 'running') this.update({ done });
  }

  /** It ended: `words` say what it did; its Undo stays offered unless `undoable` is false. */
  finish(words: Words, undoable = true): void {
    this.current = 'done';
    this.ended();
    this.update({ text: words, finished: true, ...(undoable ? {} : { action: null }) });
  }

  /** Its Undo starts (its button, Ctrl/Cmd+Z): no Undo any more, how far the way back is. */
  undoing(): void {
    this.current = 'undoing';
    const { items, total: count } = this;
    this.update({ text: () => t(UNDOING[items], { count }), action: null, done: 0 });
    this.watch();
  }

  /** Its Undo ended: `words` say what came back. */
  undone(words: Words): void {
    this.current = 'undone';
    this.ended();
    this.update({ text: words, finished: true, action: null });
  }

  /**
   * Its Undo failed as a whole (the failure is shown instead): the job is done again, so a later
   * Undo asks once more.
   */
  undoFailed(): void {
    this.current = 'done';
    this.ended();
    this.store.getState().dismissStatus(this.entry);
  }

  /** Nothing to say in the entry (it failed as a whole: the failure is shown instead). */
  drop(): void {
    this.current = 'undone';
    this.ended();
    this.store.getState().dismissStatus(this.entry);
  }

  private update(patch: Parameters<AppState['updateJob']>[1]): void {
    this.store.getState().updateJob(this.entry, patch);
  }

  /** Main's progress of this kind of item moves the entry's bar. */
  private watch(): void {
    this.stopWatching();
    this.unwatch = this.store.subscribe((state, before) => {
      const progress = state.trashProgress;
      if (progress === null || progress === before.trashProgress) return;
      if (progress.items !== this.items) return;
      if (this.current === 'running' && progress.operation === 'delete') {
        this.update({ done: Math.min(this.total, this.base + progress.done) });
      } else if (this.current === 'undoing' && progress.operation === 'restore') {
        this.update({ done: progress.done, total: progress.total });
      }
    });
  }

  private stopWatching(): void {
    this.unwatch?.();
    this.unwatch = null;
  }

  /**
   * Main answered: its operation ended. The count it sent last (it reports a few times a second,
   * and the last report may lag the answer) no longer says "280 of 300" beside what it did.
   */
  private ended(): void {
    this.stopWatching();
    if (this.store.getState().trashProgress?.items === this.items) {
      this.store.setState({ trashProgress: null });
    }
  }
}

/** What a batch (running or ended) keeps for its Undo. */
export interface UndoableBatch<T> {
  readonly trash: TrashJob;
  /** Sent to main so far: what an Undo while it runs asks back. */
  readonly sent: readonly T[];
  /** An Undo stopped it: no more chunks go. */
  stopped: boolean;
}

/** One Undo under way: what it asks back, of which batch, and how it ends. */
export interface UndoUnderWay<T, J> {
  readonly job: J | undefined;
  /** The batch was still running (it is stopped now). */
  readonly running: boolean;
  readonly asking: readonly T[];
  /** What came back, said in the batch's entry (or once, for a step of no known batch). */
  undone(words: Words): void;
  /** None came back: the batch stands, and the window's Undo keeps its step to ask again. */
  failed(): void;
}

/**
 * Starts the Undo of one step on the window's Undo stack: `asked`, by default the last one
 * (`last`, which `forget` clears). A batch still running is stopped and asks back what it sent;
 * one that ended asks back what main said it did (`did`); a step of no known batch asks back its
 * items. Null when there is nothing (more) to undo.
 */
export function startUndo<T, J extends UndoableBatch<T>>(
  store: Pick<StoreApi<AppState>, 'getState'>,
  step: { asked: readonly T[] | undefined; last: readonly T[] | null; forget: () => void },
  jobs: WeakMap<readonly T[], J>,
  did: (job: J) => readonly T[],
): UndoUnderWay<T, J> | null {
  const { asked, last } = step;
  const items = asked ?? last;
  if (!items || items.length === 0) return null;
  // Ctrl/Cmd+Z after this one has nothing left to undo when this was the last step.
  if (last !== null && (asked === undefined || asked === last)) step.forget();
  const job = jobs.get(items);
  if (job?.trash.spent) return null;
  const running = job?.trash.phase === 'running';
  if (job && running) job.stopped = true;
  const asking = job ? (running ? [...job.sent] : did(job)) : items;
  job?.trash.undoing();
  return {
    job,
    running,
    asking,
    undone(words) {
      if (job) job.trash.undone(words);
      else store.getState().confirm(words);
    },
    failed() {
      if (job && !running) job.trash.undoFailed();
      else job?.trash.drop();
    },
  };
}
