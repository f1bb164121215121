/**
 * Triage in the window: a rating, a flag, a tag or a board applied to the images the keys name
 * (the selection, or the focused image), its Undo and Redo, the target board B toggles, the
 * library's boards and tags, and whether the keys move on after they act (Auto-advance). Main
 * does the work (`triage:` channels) and sends the records back as `tasks:updated`; the status
 * area says what happened ("Rated 37 images ★4"), with Undo.
 */
import type { StateCreator } from 'zustand';
import { z } from 'zod';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { flagOf, ratingOf } from '../../shared/domain/triage';
import type {
  BoardRowOutput,
  TriageChangeInput,
  TriageOutcomeOutput,
} from '../../shared/ipc/triage-contract';
import { t } from '../i18n';
import { rulesFromFilter } from '../../shared/domain/smart-board';
import { countQuery } from './gallery-browse';
import { call, toApiError } from '../lib/api';
import { readStored, writeStored } from '../lib/stored-value';
import type { AppState } from './app-state';
import type { ImageRef } from './gallery-delete';
import type { Words } from './status-slice';
import { applyTaskChanges } from './task-changes';

/** The library's boards (parents before children) and tags in use. */
export interface TriageLibrary {
  readonly boards: readonly BoardRowOutput[];
  readonly tags: readonly { readonly key: string; readonly tag: string; readonly images: number }[];
}

/** What Ctrl/Cmd+Z in the gallery takes back. */
export type UndoKind = 'triage' | 'delete';
/** Steps of Undo remembered (main keeps 50 of triage). */
const UNDO_KINDS = 100;

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
  /**
   * The gallery's steps with a way back, oldest first: Ctrl/Cmd+Z takes back the newest, a triage
   * change or a delete, whichever came last.
   */
  galleryUndoKinds: readonly UndoKind[];
  /** Notes a step with a way back (a delete; triage notes its own). */
  galleryNoteUndoable(kind: UndoKind): void;
  /** The kind of the newest step with a way back, taken off the list; null when none. */
  galleryTakeUndo(): UndoKind | null;
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
  /**
   * Applies `change` to `refs` (the images `items` are, when loaded: a rating they all have
   * already clears it, a pick they all have unflags them); says what it did.
   */
  triageApply(
    refs: readonly ImageRef[],
    change: TriageChangeInput,
    items?: readonly GalleryItem[],
  ): Promise<TriageOutcomeOutput | null>;
  triageUndo(): Promise<void>;
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

/** The change a key asks for, as it toggles: the rating or pick every target has already goes. */
export function toggledChange(
  change: TriageChangeInput,
  items: readonly GalleryItem[],
): TriageChangeInput {
  if (items.length === 0) return change;
  if (
    change.kind === 'rating' &&
    change.rating > 0 &&
    items.every((item) => ratingOf(item.image) === change.rating)
  ) {
    return { kind: 'rating', rating: 0 };
  }
  if (
    change.kind === 'flag' &&
    change.flag === 'pick' &&
    items.every((item) => flagOf(item.image) === 'pick')
  ) {
    return { kind: 'flag', flag: 'none' };
  }
  return change;
}

/** What a change did, in a sentence. */
function doneText(change: TriageChangeInput, count: number): Words {
  switch (change.kind) {
    case 'rating':
      return change.rating === 0
        ? () => t('triage.unrated', { count })
        : () => t('triage.rated', { count, stars: change.rating });
    case 'flag': {
      const key = {
        pick: 'triage.picked',
        reject: 'triage.rejected',
        none: 'triage.unflagged',
      } as const;
      return () => t(key[change.flag], { count });
    }
    case 'tag':
      return () => t(change.add ? 'triage.tagged' : 'triage.untagged', { count, tag: change.tag });
    case 'board':
      return () =>
        t(change.add ? 'triage.boardAdded' : 'triage.boardRemoved', { count, board: change.path });
  }
}

type Creator = StateCreator<AppState, [], [], TriageSlice>;

