/**
 * Triage in the window: a rating, a flag, a tag or a board applied to the images the keys name
 * (the selection, or the focused image), its Redo (each change is a step of the window's Undo
 * stack, undo-slice.ts), the target board B toggles, the library's boards and tags, and
 * whether the keys move on after they act (Auto-advance). Main
 * does the work (`triage:` channels) and sends the records back as `tasks:updated`; the status
 * area says what happened ("Rated 37 images ★4"), with Undo.
 */
import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/ipc/contract';
import { smartBoardActions } from './smart-board-actions';
import {
  triageChangeActions,
  triageEachAction,
  triageLibraryActions,
  type PurgeScope,
} from './triage-actions';

export type { PurgeScope } from './triage-actions';
import { z } from 'zod';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import type {
  BoardRowOutput,
  SmartBoardOutput,
  TriageChangeInput,
  TriageOutcomeOutput,
} from '../../shared/ipc/triage-contract';
import { readStored, writeStored } from '../lib/stored-value';
import type { AppState } from './app-state';
import type { ImageRef } from './gallery-delete';

/** The library's boards (parents before children) and tags in use. */
export interface TriageLibrary {
  readonly boards: readonly BoardRowOutput[];
  readonly tags: readonly { readonly key: string; readonly tag: string; readonly images: number }[];
  readonly smart: readonly SmartBoardOutput[];
}

/** A dialog a triage key opens: the target board's chooser, or the tag editor for images. */
export type TriageDialog =
  | { readonly kind: 'board' }
  | {
      readonly kind: 'tags';
      readonly refs: readonly ImageRef[];
      readonly items: readonly GalleryItem[];
    };

export interface TriageSlice {
  /** The board B adds to or takes from (a path), or null. */
  triageTarget: string | null;
  /** Plain triage keys move on to the next image, as Shift with them does. */
  triageAutoAdvance: boolean;
  triageLibrary: TriageLibrary | null;
  triageCanUndo: boolean;
  triageCanRedo: boolean;
  triageDialog: TriageDialog | null;
  /** The Triage view is open (on `triageViewKey`; null: on the grid's focused image). */
  triageViewOpen: boolean;
  triageViewKey: string | null;
  /** The keyboard-help sheet is open. */
  triageHelpOpen: boolean;
  triageShowView(key: string | null): void;
  triageCloseView(): void;
  triageShowHelp(open: boolean): void;
  /**
   * "Save as smart board": the gallery's filters now (all of them, joined by AND) under `name`;
   * answers main's sentence when it refuses (a name taken, no filter set), else null.
   */
  triageSaveSmart(name: string): Promise<string | null>;
  /** Renames the smart board `name`; answers main's sentence when it refuses, else null. */
  triageRenameSmart(name: string, newName: string): Promise<string | null>;
  /** Deletes the smart board `name` (its filter only); false when main refused (said). */
  triageDeleteSmart(name: string): Promise<boolean>;
  /**
   * The rejects a purge would move (in a board and below, among the images the gallery's filters
   * show, or all) and their size; null: failed.
   */
  triageRejects(scope: PurgeScope): Promise<RequestOutput<'triage:rejects'> | null>;
  /**
   * Applies `change` to `refs` (the images `items` are, when loaded: a rating they all have
   * already clears it, a pick they all have unflags them); says what it did.
   */
  /**
   * Several changes as ONE step of Undo (`triage:applyEach`): "keep the winner, reject the rest".
   * `done` is what the status area says; null when main refused (said).
   */
  triageApplyEach(
    parts: readonly { readonly images: readonly ImageRef[]; readonly change: TriageChangeInput }[],
    done: () => string,
  ): Promise<TriageOutcomeOutput | null>;
  triageApply(
    refs: readonly ImageRef[],
    change: TriageChangeInput,
    items?: readonly GalleryItem[],
    /** The caller shows main's refusal itself (the tag editor, beside its field). */
    options?: { readonly throws?: boolean },
  ): Promise<TriageOutcomeOutput | null>;
  /**
   * Applies `change` to every image of the tasks `localIds` (the task list's Reject) as one step
   * with Undo; says what it did. Null when main refused (said).
   */
  triageApplyTasks(
    localIds: readonly string[],
    change: TriageChangeInput,
  ): Promise<TriageOutcomeOutput | null>;
  /** Applies again main's last triage step undone (its Undo is the window's: undo-slice.ts). */
  triageRedo(): Promise<void>;
  triageLoadLibrary(): Promise<void>;
  triageSetTarget(path: string | null): void;
  triageSetAutoAdvance(on: boolean): void;
  triageOpenDialog(dialog: TriageDialog): void;
  triageCloseDialog(): void;
}

const STORED_KEY = 'pictor.triage';
const storedSchema = z.object({
  target: z.string().max(1_000).nullable().catch(null),
  autoAdvance: z.boolean().catch(false),
});

type Creator = StateCreator<AppState, [], [], TriageSlice>;

export const createTriageSlice: Creator = (set, get) => {
  const stored = readStored(STORED_KEY, storedSchema, { target: null, autoAdvance: false });
  const keep = () =>
    writeStored(STORED_KEY, { target: get().triageTarget, autoAdvance: get().triageAutoAdvance });
  return {
    triageTarget: stored.target,
    triageAutoAdvance: stored.autoAdvance,
    triageLibrary: null,
    triageCanUndo: false,
    triageCanRedo: false,
    triageDialog: null,
    triageSetTarget: (path) => {
      set({ triageTarget: path });
      keep();
    },
    triageSetAutoAdvance: (on) => {
      set({ triageAutoAdvance: on });
      keep();
    },
    triageOpenDialog: (dialog) => set({ triageDialog: dialog }),
    triageCloseDialog: () => set({ triageDialog: null }),
    triageViewOpen: false,
    triageViewKey: null,
    triageHelpOpen: false,
    triageShowView: (key) => set({ triageViewOpen: true, triageViewKey: key }),
    triageCloseView: () => set({ triageViewOpen: false, triageViewKey: null }),
    triageShowHelp: (open) => set({ triageHelpOpen: open }),
    ...triageChangeActions(set, get),
    ...triageEachAction(set, get),
    ...triageLibraryActions(set, get),
    ...smartBoardActions(set, get),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends TriageSlice {}
}
