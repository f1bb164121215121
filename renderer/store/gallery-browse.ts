/**
 * The gallery's display choices (persisted, see gallery-display.ts) and its whole length: how
 * many images the filters match, so the grid's scrollbar spans all of them, and a page loaded by
 * position (`galleryJump`) for wherever the scrollbar is dragged beyond the pages loaded from
 * the top. Part of the gallery slice; kept apart so the list's own paging stays as it was.
 */
import type { StateCreator } from 'zustand';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import { refOf, type ImageRef } from './image-ref';
import { keptAcross, type KeptImage, type KeptImageRef } from './gallery-kept';
import { recordsWith } from './records-table';
import { loadGalleryDisplay, saveGalleryDisplay, type GalleryDisplay } from './gallery-display';
import { listQuery, type GalleryFilters } from './gallery-list-model';

/** Images loaded by position, away from the pages loaded from the top, as refs. */
export interface GalleryJumpRefs {
  /** Position of `refs[0]` in the whole (filtered, sorted) gallery. */
  readonly offset: number;
  /** How many images were asked for (a refresh asks for as many again). */
  readonly limit: number;
  /** The images, over the records table (their items: record-selectors.ts `selectGalleryJump`). */
  readonly refs: readonly ImageRef[];
  /** The grid's active image, kept from a page before that this one does not reach (gallery-kept.ts). */
  readonly kept?: KeptImageRef | null;
}

/** The page loaded by position as the grid shows it: its images read from their records. */
export interface GalleryJump extends Omit<GalleryJumpRefs, 'refs' | 'kept'> {
  readonly items: readonly GalleryItem[];
  readonly kept?: KeptImage | null;
}

export interface GalleryBrowseSlice {
  galleryDisplay: GalleryDisplay;
  /** How many images the filters match (null until counted, or when counting failed). */
  galleryTotal: number | null;
  galleryJump: GalleryJumpRefs | null;
  /** The position a page is being loaded at, or null. */
  galleryJumpLoading: number | null;
  /** Changes display choices and keeps them; a new order reloads the list. */
  gallerySetDisplay(patch: Partial<GalleryDisplay>): void;
  /**
   * Loads the page of `limit` images starting at `offset` into `galleryJump` (a later call wins);
   * `keep`: the grid's active image, kept at its place if the new page does not reach it.
   */
  galleryLoadAt(offset: number, limit: number, keep?: string | null): Promise<void>;
}

/** The `gallery:count` input for these filters: the list's query without its paging. */
export function countQuery(filters: GalleryFilters) {
  const query = listQuery(filters, null);
  const { search, favourite, contentCredentials, model, provider, from, to, states } = query;
  const { template, compareGroup, compared } = query;
  const { rating, flag, tags, board, unfiled, smart } = query;
  return {
    ...(smart === undefined ? {} : { smart }),
    ...(rating === undefined ? {} : { rating }),
    ...(flag === undefined ? {} : { flag }),
    ...(tags === undefined ? {} : { tags }),
    ...(board === undefined ? {} : { board }),
    ...(unfiled === undefined ? {} : { unfiled }),
    ...(search === undefined ? {} : { search }),
    ...(favourite === undefined ? {} : { favourite }),
    ...(contentCredentials === undefined ? {} : { contentCredentials }),
    ...(model === undefined ? {} : { model }),
    ...(provider === undefined ? {} : { provider }),
    ...(template === undefined ? {} : { template }),
    ...(compareGroup === undefined ? {} : { compareGroup }),
    ...(compared === undefined ? {} : { compared }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(states === undefined ? {} : { states }),
  };
}

/** Every jump request gets a number; an answer counts only if no later request was made. */
let jumpSeq = 0;

export const createGalleryBrowse: StateCreator<AppState, [], [], GalleryBrowseSlice> = (
  set,
  get,
) => ({
  galleryDisplay: loadGalleryDisplay(),
  galleryTotal: null,
  galleryJump: null,
  galleryJumpLoading: null,

  gallerySetDisplay(patch) {
    const before = get().galleryDisplay;
    const display = { ...before, ...patch };
    saveGalleryDisplay(display);
    set({ galleryDisplay: display });
    // A new order: what is loaded is in the old one. (Never shown yet: the first load will do.)
    if (display.sort !== before.sort && get().galleryStatus !== 'idle') void get().galleryLoad();
  },

  async galleryLoadAt(offset, limit, keep = null) {
    jumpSeq += 1;
    const mine = jumpSeq;
    const start = Math.max(0, Math.floor(offset));
    set({ galleryJumpLoading: start });
    const { galleryFilters, galleryDisplay } = get();
    try {
      const page = await call('gallery:list', {
        ...listQuery(galleryFilters, null, limit, galleryDisplay.sort),
        offset: start,
      });
      if (mine !== jumpSeq) return;
      set((state) => {
        const next = { offset: start, limit, refs: page.items.map(refOf) };
        const kept = keptAcross(state.galleryJump, next, keep);
        return {
          galleryJump: kept === null ? next : { ...next, kept },
          galleryJumpLoading: null,
          records: recordsWith(state.records, page.records),
        };
      });
    } catch (error) {
      if (mine !== jumpSeq) return;
      set({ galleryJumpLoading: null });
      get().showError(error);
    }
  },
});

/** Forgets the page loaded by position (the list was reloaded: it is stale). */
export function dropJump(): Pick<GalleryBrowseSlice, 'galleryJump' | 'galleryJumpLoading'> {
  jumpSeq += 1;
  return { galleryJump: null, galleryJumpLoading: null };
}