export const createTriageSlice: Creator = (set, get) => {
  const stored = readStored(STORED_KEY, storedSchema, { target: null, autoAdvance: false });
  const keep = () =>
    writeStored(STORED_KEY, { target: get().triageTarget, autoAdvance: get().triageAutoAdvance });
  const noteOutcome = (outcome: TriageOutcomeOutput) => {
    set({ triageCanUndo: outcome.canUndo, triageCanRedo: outcome.canRedo });
    // Shown now, not with the next task message (which carries the same records).
    if (outcome.items.length > 0) {
      applyTaskChanges(
        { getState: get, setState: set },
        outcome.items.map((item) => ({ change: 'task' as const, ...item })),
      );
    }
  };
  const undoAction = {
    label: () => t('gallery.undo'),
    run: () => {
      if (get().galleryUndoKinds.at(-1) === 'triage') get().galleryTakeUndo();
      void get().triageUndo();
    },
  };
  const replay = async (channel: 'triage:undo' | 'triage:redo') => {
    try {
      const outcome = await call(channel, undefined);
      if (outcome === null) {
        get().confirm(() =>
          t(channel === 'triage:undo' ? 'triage.nothingToUndo' : 'triage.nothingToRedo'),
        );
        return;
      }
      noteOutcome(outcome);
      if (channel === 'triage:redo') get().galleryNoteUndoable('triage');
      const count = outcome.changed;
      get().confirm(() =>
        t(channel === 'triage:undo' ? 'triage.undone' : 'triage.redone', { count }),
      );
      void get().triageLoadLibrary();
    } catch (error) {
      get().showError(error);
    }
  };
  return {
    triageTarget: stored.target,
    triageAutoAdvance: stored.autoAdvance,
    triageLibrary: null,
    triageCanUndo: false,
    triageCanRedo: false,
    galleryUndoKinds: [],
    galleryNoteUndoable: (kind) =>
      set({ galleryUndoKinds: [...get().galleryUndoKinds, kind].slice(-UNDO_KINDS) }),
    galleryTakeUndo: () => {
      const kinds = get().galleryUndoKinds;
      const last = kinds.at(-1) ?? null;
      set({ galleryUndoKinds: kinds.slice(0, -1) });
      return last;
    },
    triageDialog: null,
    triageApply: async (refs, asked, items = []) => {
      if (refs.length === 0) return null;
      const change = toggledChange(asked, items);
      try {
        const outcome = await call('triage:apply', { images: [...refs], change });
        noteOutcome(outcome);
        if (outcome.changed > 0) get().galleryNoteUndoable('triage');
        const words =
          outcome.refused > 0
            ? () => t('triage.refused', { count: outcome.refused })
            : outcome.changed === 0
              ? () => t('triage.unchanged')
              : doneText(change, outcome.changed);
        get().confirm(words, outcome.changed > 0 ? undoAction : undefined);
        if (change.kind === 'tag' || change.kind === 'board') void get().triageLoadLibrary();
        return outcome;
      } catch (error) {
        get().showError(error);
        return null;
      }
    },
    triageUndo: () => replay('triage:undo'),
    triageRedo: () => replay('triage:redo'),
    triageLoadLibrary: async () => {
      try {
        set({ triageLibrary: await call('triage:library', undefined) });
      } catch (error) {
        get().showError(error);
      }
    },
    triageSetTarget: (path) => {
      set({ triageTarget: path });
      keep();
    },
    triageSetAutoAdvance: (on) => {
      set({ triageAutoAdvance: on });
      keep();
    },
    triageOpenDialog: (dialog) => set({ triageDialog: dialog }),
    triageViewOpen: false,
    triageViewKey: null,
    triageHelpOpen: false,
    triageShowView: (key) => set({ triageViewOpen: true, triageViewKey: key }),
    triageCloseView: () => set({ triageViewOpen: false, triageViewKey: null }),
    triageShowHelp: (open) => set({ triageHelpOpen: open }),
    triageSaveSmart: async (name) => {
      const { smart, favourite, states, ...filter } = countQuery(get().galleryFilters);
      void smart;
      void states;
      const rules = rulesFromFilter({ ...filter, ...(favourite ? { flag: 'pick' } : {}) }, 'all');
      if (rules === null) return t('triage.smart.noFilter');
      try {
        const saved = await call('smart:create', { name, rules });
        get().confirm(() => t('triage.smart.saved', { name: saved.name }));
        await get().triageLoadLibrary();
        return null;
      } catch (error) {
        return toApiError(error).message;
      }
    },
    triageCloseDialog: () => set({ triageDialog: null }),
  };
};
