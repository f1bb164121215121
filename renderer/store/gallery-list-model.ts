/**
 * Pure helpers over the gallery's loaded items: identity, order, the filters as main takes them,
 * and merging fresh data (a first page, a task update) into what is already loaded without
 * reshuffling it. Whether an image belongs under the filters is main's to say (gallery-batch.ts).
 */
import type { ServiceId } from '../../shared/domain/service-id';
import { VISIBLE_STATES, type TaskRecord } from '../../shared/domain/task-record';
import type { GalleryItem, GallerySort } from '../../shared/domain/gallery-item';
import type { RequestInput } from '../../shared/ipc/contract';
import { galleryItemOf } from '../../shared/domain/gallery-item';
import { retriesImage } from '../../shared/domain/task-actions';
import { withFavourites } from '../../shared/domain/favourites';
import {
  EMPTY_TRIAGE_FILTERS,
  hasTriageFilters,
  triageQuery,
  type TriageFilters,
} from './triage-filters';

/** What the filter bar holds; dates are `YYYY-MM-DD` from date inputs, empty when unset. */
export interface GalleryFilters extends TriageFilters {
  readonly search: string;
  readonly favouriteOnly: boolean;
  /** Only images that carry Content Credentials (a C2PA manifest, whatever its verdict). */
  readonly credentialsOnly: boolean;
  readonly model: string;
  /** Only images of one service's tasks; '' for all. */
  readonly provider: ServiceId | '';
  /** Only images of tasks made from the prompt template with this id; '' for all. */
  readonly template: string;
  /** Only images of a compare's tasks: {@link ANY_COMPARE} any compare's, or one group's id; '' for all. */
  readonly compare: string;
  readonly from: string;
  readonly to: string;
}

export const EMPTY_GALLERY_FILTERS: GalleryFilters = {
  search: '',
  favouriteOnly: false,
  credentialsOnly: false,
  model: '',
  provider: '',
  template: '',
  compare: '',
  from: '',
  to: '',
  ...EMPTY_TRIAGE_FILTERS,
};

/** The Compare group filter's choice of every compare's images (a group's is its UUID). */
export const ANY_COMPARE = 'any';

/** Images per `gallery:list` call. */
export const GALLERY_PAGE_SIZE = 200;

/** A stable identity for one image of one task. */
export function itemKey(item: Pick<GalleryItem, 'localId' | 'index'>): string {
  return `${item.localId}/${String(item.index)}`;
}

export function hasActiveFilters(filters: GalleryFilters): boolean {
  return (
    filters.search.trim() !== '' ||
    filters.favouriteOnly ||
    filters.credentialsOnly ||
    filters.model !== '' ||
    filters.provider !== '' ||
    filters.template !== '' ||
    filters.compare !== '' ||
    filters.from !== '' ||
    filters.to !== '' ||
    hasTriageFilters(filters)
  );
}

