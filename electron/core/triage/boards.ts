/**
 * Boards: a tree of named collections an image may be in any number of (shared/domain/triage.ts
 * for the rules of names and paths). Each image names its boards by path in its record, so a
 * sidecar or an archive restores them by path; the history's `boards` table holds the tree,
 * empty boards included. Renaming or moving a board rewrites the records of every image in it or
 * below it (and the smart boards' rules naming them), and deleting one takes its images out of
 * it (never deletes an image; a smart board's rule naming it then matches nothing), each in one
 * transaction with the table's change (TaskEngine.editMany's `alongside`).
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import {
  boardKey,
  checkBoardName,
  checkBoardPath,
  MAX_BOARD_DEPTH,
  MAX_BOARDS,
  movedBoardPath,
  parentPath,
} from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import type { ClosingGate } from '../base';
import type { TaskEngine } from '../engine';
import type { BoardRow, HistoryTriage } from '../history';
import { TriageError } from './triage-error';

export interface BoardsDeps {
  readonly engine: Pick<TaskEngine, 'editMany'>;
  readonly triage: HistoryTriage;
  readonly now: () => number;
  /**
   * The core's closing gate: a board created, renamed, moved or deleted once the close has begun
   * is refused with its sentence, nothing written; absent: never refused.
   */
  readonly gate?: Pick<ClosingGate, 'askNow'>;
}

/** Where a board went: its path before and after. */
export interface BoardMove {
  readonly from: string;
  readonly to: string;
  /** Tasks whose records were rewritten. */
  readonly tasks: number;
}

const depth = (path: string): number => path.split('/').length;

export class Boards {
  constructor(private readonly deps: BoardsDeps) {}

  /** Every board, parents before children. */
  list(): BoardRow[] {
    return this.deps.triage.boards();
  }

  /**
   * Creates the board at `raw` (and any parent it lacks).
   * @throws TriageError for a bad name, a path too deep, a board already there, or too many boards.
   */
  create(raw: string): string {
    return this.asked(() => this.made(raw));
  }

  /** {@link create} once the gate let it in (by create, or by {@link ensure}). */
  private made(raw: string): string {
    const checked = this.checked(raw, false);
    const { triage } = this.deps;
    if (triage.boardPath(checked.key) !== null) {
      throw new TriageError(sentence('error.triage.boardExists', { name: checked.path }));
    }
    // A board the library has is named as it stores it, however `raw` spells it (`clients` for
    // `Clients`, `STRASSE` for `Straße`, one from before that draws nothing extra, offered as
    // stored by the pickers: triage.ts), so a board's path begins with its parent's as stored;
    // each name new to the library is given.
    let path = '';
    let added = 0;
    for (let n = 0; n < checked.names.length; n += 1) {
      const stored = triage.boardPath(boardKey(checked.names.slice(0, n + 1).join('/')));
      if (stored !== null) {
        path = stored;
        continue;
      }
      const name = this.checked(checked.names[n] ?? '').path;
      path = path === '' ? name : `${path}/${name}`;
      added += 1;
    }
    if (triage.boardCount() + added > MAX_BOARDS) {
      throw new TriageError(sentence('error.triage.tooManyBoards', { max: MAX_BOARDS }));
    }
    triage.createBoard(path, this.deps.now());
    return path;
  }

  /**
   * The path as stored of the board at `raw`, made (with any parent it lacks) when the library
   * has none of that path: "Generate into" and an agent's add_to_board. The board is found by its
   * folded key ({@link boardKey}), as every other reader finds one: `STRASSE` is the board
   * `Straße`, ` Trips ` is `Trips`. Refused, as {@link create}, once the core's close has begun:
   * the agent's add_to_board and the submit that asked for it would be refused next, and the
   * board would be left made by a change refused (a submit stores its tasks only after this).
   * @throws TriageError as {@link create}.
   */
  ensure(raw: string): string {
    return this.asked(
      () => this.deps.triage.boardPath(this.checked(raw, false).key) ?? this.made(raw),
    );
  }

  /**
   * Renames a board (its children keep theirs).
   * @throws TriageError as {@link moveTo}.
   */
  rename(raw: string, newName: string): BoardMove {
    const from = this.existing(raw);
    const name = checkBoardName(newName);
    if (!name.ok) throw new TriageError(name.problem);
    const parent = parentPath(from);
    return this.moveTo(from, parent === null ? name.name : `${parent}/${name.name}`);
  }

  /**
   * Moves a board (with everything in it) into `newParent`, or to the top when null.
   * @throws TriageError as {@link moveTo}.
   */
  move(raw: string, newParent: string | null): BoardMove {
    const from = this.existing(raw);
    const name = from.split('/').at(-1) ?? from;
    return this.moveTo(from, newParent === null ? name : `${newParent}/${name}`);
  }

