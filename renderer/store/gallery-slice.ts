/**
 * The gallery's state: the images loaded so far (paged by cursor), the filters, the open
 * viewer, and the actions on one image. Everything here goes through the local gallery over
 * IPC; nothing needs the service, so the gallery works with the network off.
 */
import type { StateCreator } from 'zustand';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GalleryItem, TaskItem } from '../../shared/ipc/contract';
import { call, toApiError } from '../lib/api';
import {
  EMPTY_GALLERY_FILTERS,
  itemKey,
  listQuery,
  mergeFirstPage,
  mergeTask,
  withModels,
  type GalleryFilters,
} from '../features/gallery/gallery-items';
import type { AppState } from './app-state';

/** A failure to show: a sentence, and the technical detail on demand. */
export interface GalleryProblem {
  readonly message: string;
  readonly detail?: string;
}

export type GalleryStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface GallerySlice {
  /** Loaded images, newest first; deleted images never appear. */
  galleryItems: GalleryItem[];
  /** Where the next page starts; null when everything is loaded. */
  galleryNextCursor: string | null;
  /** `idle` until the gallery is first shown. */
  galleryStatus: GalleryStatus;
  galleryLoadingMore: boolean;
  /** Why the last load failed (the grid shows it with "try again"). */
  galleryError: GalleryProblem | null;
  galleryFilters: GalleryFilters;
  /** Models seen in the gallery so far, for the model filter. */
  galleryModels: string[];
  /** The image open in the viewer ({@link itemKey}), or null. */
  galleryViewerKey: string | null;
  /** Bumped when the list is replaced, so a late page of an older list is dropped. */
  galleryGeneration: number;

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
  /** Drops every image of a task removed from history. */
  galleryRemoveTask(localId: string): void;
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

const LOAD_FAILED = 'The gallery could not be read.';

function imageRef(item: GalleryItem): { localId: string; index: number } {
  return { localId: item.localId, index: item.index };
}

function problem(error: unknown): GalleryProblem {
  const apiError = toApiError(error, LOAD_FAILED);
  return apiError.detail === undefined
    ? { message: apiError.message }
    : { message: apiError.message, detail: apiError.detail };
}

export const createGallerySlice: StateCreator<AppState, [], [], GallerySlice> = (set, get) => {
  /** Applies a record the main process returned after an action on one of its images. */
  const applyRecord = (record: TaskRecord): void => {
    get().galleryApplyTaskUpdate({ record, live: null });
  };

  return {
    galleryItems: [],
    galleryNextCursor: null,
    galleryStatus: 'idle',
    galleryLoadingMore: false,
    galleryError: null,
    galleryFilters: EMPTY_GALLERY_FILTERS,
    galleryModels: [],
    galleryViewerKey: null,
    galleryGeneration: 0,

    galleryLoad: async () => {
      const generation = get().galleryGeneration + 1;
      set({ galleryStatus: 'loading', galleryError: null, galleryGeneration: generation });
      try {
        const [page, models] = await Promise.all([
          call('gallery:list', listQuery(get().galleryFilters, null)),
          // Every model in the gallery, not only those on the pages loaded so far.
          call('gallery:models').catch(() => [] as string[]),
        ]);
        if (get().galleryGeneration !== generation) return;
        set((state) => ({
          galleryItems: page.items,
          galleryNextCursor: page.nextCursor,
          galleryStatus: 'ready',
          galleryLoadingMore: false,
          galleryModels: withModels(
            [...new Set([...state.galleryModels, ...models])].sort(),
            page.items,
          ),
        }));
      } catch (error) {
        if (get().galleryGeneration !== generation) return;
        set({ galleryStatus: 'error', galleryError: problem(error), galleryLoadingMore: false });
      }
    },

    galleryLoadMore: async () => {
      const { galleryNextCursor: cursor, galleryLoadingMore, galleryStatus } = get();
      if (cursor === null || galleryLoadingMore || galleryStatus !== 'ready') return;
      const generation = get().galleryGeneration;
      set({ galleryLoadingMore: true });
      try {
        const page = await call('gallery:list', listQuery(get().galleryFilters, cursor));
        if (get().galleryGeneration !== generation) return;
        set((state) => {
          const known = new Set(state.galleryItems.map(itemKey));
          const fresh = page.items.filter((item) => !known.has(itemKey(item)));
          return {
            galleryItems: [...state.galleryItems, ...fresh],
            galleryNextCursor: page.nextCursor,
            galleryLoadingMore: false,
            galleryModels: withModels(state.galleryModels, fresh),
          };
        });
      } catch (error) {
        if (get().galleryGeneration !== generation) return;
        set({ galleryLoadingMore: false, galleryError: problem(error) });
      }
    },

    galleryRefresh: async () => {
      const status = get().galleryStatus;
      // Never shown yet: the first load happens when the gallery opens.
      if (status === 'idle') return;
      if (status !== 'ready') return get().galleryLoad();
      const generation = get().galleryGeneration;
      try {
        const page = await call('gallery:list', listQuery(get().galleryFilters, null));
        if (get().galleryGeneration !== generation) return;
        set((state) => {
          const merged = mergeFirstPage(
            state.galleryItems,
            state.galleryNextCursor,
            page.items,
            page.nextCursor,
          );
          return {
            galleryItems: merged.items,
            galleryNextCursor: merged.nextCursor,
            galleryError: null,
            galleryModels: withModels(state.galleryModels, page.items),
            ...(merged.replaced
              ? { galleryGeneration: state.galleryGeneration + 1, galleryLoadingMore: false }
              : {}),
          };
        });
      } catch (error) {
        if (get().galleryGeneration !== generation) return;
        set({ galleryError: problem(error) });
      }
    },

    gallerySetFilters: (patch) => {
      set((state) => ({ galleryFilters: { ...state.galleryFilters, ...patch } }));
      void get().galleryLoad();
    },

    galleryApplyTaskUpdate: ({ record }) => {
      const state = get();
      if (state.galleryStatus !== 'ready') return;
      const merge = mergeTask(
        state.galleryItems,
        record,
        state.galleryFilters,
        state.galleryNextCursor !== null,
      );
      if (!merge.changed) return;
      set({
        galleryItems: merge.items,
        galleryModels: withModels(state.galleryModels, [{ model: record.request.model }]),
      });
    },

    galleryRemoveTask: (localId) => {
      const items = get().galleryItems;
      if (!items.some((item) => item.localId === localId)) return;
      set({ galleryItems: items.filter((item) => item.localId !== localId) });
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
