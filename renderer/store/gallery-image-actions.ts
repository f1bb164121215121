/**
 * The actions on one gallery image: favourite, delete, retry, copy, save, reveal, drag, copy its
 * task id. Each goes to the local gallery over IPC and applies the record main returns. Part of
 * the gallery slice (gallery-slice.ts).
 */
import type { StateCreator } from 'zustand';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { itemKey } from './gallery-list-model';

function imageRef(item: GalleryItem): { localId: string; index: number } {
  return { localId: item.localId, index: item.index };
}

/** The actions on one image (part of AppState). */
export interface GalleryImageActions {
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

type Creator = StateCreator<AppState>;

/** The requests an image's tile, menu and viewer make. */
export function galleryImageActions(
  set: Parameters<Creator>[0],
  get: Parameters<Creator>[1],
): GalleryImageActions {
  /** Applies a record the main process returned after an action on one of its images. */
  const applyRecord = (record: TaskRecord): void => {
    get().galleryApplyTaskUpdate({ record, live: null });
  };

  return {
    galleryDelete: async (item) => {
      const task = await call('gallery:deleteImage', imageRef(item));
      // The viewer moves on to the next image (or the previous one) before this one goes.
      const key = itemKey(item);
      const { galleryRefs: items, galleryViewerKey } = get();
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
}
