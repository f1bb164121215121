/**
 * The gallery's other orders (oldest first, by prompt) and its pages by position (the page at
 * image N, for a scrollbar dragged far past what is loaded), beside the newest-first keyset
 * pages of {@link HistoryStore.listImages}. Each order walks an index in its own order, so a
 * page costs the rows it skips, never a sort of every image:
 *
 * - newest: `images_newest`, as the default listing.
 * - oldest: the same index walked backwards, the exact reverse of newest (a task's images too).
 * - prompt: `tasks_prompt` (prompt, ASCII case ignored, then newest), each task's images read
 *   through the images table's primary key in index order.
 *
 * A search with few matches reads the matches and sorts them (as {@link searchPage} does); one
 * with many walks the order's index, testing each row against the matches.
 */
import { z } from 'zod';
import type { GallerySort } from '../../../shared/domain/gallery-item';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';
import {
  encodeImageCursor,
  imageAfter,
  imageFilter,
  PROMPT_OF_IMAGE,
  shortWordFilter,
  type ImageQuery,
  type SearchWords,
  type SqlFilter,
} from './history-query';
import {
  ANCHOR_SPAN,
  type AnchorChunk,
  type AnchorKey,
  type PositionAnchors,
  type StepRow,
} from './position-anchors';
import { FEW_MATCHES } from './search-plans';
import type { Row, SqlValue } from './sqlite-connection';

/** Reads rows; the store's read, with its error handling. */
export type ReadRows = (sql: string, params: SqlValue[]) => Row[];

const COLUMNS = 'i.local_id, i.idx, i.created_at, t.record';
const ORDER: Record<GallerySort, string> = {
  newest: 'i.created_at DESC, i.local_id DESC, i.idx ASC',
  oldest: 'i.created_at ASC, i.local_id ASC, i.idx DESC',
  prompt: 't.prompt COLLATE NOCASE ASC, t.created_at DESC, t.local_id DESC, i.idx ASC',
};

/**
 * Where the next page starts: the last row's key (for `prompt`, its task is read again). Built on
 * first use (shared/domain/lazy-schema.ts): a first page reads no cursor.
 */
const cursorSchema = lazySchema(() =>
  z.union([
    z.tuple([z.literal('o'), z.number(), z.string(), z.number().int()]),
    z.tuple([z.literal('p'), z.string(), z.number().int()]),
  ]),
);
type Cursor = z.infer<ReturnType<typeof cursorSchema>>;

/** The cursor after `row`; newest first continues with the default listing's own cursor. */
export function encodeOrderCursor(sort: GallerySort, row: Row): string {
  const localId = String(row['local_id']);
  const idx = Number(row['idx']);
  const createdAt = Number(row['created_at']);
  if (sort === 'newest') return encodeImageCursor({ createdAt, localId, idx });
  const key: Cursor = sort === 'prompt' ? ['p', localId, idx] : ['o', createdAt, localId, idx];
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, sort: GallerySort): Cursor {
  try {
    const key = cursorSchema().parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (key[0] !== sort[0]) throw new Error(`a cursor of order ${key[0]} given for ${sort}`);
    return key;
  } catch (error) {
    throw new HistoryError(sentence('error.library.historyCursorInvalid'), {
      cause: error,
    });
  }
}

/** Rows after the cursor in the order's terms, as a WHERE fragment. */
function after(cursor: Cursor, read: ReadRows): SqlFilter {
  if (cursor[0] === 'o') {
    const [, createdAt, localId, idx] = cursor;
    return {
      where:
        'i.created_at >= ? AND (i.created_at > ? OR i.local_id > ? OR (i.local_id = ? AND i.idx < ?))',
      params: [createdAt, createdAt, localId, localId, idx],
    };
  }
  const [, localId, idx] = cursor;
  const task = read('SELECT prompt, created_at FROM tasks WHERE local_id = ?', [localId])[0];
  if (task === undefined) {
    throw new HistoryError(sentence('error.library.historyCursorGone'));
  }
  const prompt = String(task['prompt']);
  const createdAt = Number(task['created_at']);
  return {
    // The leading `>=` lets SQLite seek into tasks_prompt instead of walking to the cursor.
    where: `t.prompt COLLATE NOCASE >= ? AND (t.prompt COLLATE NOCASE > ? OR t.created_at < ?
      OR (t.created_at = ? AND (t.local_id < ? OR (t.local_id = ? AND i.idx > ?))))`,
    params: [prompt, prompt, createdAt, createdAt, localId, localId, idx],
  };
}

