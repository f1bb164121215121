/**
 * The gallery's triage filters (part of GalleryFilters, gallery-list-model.ts): at least a
 * rating, rejects only, any of some tags, one board or no board, as main takes them
 * (electron/core/history/triage-filter.ts applies them; the page never does).
 */
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
