/**
 * The gallery's state: the images loaded so far (paged by cursor), the filters, the open
 * viewer, and the actions on one image. Everything here goes through the local gallery over
 * IPC; nothing needs the service, so the gallery works with the network off.
 */
import type { StateCreator } from 'zustand';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import type { RequestOutput, TaskItem } from '../../shared/ipc/contract';
import { call } from '../lib/api';
import { t } from '../i18n';
import type { AppState } from './app-state';
import {
  EMPTY_GALLERY_FILTERS,
  GALLERY_PAGE_SIZE,
  itemKey,
  listQuery,
  mergeFirstPage,
  withModels,
  type GalleryFilters,
} from './gallery-list-model';
import { galleryChanges, imagesAfterBatch, type GalleryChanges } from './gallery-batch';
import { createPagedList, type PagedFields } from './paged-list';
import { createGalleryTrash, type GalleryTrashSlice } from './gallery-trash-slice';
import {
  countQuery,
  createGalleryBrowse,
  dropJump,
  type GalleryBrowseSlice,
} from './gallery-browse';

/**
 * The loaded images (newest first; deleted images never appear) as a paged list
 * (`galleryItems`, `galleryNextCursor`, `galleryStatus`, …): `galleryStatus` is `idle` until the
 * gallery is first shown, and `galleryError` says why the last load failed.
 */
export interface GallerySlice
  extends PagedFields<'gallery', GalleryItem>, GalleryBrowseSlice, GalleryTrashSlice {
  galleryFilters: GalleryFilters;
  /** Models seen in the gallery so far, for the model filter. */
  galleryModels: string[];
  /** The image open in the viewer ({@link itemKey}), or null. */
  galleryViewerKey: string | null;

  /** Loads the first page for the current filters, replacing the list. */
  galleryLoad(): Promise<void>;
  /** Loads the next page (no-op while one is loading or when everything is loaded). */
  galleryLoadMore(): Promise<void>;
  /** Reloads the first page and merges it with what is loaded (keeps deeper pages). */
  galleryRefresh(): Promise<void>;
  /** Changes filters and reloads. */
  gallerySetFilters(patch: Partial<GalleryFilters>): void;
  /** Applies a task's new state: updates its images, inserts new ones, drops deleted ones. */
  galleryApplyTaskUpdate(item: TaskItem): void;
  /**
   * The gallery's part of the store after a batch of task changes, for the caller to set in the
   * same update as the task list's (task-updates.ts); when it changes loaded images, pages on
   * their way are marked stale (read again).
   */
  galleryAfterTaskChanges(changes: GalleryChanges): Partial<AppState>;
  galleryOpenViewer(key: string): void;
  galleryCloseViewer(): void;

  gallerySetFavourite(item: GalleryItem, favourite: boolean): Promise<void>;
  /** Moves the image file to the OS trash. */
  galleryDelete(item: GalleryItem): Promise<void>;
  /** Asks the engine to download the task's missing images again. */
  galleryRetry(item: GalleryItem): Promise<void>;
  galleryCopyImage(item: GalleryItem): Promise<void>;
  /** Resolves where the image was saved, or null when the user cancelled. */
  gallerySaveAs(item: GalleryItem): Promise<string | null>;
  galleryReveal(item: GalleryItem): Promise<void>;
  /** Starts the OS drag of the image file (called from the page's dragstart). */
  galleryStartDrag(item: GalleryItem): Promise<void>;
  /** Copies the service's task id (through the main process: the page may not write the clipboard). */
  galleryCopyTaskId(item: GalleryItem): Promise<void>;
}

function imageRef(item: GalleryItem): { localId: string; index: number } {
  return { localId: item.localId, index: item.index };
}