/** Local midnight of a `YYYY-MM-DD` day, or undefined when the text is not a day. */
export function dayStart(day: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const time = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** The last millisecond of a local day, so "to" includes the whole day. */
export function dayEnd(day: string): number | undefined {
  const start = dayStart(day);
  if (start === undefined) return undefined;
  const next = new Date(start);
  next.setDate(next.getDate() + 1);
  return next.getTime() - 1;
}

/** The `gallery:list` input for these filters. */
export function listQuery(
  filters: GalleryFilters,
  cursor: string | null,
  limit = GALLERY_PAGE_SIZE,
  sort: GallerySort = 'newest',
): RequestInput<'gallery:list'> {
  const search = filters.search.trim();
  const from = dayStart(filters.from);
  const to = dayEnd(filters.to);
  return {
    ...(search ? { search } : {}),
    ...(filters.favouriteOnly ? { favourite: true } : {}),
    ...(filters.credentialsOnly ? { contentCredentials: true } : {}),
    ...(filters.model ? { model: filters.model } : {}),
    ...(filters.provider ? { provider: filters.provider } : {}),
    ...(filters.template ? { template: filters.template } : {}),
    ...compareQuery(filters.compare),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...triageQuery(filters),
    states: [...VISIBLE_STATES],
    ...(sort === 'newest' ? {} : { sort }),
    limit,
    ...(cursor ? { cursor } : {}),
  };
}

/** The Compare group filter as `gallery:list` takes it. */
function compareQuery(
  compare: string,
): Pick<RequestInput<'gallery:list'>, 'compared' | 'compareGroup'> {
  if (compare === '') return {};
  return compare === ANY_COMPARE ? { compared: true } : { compareGroup: compare };
}

/** The list's order: newest task first (listedAt), then local id descending, then image index. */
function compareItems(a: GalleryItem, b: GalleryItem): number {
  const [at, bt] = [a.listedAt ?? a.createdAt, b.listedAt ?? b.createdAt];
  if (at !== bt) return bt - at;
  if (a.localId !== b.localId) return a.localId < b.localId ? 1 : -1;
  return a.index - b.index;
}

/** SQLite's NOCASE: ASCII letters fold, nothing else does (as main's order by prompt). */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The order of each sort, as main lists it (see electron/core/history/gallery-order.ts). */
export function compareFor(sort: GallerySort): (a: GalleryItem, b: GalleryItem) => number {
  if (sort === 'oldest') return (a, b) => compareItems(b, a);
  if (sort === 'newest') return compareItems;
  return (a, b) => {
    const [x, y] = [foldAscii(a.prompt), foldAscii(b.prompt)];
    return x < y ? -1 : x > y ? 1 : compareItems(a, b);
  };
}

/** The gallery items of a task record, built the way the main process builds them. */
export function galleryItemsOf(record: TaskRecord): GalleryItem[] {
  // One favourite: a task starred before its images arrived stars them, as main stores it.
  const stored = withFavourites(record);
  return stored.images.map((image) => galleryItemOf(stored, image));
}

/** Whether "retry" can still work for an image (shared/domain/task-actions.ts `retriesImage`). */
export function canRetry(item: GalleryItem): boolean {
  return retriesImage(item.image);
}

/** Where `item` goes in a sorted list (binary search). */
export function insertionIndex(
  items: readonly GalleryItem[],
  item: GalleryItem,
  compare: (a: GalleryItem, b: GalleryItem) => number = compareItems,
): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(items[mid] as GalleryItem, item) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface PageMerge<Item> {
  readonly items: Item[];
  readonly nextCursor: string | null;
  /** True when the loaded list was replaced (the page did not overlap what was loaded). */
  readonly replaced: boolean;
}

/**
 * Merges a fresh first page into the loaded list: when the page's last image is among the
 * loaded ones, the page replaces everything up to it and the rest (and the cursor) is kept, so
 * a refresh neither loses the scroll depth nor reloads every page. Otherwise the page replaces
 * the list.
 */
export function mergeFirstPage<Item extends Pick<GalleryItem, 'localId' | 'index'>>(
  current: readonly Item[],
  currentCursor: string | null,
  page: readonly Item[],
  pageCursor: string | null,
): PageMerge<Item> {
  const last = page.at(-1);
  if (pageCursor === null || last === undefined) {
    return { items: [...page], nextCursor: pageCursor, replaced: true };
  }
  const lastKey = itemKey(last);
  const at = current.findIndex((item) => itemKey(item) === lastKey);
  if (at < 0) return { items: [...page], nextCursor: pageCursor, replaced: true };
  return {
    items: [...page, ...current.slice(at + 1)],
    nextCursor: at + 1 < current.length ? currentCursor : pageCursor,
    replaced: false,
  };
}

/** Adds the models of `items` to a sorted list of known models. */
export function withModels(
  known: readonly string[],
  items: readonly { readonly model?: string | undefined }[],
): string[] {
  const models = new Set(known);
  const before = models.size;
  for (const item of items) if (item.model) models.add(item.model);
  if (models.size === before) return known as string[];
  return [...models].sort((a, b) => a.localeCompare(b));
}
