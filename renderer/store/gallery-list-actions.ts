/**
 * The gallery list's actions: loading pages for the filters, refreshing the first page while the
 * gallery changes under it, and merging task changes into the loaded images. Part of the gallery
 * slice (gallery-slice.ts).
 */
import type { StateCreator } from 'zustand';
import type { RequestOutput, TaskItem } from '../../shared/ipc/contract';
import { call } from '../lib/api';
import { emptySelection } from '../lib/selection';
import type { AppState } from './app-state';
import { galleryChanges, imagesAfterBatch } from './gallery-batch';
import { countQuery, dropJump } from './gallery-browse';
import {
  GALLERY_PAGE_SIZE,
  hasActiveFilters,
  itemKey,
  listQuery,
  mergeFirstPage,
  withModels,
} from './gallery-list-model';
import type { PagedList } from './paged-list';
import { refOf, refsOf, type ImageRef } from './image-ref';
import { keptAfterChanges } from './gallery-kept';
import { recordProblem } from './record-problem';
import { recordsWith } from './records-table';
import { selectGalleryItems, selectGalleryJump } from './record-selectors';

type Creator = StateCreator<AppState>;

type Set = Parameters<Creator>[0];
type Get = Parameters<Creator>[1];
type GalleryList = PagedList<'gallery', AppState, ImageRef, 'Refs'>;

/** A page of `gallery:list` as the list takes it: its images' refs, and their tasks' records. */
interface GalleryPage {
  readonly items: readonly ImageRef[];
  readonly nextCursor: string | null;
  readonly records: readonly TaskItem[];
}

function pageOf(answer: RequestOutput<'gallery:list'>): GalleryPage {
  const { items, nextCursor, records } = answer;
  return { items: items.map(refOf), nextCursor, records };
}

/** The models of a page's readable tasks. */
const modelsOf = (page: GalleryPage) =>
  page.records.flatMap(({ record }) => (recordProblem(record) === null ? [record.request] : []));

/** The list's query in the chosen order. */
function query(get: Get, cursor: string | null) {
  return listQuery(get().galleryFilters, cursor, GALLERY_PAGE_SIZE, get().galleryDisplay.sort);
}

/** How many images the filters match; null when it cannot be told (the list still loads). */
function count(get: Get) {
  return call('gallery:count', countQuery(get().galleryFilters)).catch(() => null);
}

/** Rounds of a refresh needed at most while the gallery keeps changing under it. */
const MAX_REFRESH_ROUNDS = 5;

/** Merges a fresh first page into what is loaded (deeper pages kept) with its count. */
function applyFirstPage(
  { set, get, list }: { set: Set; get: Get; list: GalleryList },
  page: GalleryPage,
  total: number | null,
): void {
  const state = get();
  const merged = mergeFirstPage(
    state.galleryRefs,
    state.galleryNextCursor,
    page.items,
    page.nextCursor,
  );
  // A list replaced here makes a next page already on its way stale.
  if (merged.replaced) list.drop();
  set({
    ...list.patch({
      items: merged.items,
      nextCursor: merged.nextCursor,
      error: null,
      ...(merged.replaced ? { loadingMore: false } : {}),
    }),
    records: recordsWith(get().records, page.records),
    galleryModels: withModels(state.galleryModels, modelsOf(page)),
    galleryTotal: total,
  });
  // Positions may have moved: the page loaded by position is loaded again, and shown as it
  // is until then (its tiles, and the focus on one of them, stay).
  const jump = get().galleryJump;
  const kept = jump?.kept ? itemKey(jump.kept.refs[0]) : null;
  if (jump) void get().galleryLoadAt(jump.offset, jump.limit, kept);
}

/** What keeps the loaded images fresh: the changes counted, and the refresh that reads again. */
export interface GalleryFreshness {
  /** Counts a change; what the store is to set with it (a page on its way dropped). */
  changed(): Partial<AppState>;
  /** Reads the first page again; one refresh at a time. */
  refresh(): Promise<void>;
}

