/**
 * The window's one Undo stack, as Lightroom's and Photos' are: every step with a way back (a
 * rating, a flag, a tag, a board added or taken away, a move between boards, a delete of images
 * (a purge of the rejects is one), a removal of tasks) pushes one entry when it is made, whichever
 * screen, key or button made it. Ctrl/Cmd+Z anywhere in the window (shell/undo-key.ts) runs the
 * newest entry; an entry's own Undo button in the status area runs that entry; either takes it
 * off the stack. An Undo that fails says so in a sentence and keeps its step on the stack, so
 * nothing is lost: it can be asked again.
 */
import type { StateCreator } from 'zustand';
import { t } from '../i18n';
import { failure, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { wordsOf, type Words } from './status-slice';

/** One step with a way back. */
export interface UndoEntry {
  readonly id: number;
  /** What the step did, as it was said then ("Rated 3 images ★4"). */
  readonly label: Words;
  /**
   * Takes the step back and says what came of it; false when it failed and the step still stands
   * (the failure said), so the entry goes back on the stack.
   */
  readonly undo: () => Promise<boolean>;
}

export interface UndoSlice {
  /** The steps with a way back, oldest first. */
  undoEntries: readonly UndoEntry[];
  /** Pushes a step with a way back; answers its id (for its Undo button, {@link undoForget}). */
  undoPush(label: Words, undo: () => Promise<boolean>): number;
  /** Takes a step off without running it (it did nothing after all). */
  undoForget(id: number): void;
  /** Runs the step `id` (the newest by default) and takes it off; "Nothing to undo" when none. */
  undoRun(id?: number): Promise<void>;
}

/** Steps remembered; the oldest go first (main keeps 50 of triage). */
const KEPT = 100;

let nextId = 1;

type Creator = StateCreator<AppState, [], [], UndoSlice>;

export const createUndoSlice: Creator = (set, get) => ({
  undoEntries: [],
  undoPush: (label, undo) => {
    const id = nextId++;
    set((state) => ({ undoEntries: [...state.undoEntries, { id, label, undo }].slice(-KEPT) }));
    return id;
  },
  undoForget: (id) =>
    set((state) => ({ undoEntries: state.undoEntries.filter((entry) => entry.id !== id) })),
  undoRun: async (id) => {
    const entries = get().undoEntries;
    const at = id === undefined ? entries.length - 1 : entries.findIndex((e) => e.id === id);
    const entry = entries[at];
    if (!entry) {
      // A spent Undo button (its step already taken back by the key) does nothing.
      if (id === undefined) get().confirm(() => t('triage.nothingToUndo'));
      return;
    }
    get().undoForget(entry.id);
    if (await runStep(entry, get)) return;
    // Back where it was among the others (newer steps may have come meanwhile).
    set((state) => ({
      undoEntries: [...state.undoEntries, entry].sort((a, b) => a.id - b.id).slice(-KEPT),
    }));
  },
});

/** Runs one step's Undo; a throw is said as a sentence naming the step, and counts as failed. */
async function runStep(entry: UndoEntry, get: () => AppState): Promise<boolean> {
  try {
    return await entry.undo();
  } catch (error) {
    const problem = toApiError(error);
    const words = () =>
      t('gallery.undoFailed', { action: wordsOf(entry.label), problem: problem.text() });
    get().showError(failure(words, problem.detail));
    return false;
  }
}

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends UndoSlice {}
}
