/**
 * The history's reads of many records: pages of tasks and of images (newest first, by search, in
 * another order or at a position), counts, the whole sets a selection covers, and the engine's
 * and thumbnailer's work lists.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { HistoryAccess } from './history-access';
import {
  encodeImageCursor,
  encodeTaskCursor,
  imageAfter,
  imageFilter,
  pageLimit,
  taskAfter,
  searchWords,
  shortWordFilter,
  taskFilter,
  type HistoryQuery,
  type ImageQuery,
  type SearchWords,
  type SqlFilter,
} from './history-query';
import { galleryItemsFromRows, recordsFromRows } from './history-rows';
import {
  SELECT_NEWEST_LISTED,
  SELECT_THUMB_PENDING,
  SELECT_UNFINISHED,
} from './history-statements';
import { FEW_MATCHES, searchPage } from './search-plans';
import {
  countImages,
  encodeOrderCursor,
  orderedImageRows,
  walkAnchors,
  type AnchorWalk,
} from './gallery-order';
import { imageModels, type ModelSlice } from './image-models';
import { PositionAnchors, type AnchorChunk } from './position-anchors';
import {
  imageKeys,
  taskIds,
  type ImageKey,
  type WholeImageQuery,
  type WholeTaskQuery,
} from './whole-set';
import type { Row } from './sqlite-connection';

/** A page of tasks, newest first. */
export interface HistoryPage {
  /** Up to `limit` records; fewer when a stored row could not be read (it is skipped and logged). */
  items: TaskRecord[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

/** A page of images, newest task first. */
export interface ImagePage {
  items: GalleryItem[];
  nextCursor: string | null;
}

const COUNT_SEARCH = 'SELECT count(*) AS n FROM tasks_fts WHERE tasks_fts MATCH ?';

/** Search words with at least one the full-text index can look up. */
type IndexedWords = SearchWords & { index: string };
const hasIndex = (words: SearchWords): words is IndexedWords => words.index !== null;

/** What every listed query may say: its search, its page size, where the last page ended. */
interface PagedQuery {
  readonly search?: string;
  readonly limit?: number;
  readonly cursor?: string | null;
}

/**
 * One kind of row as it is listed newest first (tasks, images): its columns and tables (`t` the
 * tasks), its filter and the cursor's, its order, and what a page of its rows becomes.
 */
interface Listing<Q extends PagedQuery, T> {
  readonly select: string;
  /** The tables it walks, newest first. */
  readonly from: string;
  /** What joins the matching tasks to the listed rows ('' for tasks themselves). */
  readonly join: string;
  readonly order: string;
  readonly filter: (query: Q, fromRow?: number) => SqlFilter;
  readonly after: (cursor: string) => SqlFilter;
  readonly items: (page: Row[], reader: HistoryAccess) => T[];
  readonly cursor: (last: Row) => string;
}

const TASK_LISTING: Listing<HistoryQuery, TaskRecord> = {
  select: 'SELECT t.local_id, t.created_at, t.record',
  from: 'tasks t',
  join: '',
  order: 't.created_at DESC, t.local_id DESC',
  filter: taskFilter,
  after: taskAfter,
  items: recordsFromRows,
  cursor: (last) => encodeTaskCursor(taskKey(last)),
};

const IMAGE_LISTING: Listing<ImageQuery, GalleryItem> = {
  select: 'SELECT i.local_id, i.idx, i.created_at, t.record',
  from: 'images i JOIN tasks t ON t.local_id = i.local_id',
  join: 'CROSS JOIN images i ON i.local_id = t.local_id',
  order: 'i.created_at DESC, i.local_id DESC, i.idx ASC',
  filter: imageFilter,
  after: imageAfter,
  items: galleryItemsFromRows,
  cursor: (last) => encodeImageCursor({ ...taskKey(last), idx: Number(last['idx']) }),
};

/** A page read from a search's matches alone (see {@link HistoryQueries.pageFromMatches}). */
interface MatchesPage {
  readonly select: string;
  /** What joins the matching tasks to the listed rows ('' for tasks themselves). */
  readonly join: string;
  readonly filters: SqlFilter[];
  readonly order: string;
  readonly words: IndexedWords;
  readonly limit: number;
}

export class HistoryQueries {
  /** The gallery's pages by position far down an order (position-anchors.ts). */
  readonly anchors = new PositionAnchors((sql, params) =>
    Number(Object.values(this.access.row(sql, params) ?? {})[0] ?? 0),
  );

  constructor(private readonly access: HistoryAccess) {}

  /** See {@link HistoryStore.list}. */
  list(query: HistoryQuery = {}): HistoryPage {
    return this.newestFirst(TASK_LISTING, query, searchWords(query.search));
  }

  /** See {@link HistoryStore.listImages}. */
  listImages(query: ImageQuery = {}): ImagePage {
    const words = searchWords(query.search);
    const sort = query.sort ?? 'newest';
    if (sort !== 'newest' || (query.offset !== undefined && !query.cursor)) {
      return this.orderedImages(query, pageLimit(query.limit), words);
    }
    return this.newestFirst(IMAGE_LISTING, query, words);
  }

  walkAnchors(walk: AnchorWalk): AnchorChunk {
    return walkAnchors(walk, this.access.rows);
  }

  countImages(query: WholeImageQuery = {}): number {
    return countImages(query, this.access.rows);
  }

  imageKeys(query: WholeImageQuery, limit: number): ImageKey[] {
    return imageKeys(query, limit, this.access.rows);
  }

  taskIds(query: WholeTaskQuery, limit: number): string[] {
    return taskIds(query, limit, this.access.rows);
  }

  withPendingThumbnails(limit: number): string[] {
    const rows = this.access.rows(SELECT_THUMB_PENDING, [limit]);
    return rows.map((row) => String(row['local_id']));
  }

  unfinished(): TaskRecord[] {
    return recordsFromRows(this.access.rows(SELECT_UNFINISHED, []), this.access);
  }

  /** See {@link HistoryStore.newestListed}. */
  newestListed(): number | null {
    const row = this.access.rows(SELECT_NEWEST_LISTED, [])[0];
    return row === undefined ? null : Number(row['created_at']);
  }

  /** See {@link HistoryStore.count}. */
  count(query: Omit<HistoryQuery, 'limit' | 'cursor'> = {}): number {
    const words = searchWords(query.search);
    const searchOnly =
      words.index !== null &&
      words.short.length === 0 &&
      query.statuses === undefined &&
      query.favourite === undefined;
    // Every task has exactly one row in the index (triggers keep them in step), so counting the
    // matches there skips a lookup per match (50 ms instead of 95 ms for a word in 100,000).
    const { connection } = this.access;
    const row = this.access.read(() => {
      if (searchOnly) return connection.get(COUNT_SEARCH, [words.index]);
      const { where, params } = taskFilter(query);
      return connection.get(`SELECT count(*) AS n FROM tasks t WHERE ${where}`, params);
    });
    return Number(row?.['n'] ?? 0);
  }

  imageModels(slice?: ModelSlice): string[] {
    return imageModels(this.access.rows, slice);
  }

  /**
   * The first page of a listing's rows and the cursor after them: through the search index when
   * its words have one, else walked from the newest row.
   */
  private newestFirst<Q extends PagedQuery, T>(
    listing: Listing<Q, T>,
    query: Q,
    words: SearchWords,
  ): { items: T[]; nextCursor: string | null } {
    const limit = pageLimit(query.limit);
    const after = query.cursor ? [listing.after(query.cursor)] : [];
    const walk = (fromRow?: number) =>
      this.walk(listing, [listing.filter(query, fromRow), ...after], limit);
    const matches = {
      select: listing.select,
      join: listing.join,
      filters: [listing.filter({ ...query, search: undefined }), ...after],
      order: listing.order,
    };
    const rows = hasIndex(words) ? this.searchRows(words, limit, walk, matches) : walk();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: listing.items(page, this.access),
      nextCursor: rows.length > limit && last ? listing.cursor(last) : null,
    };
  }

  /** Up to `limit + 1` rows of the page (the extra one says there is a next page), newest first. */
  private walk<Q extends PagedQuery, T>(
    listing: Listing<Q, T>,
    filters: readonly SqlFilter[],
    limit: number,
  ): Row[] {
    const { select, from, order } = listing;
    const { where, params } = combine(filters);
    const sql = `${select} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ?`;
    return this.access.rows(sql, [...params, limit + 1]);
  }

  /**
   * An indexed search's page (see search-plans.ts for the plans): walking the newest-first index
   * from a row on, or read from the matches alone.
   */
  private searchRows(
    words: IndexedWords,
    limit: number,
    walk: (fromRow?: number) => Row[],
    matches: Omit<MatchesPage, 'words' | 'limit'>,
  ): Row[] {
    return searchPage(this.access.row, words, limit, {
      walk,
      fromMatches: () => this.pageFromMatches({ ...matches, words, limit }),
    });
  }

  /**
   * The page read from the search's matches alone: the matching tasks (CROSS JOIN keeps SQLite
   * from walking the newest-first index instead), `join` to reach the listed rows, filtered.
   */
  private pageFromMatches({ select, join, filters, order, words, limit }: MatchesPage): Row[] {
    const { where, params } = combine([...filters, shortWordFilter(words)]);
    const sql = `${select}
      FROM (SELECT rowid AS id FROM tasks_fts WHERE tasks_fts MATCH ?) m CROSS JOIN tasks t ON t.id = m.id ${join}
      WHERE ${where} ORDER BY ${order} LIMIT ?`;
    return this.access.rows(sql, [words.index, ...params, limit + 1]);
  }

  /** A page in another order than newest first, or at a position (see gallery-order.ts). */
  private orderedImages(query: ImageQuery, limit: number, words: SearchWords): ImagePage {
    const sort = query.sort ?? 'newest';
    const few =
      words.index === null
        ? null
        : Number(
            this.access.row(
              'SELECT count(*) AS n FROM (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? LIMIT ?)',
              [words.index, FEW_MATCHES],
            )?.['n'] ?? FEW_MATCHES,
          );
    const rows = orderedImageRows(
      { query, sort, limit, offset: Math.max(0, query.offset ?? 0), words, matches: few },
      this.access.rows,
      this.anchors,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: galleryItemsFromRows(page, this.access),
      nextCursor: rows.length > limit && last ? encodeOrderCursor(sort, last) : null,
    };
  }
}

function combine(filters: readonly SqlFilter[]): SqlFilter {
  return {
    where: filters.map((filter) => filter.where).join(' AND '),
    params: filters.flatMap((f) => f.params),
  };
}

function taskKey(row: Row): { createdAt: number; localId: string } {
  return { createdAt: Number(row['created_at']), localId: String(row['local_id']) };
}
