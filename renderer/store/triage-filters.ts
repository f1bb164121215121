/**
 * The gallery's triage filters (part of GalleryFilters, gallery-list-model.ts): at least a
 * rating, rejects only, any of some tags, one board or no board. As main filters them
 * (electron/core/history/triage-filter.ts), so an image the list has not returned yet is placed
 * or left out the same way.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { boardKey, flagOf, foldName, ratingOf } from '../../shared/domain/triage';
import type { RequestInput } from '../../shared/ipc/contract';

export interface TriageFilters {
  /** At least this many stars; 0: any. */
  readonly rating: number;
  /** Only rejected images (the Rejected board). */
  readonly rejected: boolean;
  /** Images with any of these tags; none: any image. */
  readonly tags: readonly string[];
  /** Only the images of the board with this path; '' for any. */
  readonly board: string;
  /** Only images in no board (the Unfiled board). */
  readonly unfiled: boolean;
  /** The images of the smart board with this name; '' for none. */
  readonly smart: string;
}

export const EMPTY_TRIAGE_FILTERS: TriageFilters = {
  rating: 0,
  rejected: false,
  tags: [],
  board: '',
  unfiled: false,
  smart: '',
};

export function hasTriageFilters(filters: TriageFilters): boolean {
  const { rating, rejected, tags, board, unfiled, smart } = filters;
  return rating > 0 || rejected || tags.length > 0 || board !== '' || unfiled || smart !== '';
}

type TriageQuery = Pick<
  RequestInput<'gallery:count'>,
  'rating' | 'flag' | 'tags' | 'board' | 'unfiled' | 'smart'
>;

/** The filters as `gallery:list` and `gallery:count` take them. */
export function triageQuery(filters: TriageFilters): TriageQuery {
  return {
    ...(filters.rating > 0 ? { rating: { op: '>=', value: filters.rating } } : {}),
    ...(filters.rejected ? { flag: 'reject' } : {}),
    ...(filters.tags.length > 0 ? { tags: { mode: 'any', keys: [...filters.tags] } } : {}),
    ...(filters.board === '' ? {} : { board: filters.board }),
    ...(filters.unfiled ? { unfiled: true } : {}),
    ...(filters.smart === '' ? {} : { smart: filters.smart }),
  };
}

/** Whether the image passes the triage filters. */
export function matchesTriage(item: GalleryItem, filters: TriageFilters): boolean {
  const { image } = item;
  // A smart board's rules are main's to apply: an image arriving while one is shown waits for
  // the list to be read again.
  if (filters.smart !== '') return false;
  if (ratingOf(image) < filters.rating) return false;
  if (filters.rejected && flagOf(image) !== 'reject') return false;
  const boards = (image.boards ?? []).map(boardKey);
  if (filters.unfiled && boards.length > 0) return false;
  if (filters.board !== '' && !boards.includes(boardKey(filters.board))) return false;
  if (filters.tags.length === 0) return true;
  const own = new Set((image.tags ?? []).map(foldName));
  return filters.tags.some((tag) => own.has(foldName(tag)));
}
