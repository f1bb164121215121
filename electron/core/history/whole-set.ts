/**
 * The whole set a "Select all" names: every image (or task) the filters match, loaded by the
 * page or not, as keys only (no record is read), newest first, at most `limit`. The page asks
 * with its filters and acts on what main finds, so a batch action reaches the images a user
 * meant and only those the filters match now.
 */
import type { ReadRows } from './gallery-order';
import { imageFilter, taskFilter, type HistoryQuery, type ImageQuery } from './history-query';

/** One image of one task, as the page names it. */
export interface ImageKey {
  readonly localId: string;
  readonly index: number;
}

/** The filters of a whole set: a list's without its paging and order. */
export type WholeImageQuery = Omit<ImageQuery, 'limit' | 'cursor' | 'offset' | 'sort'>;
export type WholeTaskQuery = Omit<HistoryQuery, 'limit' | 'cursor'>;

/** Every image the filters match, in the gallery's default order (images_newest). */
export function imageKeys(query: WholeImageQuery, limit: number, read: ReadRows): ImageKey[] {
  const { where, params } = imageFilter(query);
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
  const { where, params } = taskFilter(query);
  const rows = read(
    `SELECT t.local_id FROM tasks t WHERE ${where}
      ORDER BY t.created_at DESC, t.local_id DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.map((row) => String(row['local_id']));
}
