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