/** What a sorted page is asked for: the query with its order, limit and start resolved. */
export interface OrderedPage {
  readonly query: ImageQuery;
  readonly sort: GallerySort;
  readonly limit: number;
  /** Images to skip from the start (a page by position); ignored with a cursor. */
  readonly offset: number;
  readonly words: SearchWords;
  /** How many tasks the search's indexed words match, up to {@link FEW_MATCHES} (null: none). */
  readonly matches: number | null;
}

/** Rows after an anchor's row in the order's terms (newest or oldest first). */
function afterKey(sort: 'newest' | 'oldest', [createdAt, localId, idx]: AnchorKey): SqlFilter {
  if (sort === 'newest') return imageAfter(encodeImageCursor({ createdAt, localId, idx }));
  return after(['o', createdAt, localId, idx], () => []);
}

/** An order walking `images_newest` with anchors: the anchors' id and the step between them. */
function anchoredOrder(
  sort: 'newest' | 'oldest',
  filter: SqlFilter,
  read: ReadRows,
): { id: string; step: StepRow; rest: (from: AnchorKey | null) => number } {
  const id = [sort, filter.where, ...filter.params.map(String)].join('\n');
  const from = (key: AnchorKey | null) => combine(key ? [filter, afterKey(sort, key)] : [filter]);
  const step: StepRow = (key, skip) => {
    const { where, params } = from(key);
    const row = read(
      `SELECT i.created_at, i.local_id, i.idx FROM images i WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT 1 OFFSET ?`,
      [...params, skip],
    )[0];
    if (row === undefined) return null;
    return [Number(row['created_at']), String(row['local_id']), Number(row['idx'])];
  };
  // The rows after the last anchor: fewer than a span, read through the same index.
  const rest = (key: AnchorKey | null) => {
    const { where, params } = from(key);
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM images i WHERE ${where} LIMIT ?)`;
    return Number(read(sql, [...params, ANCHOR_SPAN])[0]?.['n'] ?? 0);
  };
  return { id, step, rest };
}

/** The filter a page by position walks (its short search words read the prompt by row id). */
const positionFilter = (query: ImageQuery): SqlFilter =>
  imageFilter(query, undefined, PROMPT_OF_IMAGE);

/** The id of the anchors of `query`'s images in `sort` (position-anchors.ts). */
export function anchorsId(query: ImageQuery, sort: 'newest' | 'oldest'): string {
  return anchoredOrder(sort, positionFilter(query), () => []).id;
}

/** What the history worker is asked to walk: up to `count` anchors of an order after `after`. */
export interface AnchorWalk {
  readonly query: ImageQuery;
  readonly sort: 'newest' | 'oldest';
  readonly after: AnchorKey | null;
  readonly count: number;
}

/** The next anchors of an order, walked here (the history worker's part of position-prebuild.ts). */
export function walkAnchors(
  { query, sort, after, count }: AnchorWalk,
  read: ReadRows,
): AnchorChunk {
  const { step, rest } = anchoredOrder(sort, positionFilter(query), read);
  const keys: AnchorKey[] = [];
  let from = after;
  while (keys.length < count) {
    const key = step(from, ANCHOR_SPAN - 1);
    if (key === null) return { keys, ended: true, tail: rest(from) };
    keys.push(key);
    from = key;
  }
  return { keys, ended: false };
}

/**
 * Where a page by position starts in an order walking `images_newest`: after the anchor before
 * its offset (position-anchors.ts), or at the start.
 */
function seekPosition(
  sort: 'newest' | 'oldest',
  filter: SqlFilter,
  offset: number,
  { read, anchors }: { read: ReadRows; anchors: PositionAnchors | undefined },
): { filters: SqlFilter[]; skip: number } {
  if (!anchors) return { filters: [filter], skip: offset };
  const { id, step } = anchoredOrder(sort, filter, read);
  const seek = anchors.seek(id, offset, step);
  const filters = seek.after ? [filter, afterKey(sort, seek.after)] : [filter];
  return { filters, skip: seek.skip };
}

/**
 * Up to `limit + 1` rows of the page, in the order asked for; a page by position far down the
 * newest or oldest order starts from `anchors` when given.
 */
export function orderedImageRows(
  page: OrderedPage,
  read: ReadRows,
  anchors?: PositionAnchors,
): Row[] {
  const { query, sort, limit, words } = page;
  const cursor = !query.cursor
    ? []
    : sort === 'newest'
      ? [imageAfter(query.cursor)]
      : [after(decodeCursor(query.cursor, sort), read)];
  const skip = query.cursor ? 0 : page.offset;
  if (words.index !== null && page.matches !== null && page.matches < FEW_MATCHES) {
    const { where, params } = combine([
      imageFilter({ ...query, search: undefined }),
      shortWordFilter(words),
      ...cursor,
    ]);
    // CROSS JOIN keeps the matches driving: a few hundred rows read and sorted.
    const sql = `SELECT ${COLUMNS}
      FROM (SELECT rowid AS id FROM tasks_fts WHERE tasks_fts MATCH ?) m
      CROSS JOIN tasks t ON t.id = m.id CROSS JOIN images i ON i.local_id = t.local_id
      WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`;
    return read(sql, [words.index, ...params, limit + 1, skip]);
  }
  if (sort !== 'prompt') {
    // The inner query walks images_newest alone (it covers every filter column), so a short
    // search word reads its task's prompt by row id; tasks are joined for the page's rows only.
    const filter = positionFilter(query);
    const start =
      cursor.length > 0
        ? { filters: [filter, ...cursor], skip }
        : seekPosition(sort, filter, skip, { read, anchors });
    const { where, params } = combine(start.filters);
    const sql = `SELECT ${COLUMNS} FROM (
      SELECT i.local_id, i.idx, i.created_at FROM images i
      WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?
    ) i CROSS JOIN tasks t ON t.local_id = i.local_id ORDER BY ${ORDER[sort]}`;
    return read(sql, [...params, limit + 1, start.skip]);
  }
  const { where, params } = combine([imageFilter(query), ...cursor]);
  // By prompt: skipped rows cost an index step and a primary-key read each; the record is read
  // only for the page (the outer join).
  const sql = `SELECT ${COLUMNS} FROM (
      SELECT t.local_id AS local_id, i.idx AS idx FROM tasks t INDEXED BY tasks_prompt
      CROSS JOIN images i ON i.local_id = t.local_id
      WHERE ${where} ORDER BY ${ORDER.prompt} LIMIT ? OFFSET ?
    ) p CROSS JOIN tasks t ON t.local_id = p.local_id CROSS JOIN images i ON i.local_id = p.local_id AND i.idx = p.idx
    ORDER BY ${ORDER.prompt}`;
  return read(sql, [...params, limit + 1, skip]);
}

/** How many images match the query's filters (every page of it together). */
export function countImages(query: ImageQuery, read: ReadRows): number {
  const { where, params } = imageFilter({ ...query, cursor: null });
  // Short search words are checked against the task's prompt; the rest needs images alone.
  const from = where.includes('t.prompt')
    ? 'images i CROSS JOIN tasks t ON t.id = i.task_row'
    : 'images i';
  return Number(read(`SELECT count(*) AS n FROM ${from} WHERE ${where}`, params)[0]?.['n'] ?? 0);
}

function combine(filters: readonly SqlFilter[]): SqlFilter {
  const kept = filters.filter((filter) => filter.where !== '1');
  return {
    where: kept.length === 0 ? '1' : kept.map((filter) => filter.where).join(' AND '),
    params: kept.flatMap((filter) => filter.params),
  };
}
