/**
 * Deleting gallery images with Undo, and the other actions on a selection of them: favourite and
 * export. Main holds deleted images for a while (core/gallery/gallery-trash.ts); the last delete
 * is remembered here so Undo (the status area's button, Ctrl/Cmd+Z) can ask for it back. Each
 * action takes image refs, so a selection of images not loaded ("Select all") is acted on too.
 */
import type { StateCreator } from 'zustand';
import type { RequestOutput } from '../../shared/ipc/contract';
import type { ImageState } from '../../shared/domain/task-record';
import { errorText, t } from '../i18n';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { countQuery } from './gallery-browse';
import { itemKey, type GalleryFilters } from './gallery-list-model';
import { withProgress } from './status-slice';

/** One image of one task, as main names it. */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}

/** What a batch action did: how many images it changed and how many it could not. */
export interface BatchResult {
  readonly done: number;
  readonly failed: number;
  /** Why the first failure failed, in a sentence from main (worded in the language shown). */
  readonly problem?: () => string;
}

/** Asks the page to focus the tile of these images (a new `seq` asks again). */
export interface RestoredFocus {
  readonly keys: readonly string[];
  readonly seq: number;
}

export interface GalleryTrashSlice {
  /** The images of the last delete that Undo can still ask back, or null. */
  galleryUndoable: ImageRef[] | null;
  /** The images the last Undo brought back, for the grid to focus. */
  galleryRestored: RestoredFocus | null;
  /** Moves the images to the trash (the caller asked the user); the viewer moves on. */
  galleryDeleteImages(items: readonly ImageRef[]): Promise<BatchResult>;
  /**
   * Brings back the images of one delete (an Undo button's own), by default the last one; null when
   * there is nothing to undo.
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

const refOf = (item: ImageRef): ImageRef => ({ localId: item.localId, index: item.index });

/** Main takes at most this many images per request (MAX_IMAGES_PER_BATCH). */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += CHUNK) out.push(items.slice(at, at + CHUNK));
  return out;
}

export const createGalleryTrash: StateCreator<AppState, [], [], GalleryTrashSlice> = (set, get) => {
  /**
   * Sends the refs in chunks, applies the records main changed to the loaded list, and sums what
   * it did; `states` says what state each image now has in those records (by {@link itemKey}).
   */
  const inChunks = async (
    send: (images: ImageRef[]) => Promise<RequestOutput<'gallery:deleteImages'>>,
    refs: readonly ImageRef[],
    step: (done: number) => void = () => undefined,
  ): Promise<BatchResult & { states: Map<string, string> }> => {
    let failed = 0;
    let problem: (() => string) | undefined;
    let sent = 0;
    const states = new Map<string, string>();
    for (const images of chunks(refs)) {
      const outcome = await send(images.map(refOf));
      sent += images.length;
      step(sent);
      for (const { record } of outcome.items) {
        for (const image of record.images)
          states.set(itemKey({ ...record, ...image }), image.state);
        get().galleryApplyTaskUpdate({ record, live: null });
      }
      failed += outcome.failed;
      // main's sentence, in the window's language when shown (the English text when it has none)
      const { problem: message, problemSentence: sentence } = outcome;
      if (message !== undefined) problem ??= () => errorText({ message, sentence });
    }
    return { done: refs.length - failed, failed, ...(problem ? { problem } : {}), states };
  };

  return {
    galleryUndoable: null,
    galleryRestored: null,

    galleryDeleteImages: async (items) => {
      const refs = items.map(refOf);
      const gone = new Set(items.map(itemKey));
      // The viewer moves on to the next image (or the previous one) before this one goes.
      const { galleryItems: list, galleryViewerKey: open } = get();
      if (open !== null && gone.has(open)) {
        const at = list.findIndex((candidate) => itemKey(candidate) === open);
        const after = list.slice(at + 1).find((candidate) => !gone.has(itemKey(candidate)));
        const before = list
          .slice(0, Math.max(0, at))
          .reverse()
          .find((candidate) => !gone.has(itemKey(candidate)));
        const neighbour = after ?? before;
        set({ galleryViewerKey: neighbour ? itemKey(neighbour) : null });
      }
      try {
        const { states, ...result } = await inChunks(
          (images) => call('gallery:deleteImages', { images }),
          refs,
        );
        // What main now says is deleted is what Undo can ask back.
        const deleted = refs.filter((ref) => states.get(itemKey(ref)) === 'deleted');
        set({ galleryUndoable: deleted.length > 0 ? deleted : null });
        if (deleted.length === 0 && open !== null && gone.has(open))
          set({ galleryViewerKey: open });
        return result;
      } catch (error) {
        if (open !== null && gone.has(open)) set({ galleryViewerKey: open });
        throw error;
      }
    },

    galleryUndoDelete: async (asked) => {
      const last = get().galleryUndoable;
      const refs = asked ?? last;
      if (!refs || refs.length === 0) return null;
      // Ctrl/Cmd+Z after this one has nothing left to undo when this was the last delete.
      if (last !== null && (asked === undefined || asked === last)) set({ galleryUndoable: null });
      const { states, ...result } = await inChunks(
        (images) => call('gallery:undoDelete', { images }),
        refs,
      );
      const keys = refs.map((ref) => itemKey(ref)).filter((key) => states.get(key) === 'saved');
      const first = keys[0];
      if (first !== undefined) {
        const state = get();
        const back = refs.find((ref) => itemKey(ref) === first);
        if (state.galleryViewerKey !== null) set({ galleryViewerKey: first });
        else if (state.tasksViewer !== null && back) {
          // The viewer over Tasks shows the image it got back.
          state.tasksOpenViewer(refOf(back));
        } else set({ galleryRestored: { keys, seq: (state.galleryRestored?.seq ?? 0) + 1 } });
      }
      return result;
    },

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
          inChunks((images) => call('gallery:setFavourites', { images, favourite }), refs, step),
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
  };
};
