/**
 * The gallery's state: the images loaded so far (paged by cursor), the filters, the open
 * viewer, and the actions on one image. Everything here goes through the local gallery over
 * IPC; nothing needs the service, so the gallery works with the network off. The actions come
 * in groups: the list's (gallery-list-actions.ts) and one image's (gallery-image-actions.ts).
 */
import type { StateCreator } from 'zustand';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { emptySelection, type Selection } from '../lib/selection';
import type { AppState } from './app-state';
import type { ImageRef } from './image-ref';
import { EMPTY_GALLERY_FILTERS, itemKey, type GalleryFilters } from './gallery-list-model';
import type { GalleryChanges } from './gallery-batch';
import { createPagedList, type PagedFields } from './paged-list';
import { createGalleryTrash, type GalleryTrashSlice } from './gallery-trash-slice';
import { createGalleryBrowse, type GalleryBrowseSlice } from './gallery-browse';
import { galleryImageActions, type GalleryImageActions } from './gallery-image-actions';
import { galleryChangeActions, galleryFreshness, galleryLoadActions } from './gallery-list-actions';

/**
 * The loaded images (newest first; deleted images never appear) as a paged list of image refs
 * over the records table (`galleryRefs`, `galleryNextCursor`, `galleryStatus`, …; their items:
 * record-selectors.ts `selectGalleryItems`): `galleryStatus` is `idle` until the gallery is
 * first shown, and `galleryError` says why the last load failed.
 */
export interface GallerySlice
  extends
    PagedFields<'gallery', ImageRef, 'Refs'>,
    GalleryBrowseSlice,
    GalleryTrashSlice,
    GalleryImageActions {
  galleryFilters: GalleryFilters;
  /** Models seen in the gallery so far, for the model filter. */
  galleryModels: string[];
  /** The image open in the viewer ({@link itemKey}), or null. */
  galleryViewerKey: string | null;
  /**
   * The images selected in the grid (lib/selection.ts), the store's so a new language (the window
   * drawn anew, app.tsx) keeps them; new filters start a new one (gallerySetFilters).
   */
  gallerySelection: Selection<string>;
  /** Sets the selection, or changes the current one (as React's setter does). */
  gallerySetSelection(
    next: Selection<string> | ((current: Selection<string>) => Selection<string>),
  ): void;

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
}

export const createGallerySlice: StateCreator<AppState, [], [], GallerySlice> = (set, get, api) => {
  const list = createPagedList<'gallery', AppState, ImageRef, 'Refs'>({
    prefix: 'gallery',
    itemsName: 'Refs',
    set,
    get,
    keyOf: itemKey,
    failure: () => t('gallery.loadError'),
  });
  const freshness = galleryFreshness(set, get, list);

  return {
    ...createGalleryBrowse(set, get, api),
    ...createGalleryTrash(set, get, api),
    ...list.initial,
    galleryFilters: EMPTY_GALLERY_FILTERS,
    galleryModels: [],
    galleryViewerKey: null,
    gallerySelection: emptySelection(),

    ...galleryLoadActions(set, get, list, freshness),
    ...galleryChangeActions(set, get, freshness),

    gallerySetSelection: (next) =>
      set((state) => ({
        gallerySelection: typeof next === 'function' ? next(state.gallerySelection) : next,
      })),
    // The version chosen in the viewer's stack strip is kept over a new language (form-drafts.ts),
    // not over another image or a close.
    galleryOpenViewer: (key) => {
      get().formDraftDrop('viewer.stack');
      set({ galleryViewerKey: key });
    },
    galleryCloseViewer: () => {
      get().formDraftDrop('viewer.stack');
      set({ galleryViewerKey: null });
    },

    ...galleryImageActions(set, get),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends GallerySlice {}
}
