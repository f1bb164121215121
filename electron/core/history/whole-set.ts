/**
 * The whole set a "Select all" names: every image (or task) the filters match, loaded by the
 * page or not, as keys only (no record is read), newest first, at most `limit`. The page asks
 * with its filters and acts on what main finds, so a batch action reaches the images a user
 * meant and only those the filters match now.
 *
 * With `among`, the same filters answer for a few named tasks only: which of them (or of their
 * images) an open view holds, so the page is told of a changed record's place in each view by
 * the very query the view is listed with (electron/ipc/open-views.ts).
 */
import type { ReadRows } from './gallery-order';
import {
  imageFilter,
  taskFilter,
  type HistoryQuery,
  type ImageQuery,
  type SqlFilter,
} from './history-query';

/** One image of one task, as the page names it. */
export interface ImageKey {
  readonly localId: string;
  readonly index: number;
}

/** Only these tasks (by local id): a membership check of a few changed records. */
interface Among {
  readonly among?: readonly string[];
}

/** The filters of a whole set: a list's without its paging and order. */
export type WholeImageQuery = Omit<ImageQuery, 'limit' | 'cursor' | 'offset' | 'sort'> & Among;
export type WholeTaskQuery = Omit<HistoryQuery, 'limit' | 'cursor'> & Among;

/** `filter` narrowed to the tasks of `among` (a local id column), when given. */
function narrowed(
  filter: SqlFilter,
  among: readonly string[] | undefined,
  column: string,
): SqlFilter {
  if (among === undefined) return filter;
  if (among.length === 0) return { where: '0', params: [] };
  return {
    where: `${filter.where} AND ${column} IN (${among.map(() => '?').join(', ')})`,
    params: [...filter.params, ...among],
  };
}

/** Every image the filters match, in the gallery's default order (images_newest). */
export function imageKeys(query: WholeImageQuery, limit: number, read: ReadRows): ImageKey[] {
  const { where, params } = narrowed(imageFilter(query), query.among, 'i.local_id');
  // Short search words are checked against the task's prompt; the rest needs images alone.
  const from = where.includes('t.prompt')
    ? 'images i CROSS JOIN tasks t ON t.id = i.task_row'
    : 'images i';
  const rows = read(
    `SELECT i.local_id, i.idx FROM ${from} WHERE ${where}
      ORDER BY i.created_at DESC, i.local_id DESC, i.idx ASC LIMIT ?`,
    [...params, limit],
  );
  return rows.map((row) => ({ localId: String(row['local_id']), index: Number(row['idx']) }));
}

/** Every task the filter matches, in the history's order (tasks_newest). */
export function taskIds(query: WholeTaskQuery, limit: number, read: ReadRows): string[] {
  const { where, params } = narrowed(taskFilter(query), query.among, 't.local_id');
  const rows = read(
    `SELECT t.local_id FROM tasks t WHERE ${where}
      ORDER BY t.created_at DESC, t.local_id DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.map((row) => String(row['local_id']));
}
