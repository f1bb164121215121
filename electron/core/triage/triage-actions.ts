/**
 * Triage of many images at once (a selection in the window, a CLI command): a rating, a flag, a
 * tag added or removed, a board joined or left. One change is one history transaction over every
 * task it touches (TaskEngine.editMany: all or none, each task read under the write lock, so a
 * CLI and the window never lose each other's changes) and one step of Undo: the window's
 * Ctrl/Cmd+Z puts back exactly what each image had, and Shift+Ctrl/Cmd+Z applies it again.
 * Every front checks its words here, so the window and the CLI refuse the same things with the
 * same sentences.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import {
  checkBoardPath,
  checkTag,
  MAX_RATING,
  MAX_TAGS_PER_IMAGE,
  MAX_TAGS_PER_LIBRARY,
  type TriageFlag,
} from '../../../shared/domain/triage';
import {
  withBoard,
  withFlag,
  withoutBoard,
  withoutTag,
  withRating,
  withTag,
  withTriageOf,
} from '../../../shared/domain/triage-edits';
import { sentence } from '../../../shared/i18n/sentence';
import { type ImageRef, imagesByTask } from '../gallery';
import type { TaskEngine } from '../engine';
import type { HistoryTriage } from '../history';
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
  /** Named images the change could not apply to: they already had {@link MAX_TAGS_PER_IMAGE} tags. */
  readonly refused: number;
  /** The tasks written, as written. */
  readonly records: readonly TaskRecord[];
}

/** At most this many images in one change: a selection of the whole gallery is split. */
const MAX_TRIAGE_IMAGES = 100_000;
/** Steps of Undo kept. */
const UNDO_STEPS = 50;

export interface TriageDeps {
  readonly engine: Pick<TaskEngine, 'editMany'>;
  readonly triage: Pick<HistoryTriage, 'hasTag' | 'tagCount' | 'boardPath'>;
  readonly now: () => number;
}

/** One image before and after a step: what Undo and Redo write back. */
interface StepImage {
  readonly ref: ImageRef;
  readonly before: ImageRecord;
  readonly after: ImageRecord;
}

type ImageEdit = (image: ImageRecord, ref: ImageRef) => ImageRecord | 'refused';

export class TriageActions {
  private readonly undoSteps: StepImage[][] = [];
  private readonly redoSteps: StepImage[][] = [];

  constructor(private readonly deps: TriageDeps) {}

  /**
   * Applies `change` to every named image (a task's images by their position) as one step.
   * @throws TriageError for a rating, tag or board the change cannot take, or too many images.
   */
  apply(refs: readonly ImageRef[], change: TriageChange): TriageOutcome {
    return this.applyEach([{ refs, change }]);
  }

  /**
   * Applies each part's change to its images, all in one write and as ONE step of Undo ("keep the
   * winner, reject the rest": a pick and a reject). An image named by two parts gets both changes,
   * in order. Every part's words are checked before anything is written.
   * @throws TriageError as {@link apply} does, for any part.
   */
  applyEach(parts: readonly TriagePart[]): TriageOutcome {
    const total = parts.reduce((sum, part) => sum + part.refs.length, 0);
    if (total > MAX_TRIAGE_IMAGES) {
      throw new TriageError(
        sentence('error.triage.tooManyImages', { max: MAX_TRIAGE_IMAGES, count: total }),
      );
    }
    const edits = new Map<string, ImageEdit[]>();
    const refs: ImageRef[] = [];
    for (const part of parts) {
      const edit = this.editFor(part.change);
      for (const ref of part.refs) {
        const list = edits.get(key(ref));
        if (list === undefined) refs.push(ref);
        if (list?.includes(edit)) continue;
        edits.set(key(ref), [...(list ?? []), edit]);
      }
    }
    const step: StepImage[] = [];
    const outcome = this.run(refs, composed(edits), step);
    if (step.length > 0) this.pushStep(this.undoSteps, step);
    if (step.length > 0) this.redoSteps.length = 0;
    return outcome;
  }

  /** Puts back what the last step changed; null when there is nothing to undo. */
  undo(): TriageOutcome | null {
    return this.replay(this.undoSteps, this.redoSteps, 'before');
  }

  /** Applies again the last step undone; null when there is nothing to redo. */
  redo(): TriageOutcome | null {
    return this.replay(this.redoSteps, this.undoSteps, 'after');
  }

  /** Whether Undo and Redo have a step. */
  canUndo(): { undo: boolean; redo: boolean } {
    return { undo: this.undoSteps.length > 0, redo: this.redoSteps.length > 0 };
  }

