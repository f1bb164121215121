/**
 * Triage of many images at once (a selection in the window, a CLI command, an agent's tool): a
 * rating, a flag, a tag added or removed, a board joined or left. One change is one history
 * transaction over every task it touches, written by the history worker
 * (core/history/history-writes.ts `triageInWorker`, a thread of its own: main's event loop never
 * waits on SQLite for it; all or none, each task read under the write lock, so a CLI and the
 * window never lose each other's changes) and one step of Undo: the window's Ctrl/Cmd+Z puts
 * back exactly what each image had, and Shift+Ctrl/Cmd+Z applies it again. Changes, Undos and
 * Redos run one after another in the order asked. The tasks written are then announced as what
 * the worker says it changed of each (its triage delta: no record is read or sent for it) and
 * their XMP sidecars asked of the engine, in turns of main's loop cut by time (its sidecar writer
 * writes a few tasks at once, each from its record as the history worker reads it). Every front
 * checks its words here, so the window and the CLI refuse the same things with the same
 * sentences.
 */
import { setImmediate } from 'node:timers';
import type { TaskTriageDelta } from '../../../shared/domain/triage-delta';
import {
  checkBoardPath,
  checkTag,
  MAX_RATING,
  MAX_TAGS_PER_LIBRARY,
  type TriageFlag,
} from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import { ClosingGate } from '../base';
import type { ImageRef } from '../gallery';
import type { TaskEngine } from '../engine';
import type { HistoryTriage, TriageEdit, TriageWrites, TriageWritten } from '../history';
import { imagesOfTasks } from './task-images';
import { TriageError } from './triage-error';

/** What a change does to each named image. */
export type TriageChange =
  | { readonly kind: 'rating'; readonly rating: number }
  | { readonly kind: 'flag'; readonly flag: TriageFlag }
  | { readonly kind: 'tag'; readonly tag: string; readonly add: boolean }
  | {
      readonly kind: 'board';
      readonly path: string;
      readonly add: boolean;
      /** With `add`: the board the images leave in the same step (a move, Alt-drag). */
      readonly from?: string;
    };

/** One change and the images it applies to, in a step of many ({@link TriageActions.applyEach}). */
export interface TriagePart {
  readonly refs: readonly ImageRef[];
  readonly change: TriageChange;
}

/** What a change (or its Undo) did. */
export interface TriageOutcome {
  /** Images whose triage changed. */
  readonly changed: number;
  /** Named images that already were so. */
  readonly unchanged: number;
  /** Named images the library does not have (or has in the trash). */
  readonly missing: readonly ImageRef[];
  /** Named images the change could not apply to: they already had as many tags as an image may (MAX_TAGS_PER_IMAGE). */
  readonly refused: number;
  /** How many tasks the write changed. */
  readonly tasks: number;
  /**
   * What the write changed of each task (its triage delta), once each is announced (the
   * engine's `onDidTriage`, `tasks:updated`) and its XMP sidecars asked for. The change answers
   * when the history worker's transaction commits; the announcements follow, a few milliseconds
   * of main's loop per turn, in the order the writes were made. No task's record is read on
   * main's thread for them, nor for their sidecars (the history worker reads those).
   */
  readonly announced: Promise<readonly TaskTriageDelta[]>;
}

/** At most this many images in one change: a selection of the whole gallery is split. */
const MAX_TRIAGE_IMAGES = 100_000;
/** Steps of Undo kept. */
const UNDO_STEPS = 50;

export interface TriageDeps {
  readonly engine: Pick<TaskEngine, 'get' | 'tookTriage'>;
  /** Where the writes run: the history worker (core/history `triageInWorker`). */
  readonly writes: TriageWrites;
  readonly triage: Pick<HistoryTriage, 'hasTag' | 'tagCount' | 'boardPath'>;
  readonly now: () => number;
  /** Main's own time in ms, which cuts the announcements into turns; absent: performance.now. */
  readonly turnTime?: () => number;
  /**
   * Where every change, Undo and Redo is asked: the core's closing gate, which refuses them once
   * the core closes and waits for those asked before (their sidecars are then asked while the
   * engine still writes them); default a gate that never closes (the CLI's one command).
   */
  readonly gate?: ClosingGate;
}