export const createGallerySlice: StateCreator<AppState, [], [], GallerySlice> = (set, get, api) => {
  /** The list's query in the chosen order. */
  const query = (cursor: string | null) =>
    listQuery(get().galleryFilters, cursor, GALLERY_PAGE_SIZE, get().galleryDisplay.sort);
  /** How many images the filters match; null when it cannot be told (the list still loads). */
  const count = () => call('gallery:count', countQuery(get().galleryFilters)).catch(() => null);

  /** Applies a record the main process returned after an action on one of its images. */
  const applyRecord = (record: TaskRecord): void => {
    get().galleryApplyTaskUpdate({ record, live: null });
  };

  const list = createPagedList<'gallery', AppState, GalleryItem>({
    prefix: 'gallery',
    set,
    get,
    keyOf: itemKey,
    failure: () => t('gallery.loadError'),
  });

  /**
   * Counts the changes applied to the loaded images (task updates, removals). A page read
   * before a change and answered after it is stale: it holds images deleted meanwhile (they
   * would come back) or lacks ones restored. Such an answer is read again, never applied.
   */
  let changes = 0;
  /** Counts a change; what the store is to set with it (a page on its way dropped). */
  const changed = (): Partial<AppState> => {
    changes += 1;
    // A next page on its way was read before this change: dropped, the grid asks again.
    if (!get().galleryLoadingMore) return {};
    list.drop();
    return list.patch({ loadingMore: false });
  };
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  /** Rounds of a refresh needed at most while the gallery keeps changing under it. */
  const MAX_REFRESH_ROUNDS = 5;

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
        answer = await Promise.all([call('gallery:list', query(null)), count()]);
      } catch (error) {
        if (stillCurrent()) set(list.patch({ error: list.failure(error) }));
        return;
      }
      if (!stillCurrent()) return;
      const stale = changes !== before || refreshAgain;
      if (stale && round < MAX_REFRESH_ROUNDS) continue;
      applyFirstPage(answer[0], answer[1]);
      return;
    }
  };

  /** Merges a fresh first page into what is loaded (deeper pages kept) with its count. */
  const applyFirstPage = (page: RequestOutput<'gallery:list'>, total: number | null): void => {
    const state = get();
    const merged = mergeFirstPage(
      state.galleryItems,
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
      galleryModels: withModels(state.galleryModels, page.items),
      galleryTotal: total,
    });
    // Positions may have moved: the page loaded by position is loaded again, and shown as it
    // is until then (its tiles, and the focus on one of them, stay).
    const jump = get().galleryJump;
    if (jump) void get().galleryLoadAt(jump.offset, jump.limit);
  };

  return {
    ...createGalleryBrowse(set, get, api),
    ...createGalleryTrash(set, get, api),
    ...list.initial,
    galleryFilters: EMPTY_GALLERY_FILTERS,
    galleryModels: [],
    galleryViewerKey: null,

    galleryLoad: async () => {
      await list.replace(
        async () => {
          const [page, models, total] = await Promise.all([
            call('gallery:list', query(null)),
            // Every model in the gallery, not only those on the pages loaded so far.
            call('gallery:models').catch(() => [] as string[]),
            count(),
          ]);
          return { ...page, models, total };
        },
        (next, state, page) => ({
          galleryTotal: page.total,
          ...dropJump(),
          galleryModels: withModels(
            [...new Set([...state.galleryModels, ...page.models])].sort(),
            next.items,
          ),
        }),
      );
    },

    galleryLoadMore: () =>
      list.extend(
        (cursor) => call('gallery:list', query(cursor)),
        (_next, state, page) => ({ galleryModels: withModels(state.galleryModels, page.items) }),
      ),

    galleryRefresh: () => {
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

    gallerySetFilters: (patch) => {
      set((state) => ({ galleryFilters: { ...state.galleryFilters, ...patch } }));
      void get().galleryLoad();
    },

    galleryApplyTaskUpdate: ({ record }) => {
      set(get().galleryAfterTaskChanges(galleryChanges([record])));
    },

    galleryAfterTaskChanges: (changes) => {
      const state = get();
      if (state.galleryStatus !== 'ready') return {};
      // The page loaded by position shows the same images: their stars, states, or going.
      const jump = state.galleryJump;
      const jumpItems = jump ? imagesAfterBatch(jump.items, changes) : null;
      const merge = imagesAfterBatch(state.galleryItems, changes, {
        filters: state.galleryFilters,
        hasMore: state.galleryNextCursor !== null,
        sort: state.galleryDisplay.sort,
      });
      const patch: Partial<AppState> =
        jump && jumpItems?.changed ? { galleryJump: { ...jump, items: jumpItems.items } } : {};
      if (!merge.changed) return patch;
      const grown = merge.items.length - state.galleryItems.length;
      const models = [...changes.records.values()].map((record) => record.request);
      return {
        ...patch,
        ...changed(),
        galleryTotal: state.galleryTotal === null ? null : Math.max(0, state.galleryTotal + grown),
        galleryItems: merge.items,
        galleryModels: withModels(state.galleryModels, models),
      };
    },

    galleryOpenViewer: (key) => set({ galleryViewerKey: key }),
    galleryCloseViewer: () => set({ galleryViewerKey: null }),

    gallerySetFavourite: async (item, favourite) => {
      const task = await call('gallery:setFavourite', { ...imageRef(item), favourite });
      applyRecord(task.record);
    },
    galleryDelete: async (item) => {
      const task = await call('gallery:deleteImage', imageRef(item));
      // The viewer moves on to the next image (or the previous one) before this one goes.
      const key = itemKey(item);
      const { galleryItems: items, galleryViewerKey } = get();
      if (galleryViewerKey === key) {
        const at = items.findIndex((candidate) => itemKey(candidate) === key);
        const neighbour = items[at + 1] ?? items[at - 1];
        set({ galleryViewerKey: neighbour ? itemKey(neighbour) : null });
      }
      applyRecord(task.record);
    },
    galleryRetry: async (item) => {
      const task = await call('tasks:retryImages', { localId: item.localId });
      applyRecord(task.record);
    },
    galleryCopyImage: (item) => call('gallery:copyImage', imageRef(item)),
    gallerySaveAs: async (item) => (await call('gallery:saveAs', imageRef(item))).savedTo,
    galleryReveal: (item) => call('gallery:reveal', imageRef(item)),
    galleryStartDrag: (item) => call('gallery:startDrag', imageRef(item)),
    galleryCopyTaskId: async (item) => {
      if (item.taskId !== null) await call('app:copyText', { text: item.taskId });
    },
  };
};
