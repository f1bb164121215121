/**
 * The triage slice's requests (triage-slice.ts): a change (a step on the window's Undo stack) and
 * Redo, with what each did said in the status area; the library's boards, tags and smart boards; "Save as smart board";
 * the rejects a purge would move.
 */
import type { StateCreator } from 'zustand';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { rulesFromFilter } from '../../shared/domain/smart-board';
import { flagOf, ratingOf } from '../../shared/domain/triage';
import type { RequestInput } from '../../shared/ipc/contract';
import type { TriageChangeInput, TriageOutcomeOutput } from '../../shared/ipc/triage-contract';
import { t } from '../i18n';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { countQuery } from './gallery-browse';
import { smartChange } from './smart-board-actions';
import { wordsOf, type Words } from './status-slice';
import type { GalleryFilters } from './gallery-list-model';
import { PendingTriage } from './pending-triage';

/**
 * The rejects a purge takes: a board's (and the boards' below it), those among the images the
 * gallery's filters show (what the Triage view shows), or the whole library's.
 */
export type PurgeScope = 'library' | 'view' | { readonly board: string };

/** What `triage:rejects` is asked for a purge's scope. */
function rejectsInput(scope: PurgeScope, filters: GalleryFilters) {
  if (scope === 'library') return {};
  return scope === 'view' ? { filter: countQuery(filters) } : { board: scope.board };
}

type Set = Parameters<StateCreator<AppState>>[0];
type Get = () => AppState;

/** The change a key asks for, as it toggles: the rating or pick every target has already goes. */
function toggledChange(
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
    case 'board': {
      const done = change.add ? 'triage.boardAdded' : 'triage.boardRemoved';
      return () => t(change.from ? 'triage.boardMoved' : done, { count, board: change.path });
    }
  }
}

/**
 * Notes whether Undo and Redo have a step. What the change wrote came as `tasks:updated` triage
 * changes (task-changes.ts), before the answer of a small change: it is not applied again here.
 */
function outcomeNoter(set: Set) {
  return (outcome: TriageOutcomeOutput) => {
    set({ triageCanUndo: outcome.canUndo, triageCanRedo: outcome.canRedo });
  };
}

/**
 * A triage step main made: said with `done`, pushed on the window's Undo stack (undo-slice.ts),
 * whose entry its Undo button runs.
 */
function noteStep(set: Set, get: Get, done: Words): void {
  const id = get().undoPush(done, () => undoStep(set, get, done));
  get().confirm(done, { label: () => t('gallery.undo'), run: () => void get().undoRun(id) });
}

/** Takes back main's newest triage step (`done` says what it was); a failure throws. */
async function undoStep(set: Set, get: Get, done: Words): Promise<boolean> {
  const outcome = await call('triage:undo', undefined);
  if (outcome === null) {
    get().confirm(() => t('triage.nothingToUndo'));
    return true;
  }
  outcomeNoter(set)(outcome);
  get().confirm(() => t('gallery.undone', { action: wordsOf(done) }));
  void get().triageLoadLibrary();
  return true;
}

/** Several changes as one step (`triage:applyEach`), said with `done`, with Undo. */
export function triageEachAction(set: Set, get: Get): Pick<AppState, 'triageApplyEach'> {
  const noteOutcome = outcomeNoter(set);
  return {
    triageApplyEach: async (parts, done) => {
      try {
        const outcome = await call('triage:applyEach', {
          parts: parts.map(({ images, change }) => ({ images: [...images], change })),
        });
        noteOutcome(outcome);
        if (outcome.changed > 0) noteStep(set, get, done);
        else get().confirm(() => t('triage.unchanged'));
        return outcome;
      } catch (error) {
        get().showError(error);
        return null;
      }
    },
  };
}

/** A change to images (or to every image of some tasks), and Redo (its Undo is the window's: undo-slice.ts). */
export function triageChangeActions(
  set: Set,
  get: Get,
): Pick<AppState, 'triageApply' | 'triageApplyTasks' | 'triageRedo'> {
  const noteOutcome = outcomeNoter(set);
  const pending = new PendingTriage();
  /** One `triage:apply`: what it did said, a step with Undo when it changed anything. */
  const applied = async (input: RequestInput<'triage:apply'>) => {
    const outcome = await call('triage:apply', input);
    noteOutcome(outcome);
    const said = outcomeText(input.change, outcome);
    if (outcome.changed > 0) noteStep(set, get, said);
    else get().confirm(said);
    const { kind } = input.change;
    if (kind === 'tag' || kind === 'board') void get().triageLoadLibrary();
    return outcome;
  };
  return {
    triageApply: async (refs, asked, items = [], options = {}) => {
      if (refs.length === 0) return null;
      // Toggled on the images as the changes still on their way leave them (pending-triage.ts).
      const change = toggledChange(asked, pending.seen(items));
      try {
        return await pending.track(refs, change, () => applied({ images: [...refs], change }));
      } catch (error) {
        if (options.throws) throw error;
        get().showError(error);
        return null;
      }
    },
    triageApplyTasks: async (localIds, change) => {
      if (localIds.length === 0) return null;
      try {
        return await applied({ tasks: [...localIds], change });
      } catch (error) {
        get().showError(error);
        return null;
      }
    },
    triageRedo: async () => {
      try {
        const outcome = await call('triage:redo', undefined);
        if (outcome === null) {
          get().confirm(() => t('triage.nothingToRedo'));
          return;
        }
        noteOutcome(outcome);
        const count = outcome.changed;
        noteStep(set, get, () => t('triage.redone', { count }));
        void get().triageLoadLibrary();
      } catch (error) {
        get().showError(error);
      }
    },
  };
}

/** What a change did, or why it did nothing. */
function outcomeText(change: TriageChangeInput, outcome: TriageOutcomeOutput): Words {
  if (outcome.refused > 0) return () => t('triage.refused', { count: outcome.refused });
  if (outcome.changed === 0) return () => t('triage.unchanged');
  return doneText(change, outcome.changed);
}

/** The library's boards, tags and smart boards; a new smart board; the rejects. */
export function triageLibraryActions(
  set: Set,
  get: Get,
): Pick<AppState, 'triageLoadLibrary' | 'triageSaveSmart' | 'triageRejects'> {
  return {
    triageLoadLibrary: async () => {
      try {
        set({ triageLibrary: await call('triage:library', undefined) });
      } catch (error) {
        get().showError(error);
      }
    },
    triageSaveSmart: async (name) => {
      const { smart, favourite, states, ...filter } = countQuery(get().galleryFilters);
      void smart;
      void states;
      const rules = rulesFromFilter({ ...filter, ...(favourite ? { flag: 'pick' } : {}) }, 'all');
      if (rules === null) return t('triage.smart.noFilter');
      return smartChange(get, async () => {
        const saved = await call('smart:create', { name, rules });
        return () => t('triage.smart.saved', { name: saved.name });
      });
    },
    triageRejects: async (scope) => {
      try {
        return await call('triage:rejects', rejectsInput(scope, get().galleryFilters));
      } catch (error) {
        get().showError(error);
        return null;
      }
    },
  };
}