/**
 * Main's time per turn of its loop taking in a write's tasks (its sidecars asked for), well inside
 * the 50 ms a stall may last: a rating of 10,000 images is some thousands of tasks.
 */
const ANNOUNCE_TURN_MS = 8;

/** The next turn of main's loop. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class TriageActions {
  /** Each step: what the worker's write changed, as it handed it back (TriageWritten.step). */
  private readonly undoSteps: string[] = [];
  private readonly redoSteps: string[] = [];
  /** The change, Undo or Redo asked last: the next one waits for it. */
  private last: Promise<unknown> = Promise.resolve();
  /** The announcement of the last write: the next write's waits for it (records in order). */
  private announcing: Promise<unknown> = Promise.resolve();

  private readonly gate: ClosingGate;

  constructor(private readonly deps: TriageDeps) {
    this.gate = deps.gate ?? new ClosingGate();
  }

  /**
   * Applies `change` to every named image (a task's images by their position) as one step.
   * @throws TriageError for a rating, tag or board the change cannot take, or too many images;
   *   the history worker's HistoryError (nothing written) when it failed or ended.
   */
  apply(refs: readonly ImageRef[], change: TriageChange): Promise<TriageOutcome> {
    return this.applyEach([{ refs, change }]);
  }

  /**
   * Applies `change` to every image of the named tasks (the task list's Reject), as one step. A
   * task the library does not have counts as one missing image.
   * @throws TriageError as {@link apply} does.
   */
  applyToTasks(localIds: readonly string[], change: TriageChange): Promise<TriageOutcome> {
    return this.inTurn(async () => {
      const { refs, unknown } = imagesOfTasks(this.deps.engine, localIds);
      const outcome = await this.write([{ refs, change }]);
      return { ...outcome, missing: [...outcome.missing, ...unknown.map(wholeTask)] };
    });
  }

  /**
   * Applies each part's change to its images, all in one write and as ONE step of Undo ("keep the
   * winner, reject the rest": a pick and a reject). An image named by two parts gets both changes,
   * in order. Every part's words are checked before anything is written.
   * @throws TriageError as {@link apply} does, for any part.
   */
  applyEach(parts: readonly TriagePart[]): Promise<TriageOutcome> {
    return this.inTurn(() => this.write(parts));
  }

  /** Puts back what the last step changed; null when there is nothing to undo. */
  undo(): Promise<TriageOutcome | null> {
    return this.inTurn(() => this.replay(this.undoSteps, this.redoSteps, 'before'));
  }

  /** Applies again the last step undone; null when there is nothing to redo. */
  redo(): Promise<TriageOutcome | null> {
    return this.inTurn(() => this.replay(this.redoSteps, this.undoSteps, 'after'));
  }

  /** Whether Undo and Redo have a step. */
  canUndo(): { undo: boolean; redo: boolean } {
    return { undo: this.undoSteps.length > 0, redo: this.redoSteps.length > 0 };
  }

  /** Resolves once the tasks of every write made so far are announced (ended well or not). */
  settled(): Promise<void> {
    return this.announcing.then(() => undefined);
  }

  /**
   * Runs `work` after every change asked before it has ended (ended well or not); refused, with
   * nothing written, once the core is closing.
   */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.ask(() => {
      const run = this.last.then(work, work);
      this.last = run.catch(() => undefined);
      return run;
    });
  }

  private async write(parts: readonly TriagePart[]): Promise<TriageOutcome> {
    const total = parts.reduce((sum, part) => sum + part.refs.length, 0);
    if (total > MAX_TRIAGE_IMAGES) {
      throw new TriageError(
        sentence('error.triage.tooManyImages', { max: MAX_TRIAGE_IMAGES, count: total }),
      );
    }
    const at = this.deps.now();
    const checked = parts.map((part) => ({ refs: part.refs, edit: this.editFor(part.change) }));
    const written = await this.deps.writes.triage({ parts: checked, at });
    if (written.changed > 0) {
      this.pushStep(this.undoSteps, written.step);
      this.redoSteps.length = 0;
    }
    return this.outcome(written);
  }

  private async replay(
    from: string[],
    to: string[],
    side: 'before' | 'after',
  ): Promise<TriageOutcome | null> {
    const step = from.pop();
    if (step === undefined) return null;
    let written: TriageWritten;
    try {
      written = await this.deps.writes.restoreTriage({ step, side, at: this.deps.now() });
    } catch (error) {
      // Nothing was written: the step stays, to be tried again.
      from.push(step);
      throw error;
    }
    this.pushStep(to, step);
    return this.outcome(written);
  }

  /**
   * What a write did, as soon as it is committed; its tasks are announced after (see
   * {@link TriageOutcome.announced}), so the commit's answer does not wait on main taking in
   * thousands of records.
   */
  private outcome(written: TriageWritten): TriageOutcome {
    const announced = this.announcing.then(() => this.announce(written));
    this.announcing = announced.catch(() => undefined);
    const { changed, unchanged, refused, missing, tasks } = written;
    return { changed, unchanged, refused, missing, tasks, announced };
  }

  /**
   * The engine takes in what `written` changed of each task, as the worker handed it back (its
   * triage deltas, JSON the history wrote: nothing of a record is read), from the turn after the
   * commit's answer on, each turn of main's loop for {@link ANNOUNCE_TURN_MS} at most.
   */
  private async announce(written: TriageWritten): Promise<TaskTriageDelta[]> {
    const deltas: TaskTriageDelta[] = [];
    const time = this.deps.turnTime ?? (() => performance.now());
    await nextTurn();
    let began = time();
    for (const chunk of written.deltas) {
      const taken = JSON.parse(chunk) as TaskTriageDelta[];
      for (const delta of taken) {
        if (time() - began >= ANNOUNCE_TURN_MS) {
          await nextTurn();
          began = time();
        }
        this.deps.engine.tookTriage([delta]);
      }
      deltas.push(...taken);
    }
    return deltas;
  }

  /** The edit for one image, the change's words checked first. */
  private editFor(change: TriageChange): TriageEdit {
    switch (change.kind) {
      case 'rating':
        if (!Number.isInteger(change.rating) || change.rating < 0 || change.rating > MAX_RATING) {
          throw new TriageError(sentence('error.triage.ratingRange', { max: MAX_RATING }));
        }
        return change;
      case 'flag':
        return change;
      case 'tag':
        return this.tagEdit(change.tag, change.add);
      case 'board':
        return this.boardEdit(change.path, change.add, change.from);
    }
  }

  private tagEdit(raw: string, add: boolean): TriageEdit {
    // A tag the library has may be named as stored (one from before that draws nothing extra is
    // that tag: triage.ts); a new one is checked as given.
    const checked = checkTag(raw, false);
    if (!checked.ok) throw new TriageError(checked.problem);
    const edit = { kind: 'tag', name: checked.name, key: checked.key, add } as const;
    if (!add) return edit;
    const { triage } = this.deps;
    const known = triage.hasTag(checked.key);
    const given = known ? checked : checkTag(raw);
    if (!given.ok) throw new TriageError(given.problem);
    if (!known && triage.tagCount() >= MAX_TAGS_PER_LIBRARY) {
      throw new TriageError(
        sentence('error.triage.tooManyTagsInLibrary', { max: MAX_TAGS_PER_LIBRARY }),
      );
    }
    return edit;
  }

  private boardEdit(raw: string, add: boolean, from?: string): TriageEdit {
    const { path, key } = this.existingBoard(raw);
    const edit = { kind: 'board', path, key, add } as const;
    if (!add || from === undefined) return edit;
    const left = this.existingBoard(from).key;
    return left === key ? edit : { ...edit, leave: left };
  }

  /** The board `raw` names, as stored. @throws TriageError for a bad path or no such board. */
  private existingBoard(raw: string): { path: string; key: string } {
    const checked = checkBoardPath(raw, false);
    if (!checked.ok) throw new TriageError(checked.problem);
    const path = this.deps.triage.boardPath(checked.key);
    if (path === null) throw new TriageError(sentence('error.triage.boardNotFound', { path: raw }));
    return { path, key: checked.key };
  }

  private pushStep(stack: string[], step: string): void {
    stack.push(step);
    if (stack.length > UNDO_STEPS) stack.shift();
  }
}

/** A task named whole, as a missing image: its first. */
const wholeTask = (localId: string): ImageRef => ({ localId, index: 0 });