export function galleryFreshness(set: Set, get: Get, list: GalleryList): GalleryFreshness {
  /**
   * Counts the changes applied to the loaded images (task updates, removals). A page read
   * before a change and answered after it is stale: it holds images deleted meanwhile (they
   * would come back) or lacks ones restored. Such an answer is read again, never applied.
   */
  let changes = 0;
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;

  /** Reads the first page again until an answer is newer than every change (or rounds run out). */
  const refreshRounds = async (): Promise<void> => {
    for (let round = 1; ; round += 1) {
      refreshAgain = false;
      const before = changes;
      const status = get().galleryStatus;
      // Never shown yet: the first load happens when the gallery opens.
      if (status === 'idle') return;
      if (status !== 'ready') return get().galleryLoad();
      const stillCurrent = list.current();
      let answer;
      try {
        answer = await Promise.all([call('gallery:list', query(get, null)), count(get)]);
      } catch (error) {
        if (stillCurrent()) set(list.patch({ error: list.failure(error) }));
        return;
      }
      if (!stillCurrent()) return;
      const stale = changes !== before || refreshAgain;
      if (stale && round < MAX_REFRESH_ROUNDS) continue;
      applyFirstPage({ set, get, list }, pageOf(answer[0]), answer[1]);
      return;
    }
  };

  return {
    changed: () => {
      changes += 1;
      // A next page on its way was read before this change: dropped, the grid asks again.
      if (!get().galleryLoadingMore) return {};
      list.drop();
      return list.patch({ loadingMore: false });
    },
    refresh: () => {
      // One refresh at a time: a request meanwhile asks for one more round, not another read.
      if (refreshing) {
        refreshAgain = true;
        return refreshing;
      }
      refreshing = refreshRounds().finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
  };
}

/** Loading: the first page for the filters, the next pages, a refresh, a change of filters. */
export function galleryLoadActions(
  set: Set,
  get: Get,
  list: GalleryList,
  freshness: GalleryFreshness,
): Pick<AppState, 'galleryLoad' | 'galleryLoadMore' | 'galleryRefresh' | 'gallerySetFilters'> {
  return {
    galleryLoad: async () => {
      // Every model in the gallery (not only those on the pages loaded) and the count are walks
      // of the whole library, read in main's history worker: the first page is drawn without
      // waiting for them (at 2.5 million images they take a second), and they follow: the count
      // first, as the scrollbar's length waits for it, then the models (0.9 s there), asked once
      // the count is in so that their walk neither delays the count nor holds its length back.
      const total = count(get);
      const models = total.then(() => call('gallery:models')).catch(() => [] as string[]);
      const stillCurrent = await list.replace(
        async () => pageOf(await call('gallery:list', query(get, null))),
        (_next, state, page) => ({
          records: recordsWith(state.records, page.records),
          galleryTotal: null,
          ...dropJump(),
          galleryModels: withModels(state.galleryModels, modelsOf(page)),
        }),
      );
      const matching = await total;
      if (!stillCurrent?.()) return;
      set({ galleryTotal: matching });
      const all = await models;
      if (!stillCurrent?.()) return;
      set((state) => ({ galleryModels: [...new Set([...state.galleryModels, ...all])].sort() }));
    },

    galleryLoadMore: () =>
      list.extend(
        async (cursor) => pageOf(await call('gallery:list', query(get, cursor))),
        (_next, state, page) => ({
          records: recordsWith(state.records, page.records),
          galleryModels: withModels(state.galleryModels, modelsOf(page)),
        }),
      ),

    galleryRefresh: () => freshness.refresh(),

    gallerySetFilters: (patch) => {
      // The old filters' count is not the new ones': unknown until main counts them again. The
      // selection (a whole set too) was the old filters'; what the new ones show is not selected unseen.
      set((state) => ({
        galleryFilters: { ...state.galleryFilters, ...patch },
        galleryTotal: null,
        gallerySelection: emptySelection(),
      }));
      void get().galleryLoad();
    },
  };
}

/** Task changes merged into the loaded images (and the page loaded by position). */
export function galleryChangeActions(
  set: Set,
  get: Get,
  freshness: GalleryFreshness,
): Pick<AppState, 'galleryApplyTaskUpdate' | 'galleryAfterTaskChanges'> {
  return {
    galleryApplyTaskUpdate: (item) => {
      const state = get();
      const patch = state.galleryAfterTaskChanges(galleryChanges([item.record]));
      const localId = item.record.localId;
      const names = (refs: readonly ImageRef[] = []) => refs.some((ref) => ref.localId === localId);
      // The record is written once: for every view that has it, or the gallery it joins.
      const held =
        state.records.has(localId) || names(patch.galleryRefs) || names(patch.galleryJump?.refs);
      set(held ? { ...patch, records: recordsWith(state.records, [item]) } : patch);
    },

    galleryAfterTaskChanges: (changes) => {
      const state = get();
      if (state.galleryStatus !== 'ready') return {};
      // The page loaded by position shows the same images: their stars, states, or going.
      const jump = state.galleryJump;
      const jumpView = selectGalleryJump(state);
      const jumpItems = jumpView ? imagesAfterBatch(jumpView.items, changes) : null;
      const loaded = selectGalleryItems(state);
      const merge = imagesAfterBatch(loaded, changes, {
        filtered: hasActiveFilters(state.galleryFilters),
        hasMore: state.galleryNextCursor !== null,
        sort: state.galleryDisplay.sort,
      });
      const kept = jump?.kept ? keptAfterChanges(jump.kept, jumpView?.kept?.item, changes) : null;
      const patch: Partial<AppState> =
        jump && (jumpItems?.changed || kept !== (jump.kept ?? null))
          ? {
              galleryJump: {
                ...jump,
                refs: jumpItems ? refsOf(jump.refs, jumpItems.items) : jump.refs,
                kept,
              },
            }
          : {};
      if (!merge.changed) return patch;
      const grown = merge.items.length - loaded.length;
      const models = [...changes.records.values()].map((record) => record.request);
      return {
        ...patch,
        ...freshness.changed(),
        galleryTotal: state.galleryTotal === null ? null : Math.max(0, state.galleryTotal + grown),
        // A star or a flag leaves every image in its place: the refs stay, with no pass over them.
        galleryRefs:
          merge.placesKept && loaded.length === state.galleryRefs.length
            ? state.galleryRefs
            : refsOf(state.galleryRefs, merge.items),
        galleryModels: withModels(state.galleryModels, models),
      };
    },
  };
}