  private replay(
    from: StepImage[][],
    to: StepImage[][],
    side: 'before' | 'after',
  ): TriageOutcome | null {
    const step = from.pop();
    if (!step) return null;
    const wanted = new Map(step.map((entry) => [key(entry.ref), entry[side]]));
    const outcome = this.run(
      step.map((entry) => entry.ref),
      (image, ref) => {
        const target = wanted.get(key(ref));
        return target ? withTriageOf(image, target) : image;
      },
      [],
    );
    this.pushStep(to, step);
    return outcome;
  }

  /** The edit for one image, the change's words checked first. */
  private editFor(change: TriageChange): ImageEdit {
    const at = this.deps.now();
    switch (change.kind) {
      case 'rating':
        if (!Number.isInteger(change.rating) || change.rating < 0 || change.rating > MAX_RATING) {
          throw new TriageError(sentence('error.triage.ratingRange', { max: MAX_RATING }));
        }
        return (image) => withRating(image, change.rating, at);
      case 'flag':
        return (image) => withFlag(image, change.flag, at);
      case 'tag':
        return this.tagEdit(change.tag, change.add);
      case 'board':
        return this.boardEdit(change.path, change.add, change.from);
    }
  }

  private tagEdit(raw: string, add: boolean): ImageEdit {
    const checked = checkTag(raw);
    if (!checked.ok) throw new TriageError(checked.problem);
    if (!add) return (image) => withoutTag(image, checked.key);
    const { triage } = this.deps;
    if (!triage.hasTag(checked.key) && triage.tagCount() >= MAX_TAGS_PER_LIBRARY) {
      throw new TriageError(
        sentence('error.triage.tooManyTagsInLibrary', { max: MAX_TAGS_PER_LIBRARY }),
      );
    }
    return (image) => {
      const next = withTag(image, checked.name);
      return next !== image && (image.tags?.length ?? 0) >= MAX_TAGS_PER_IMAGE ? 'refused' : next;
    };
  }

  private boardEdit(raw: string, add: boolean, from?: string): ImageEdit {
    const { path, key } = this.existingBoard(raw);
    if (!add) return (image) => withoutBoard(image, key);
    if (from === undefined) return (image) => withBoard(image, path);
    const left = this.existingBoard(from).key;
    return left === key
      ? (image) => withBoard(image, path)
      : (image) => withoutBoard(withBoard(image, path), left);
  }

  /** The board `raw` names, as stored. @throws TriageError for a bad path or no such board. */
  private existingBoard(raw: string): { path: string; key: string } {
    const checked = checkBoardPath(raw);
    if (!checked.ok) throw new TriageError(checked.problem);
    const path = this.deps.triage.boardPath(checked.key);
    if (path === null) throw new TriageError(sentence('error.triage.boardNotFound', { path: raw }));
    return { path, key: checked.key };
  }

  /**
   * Edits the named images in one write, noting each changed image in `step`.
   */
  private run(refs: readonly ImageRef[], edit: ImageEdit, step: StepImage[]): TriageOutcome {
    const byTask = imagesByTask(refs);
    const seen = new Set<string>();
    const counts = { changed: 0, unchanged: 0, refused: 0 };
    const missing: ImageRef[] = [];
    const records = this.deps.engine.editMany(byTask.keys(), (record) => {
      seen.add(record.localId);
      const indexes = byTask.get(record.localId) ?? new Set<number>();
      const images = [...record.images];
      for (const index of indexes) {
        const image = images[index];
        if (!image || image.state === 'deleted') {
          missing.push({ localId: record.localId, index });
          continue;
        }
        const ref = { localId: record.localId, index };
        const next = edit(image, ref);
        if (next === 'refused') counts.refused += 1;
        else if (next === image) counts.unchanged += 1;
        else {
          counts.changed += 1;
          images[index] = next;
          step.push({ ref, before: image, after: next });
        }
      }
      return images.every((image, n) => image === record.images[n])
        ? record
        : { ...record, images, favourite: images.some((image) => image.favourite) };
    });
    for (const [localId, indexes] of byTask) {
      if (!seen.has(localId)) for (const index of indexes) missing.push({ localId, index });
    }
    return { ...counts, missing, records };
  }

  private pushStep(stack: StepImage[][], step: StepImage[]): void {
    stack.push(step);
    if (stack.length > UNDO_STEPS) stack.shift();
  }
}

/** Each image's edits one after the other; refused when one of them refuses. */
function composed(edits: ReadonlyMap<string, readonly ImageEdit[]>): ImageEdit {
  return (image, ref) => {
    let next = image;
    for (const edit of edits.get(key(ref)) ?? []) {
      const edited = edit(next, ref);
      if (edited === 'refused') return 'refused';
      next = edited;
    }
    return next;
  };
}

const key = (ref: ImageRef): string => `${ref.localId}#${String(ref.index)}`;
