/**
 * Deleting gallery images with Undo, and the other action on a selection of them: export (its
 * flags are triage's). Main holds deleted images for a while (core/trash); the last delete is remembered here
 * so Undo (its entry's button in the status area, the window's Ctrl/Cmd+Z) can ask for it back,
 * from the delete's first moment: an Undo while it runs stops it, and main brings back what it
 * had moved. Each delete is a job with one status entry (trash-job.ts). Each action takes image
 * refs, so a selection of images not loaded ("Select all") is acted on too.
 */
import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/ipc/contract';
import type { ImageState } from '../../shared/domain/task-record';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { countQuery } from './gallery-browse';
import type { GalleryFilters } from './gallery-list-model';
import { deleteImages, refOf, undoDelete } from './gallery-delete';
import type { BatchResult, ImageRef } from './gallery-delete';

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

  // One dialog, one request, for the whole selection.
  galleryExport: (items) => call('gallery:exportImages', { images: items.map(refOf) }),

  async galleryMatching(filters, states) {
    const query = { ...countQuery(filters), ...(states ? { states: [...states] } : {}) };
    return (await call('gallery:selectAll', query)).images;
  },
});
