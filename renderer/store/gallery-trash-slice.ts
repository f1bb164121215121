/**
 * Deleting gallery images with Undo, and the other actions on a selection of them: favourite and
 * export. Main holds deleted images for a while (core/trash); the last delete is remembered here
 * so Undo (its entry's button in the status area, the window's Ctrl/Cmd+Z) can ask for it back,
 * from the delete's first moment: an Undo while it runs stops it, and main brings back what it
 * had moved. Each delete is a job with one status entry (trash-job.ts). Each action takes image
 * refs, so a selection of images not loaded ("Select all") is acted on too.
 */
import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/ipc/contract';
import type { ImageState } from '../../shared/domain/task-record';
import { t } from '../i18n';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { countQuery } from './gallery-browse';
import { itemKey, type GalleryFilters } from './gallery-list-model';
import { deleteImages, inChunks, refOf, undoDelete } from './gallery-delete';
import type { BatchResult, ImageRef } from './gallery-delete';
import { withProgress } from './status-slice';

export type { BatchResult, ImageRef } from './gallery-delete';

/** Asks the page to focus the tile of these images (none: the grid itself); a new `seq` asks again. */
export interface RestoredFocus {
  readonly keys: readonly string[];
  readonly seq: number;
}

export interface GalleryTrashSlice {
  /** The images of the last delete that Undo can still ask back (from its first moment), or null. */
  galleryUndoable: readonly ImageRef[] | null;
  /** The images the last Undo brought back, for the grid to focus. */
  galleryRestored: RestoredFocus | null;
  /** Deletes and Undos under way: the grid may be between two states meanwhile. */
  galleryTrashBusy: number;
  /** Moves the images to the trash (the caller asked the user); the viewer moves on. */
  galleryDeleteImages(items: readonly ImageRef[]): Promise<BatchResult>;
  /**
   * Brings back the images of one delete (an Undo button's own), by default the last one, even
   * while it runs; null when there is nothing to undo.
   */
  galleryUndoDelete(refs?: readonly ImageRef[]): Promise<BatchResult | null>;
  /**
   * Stars or unstars every image: the loaded ones at once (the stars change under the pointer),
   * then main, a chunk per request, with progress in the status area.
   */
  gallerySetFavourites(items: readonly ImageRef[], favourite: boolean): Promise<BatchResult>;
  /** Copies the images into a folder main asks for; `folder` null when the user cancelled. */
  galleryExport(items: readonly ImageRef[]): Promise<RequestOutput<'gallery:exportImages'>>;
  /**
   * Every image the filters match (in `states` only, when given), loaded or not, as main names
   * them: what a "Select all" acts on.
   */
  galleryMatching(filters: GalleryFilters, states?: readonly ImageState[]): Promise<ImageRef[]>;
}

export const createGalleryTrash: StateCreator<AppState, [], [], GalleryTrashSlice> = (
  set,
  get,
  store,
) => ({
  galleryUndoable: null,
  galleryRestored: null,
  galleryTrashBusy: 0,

  galleryDeleteImages: (items) => deleteImages(store, items),
  galleryUndoDelete: (asked) => undoDelete(store, asked),

  gallerySetFavourites: async (items, favourite) => {
    const refs = items.map(refOf);
    const named = new Set(refs.map(itemKey));
    // At once where the eye is: the loaded tiles' stars, before main has answered.
    set((state) => ({
      galleryItems: state.galleryItems.map((item) =>
        named.has(itemKey(item)) && item.image.favourite !== favourite
          ? { ...item, image: { ...item.image, favourite } }
          : item,
      ),
    }));
    const { states: _states, ...result } = await withProgress(
      get(),
      () => t('status.favouriting', { favourite: favourite ? 'yes' : 'no' }),
      refs.length,
      (step) =>
        inChunks(store, (images) => call('gallery:setFavourites', { images, favourite }), refs, {
          step,
        }),
    );
    // What main did not star keeps its star as it was: the loaded tiles are read again.
    if (result.failed > 0) void get().galleryRefresh();
    return result;
  },

  // One dialog, one request, for the whole selection.
  galleryExport: (items) => call('gallery:exportImages', { images: items.map(refOf) }),

  async galleryMatching(filters, states) {
    const query = { ...countQuery(filters), ...(states ? { states: [...states] } : {}) };
    return (await call('gallery:selectAll', query)).images;
  },
});