  /**
   * Moves and renames a board (with everything in it) to `newPath`, whose parent must exist.
   * @throws TriageError when there is no such board or parent, the parent is the board itself or
   *   inside it, a board is already there, or the result is too deep.
   */
  moveTo(raw: string, newPath: string): BoardMove {
    return this.asked(() => this.movedTo(raw, newPath));
  }

  private movedTo(raw: string, newPath: string): BoardMove {
    const from = this.existing(raw);
    // The parents exist (as stored, maybe a name from before that draws nothing extra); the last
    // name is given unless it is the board's own, kept by a move.
    const target = this.checked(newPath, false);
    const name = target.names.at(-1) ?? '';
    if (name !== from.split('/').at(-1)) this.checked(name);
    const parent = parentPath(target.path);
    if (parent === null) return this.relocate(from, target.path);
    const stored = this.existing(parent);
    const fromKey = boardKey(from);
    const parentKey = boardKey(stored);
    if (parentKey === fromKey || parentKey.startsWith(`${fromKey}/`)) {
      throw new TriageError(sentence('error.triage.boardIntoItself'));
    }
    return this.relocate(from, `${stored}/${target.names.at(-1) ?? ''}`);
  }

  /**
   * Deletes a board and the boards inside it; their images stay in the library (and in their
   * other boards). Returns how many tasks were rewritten.
   */
  delete(raw: string): number {
    return this.asked(() => {
      const from = this.existing(raw);
      const { triage, engine } = this.deps;
      const keys = new Set(triage.treeKeys(boardKey(from)));
      const written = engine.editMany(
        triage.tasksInTree(boardKey(from)),
        (record) => withBoards(record, (path) => (keys.has(boardKey(path)) ? null : path)),
        () => triage.deleteBoards([...keys]),
      );
      return written.length;
    });
  }

  /** A user's change of the tree, refused once the core's close has begun. */
  private asked<T>(change: () => T): T {
    return this.deps.gate ? this.deps.gate.askNow(change) : change();
  }

  /**
   * Moves the board at `from` (an existing path) and its tree to `to`: its parents as stored, its
   * last name checked as given by {@link moveTo} unless it is the board's own (a board stored
   * before the rule of what draws nothing moves with its name, into a board such as it too).
   */
  private relocate(from: string, to: string): BoardMove {
    const target = this.checked(to, false);
    const { triage, engine } = this.deps;
    const fromKey = boardKey(from);
    if (target.key !== fromKey && triage.boardPath(target.key) !== null) {
      throw new TriageError(sentence('error.triage.boardExists', { name: target.path }));
    }
    const tree = triage
      .boards()
      .filter((row) => row.key === fromKey || row.key.startsWith(`${fromKey}/`));
    const deepest = Math.max(...tree.map((row) => depth(row.path)));
    if (deepest - depth(from) + depth(target.path) > MAX_BOARD_DEPTH) {
      throw new TriageError(sentence('error.triage.boardTooDeep', { max: MAX_BOARD_DEPTH }));
    }
    const moved = (path: string): string => movedBoardPath(path, from, target.path);
    const keys = new Set(tree.map((row) => row.key));
    const now = this.deps.now();
    const newPaths = new Map(tree.map((row) => [row.key, moved(row.path)]));
    const written = engine.editMany(
      triage.tasksInTree(fromKey),
      (record) => withBoards(record, (path) => (keys.has(boardKey(path)) ? moved(path) : path)),
      () => {
        triage.deleteBoards([...keys]);
        for (const row of tree) triage.addBoard(moved(row.path), now);
        // Smart boards' rules follow the boards they name.
        triage.smart.followBoards((key) => newPaths.get(key));
      },
    );
    return { from, to: target.path, tasks: written.length };
  }

  /** The path as stored of the board `raw` names. @throws TriageError when there is none. */
  private existing(raw: string): string {
    const checked = this.checked(raw, false);
    const path = this.deps.triage.boardPath(checked.key);
    if (path === null)
      throw new TriageError(sentence('error.triage.boardNotFound', { path: raw }), 'not_found');
    return path;
  }

  /** `raw` checked; `given: false` when it names a board that may be stored (triage.ts). */
  private checked(raw: string, given = true) {
    const checked = checkBoardPath(raw, given);
    if (!checked.ok) throw new TriageError(checked.problem);
    return checked;
  }
}

/** The record with each image's boards mapped (null: out of that board); same object if none moved. */
function withBoards(record: TaskRecord, map: (path: string) => string | null): TaskRecord {
  let touched = false;
  const images = record.images.map((image): ImageRecord => {
    if (!image.boards) return image;
    const boards = image.boards.map(map).filter((path): path is string => path !== null);
    if (boards.length === image.boards.length && boards.every((p, n) => p === image.boards?.[n])) {
      return image;
    }
    touched = true;
    const { boards: _old, ...rest } = image;
    return boards.length === 0 ? rest : { ...rest, boards };
  });
  return touched ? { ...record, images } : record;
}
