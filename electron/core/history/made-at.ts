/**
 * A task's date apart from its place in the list (schema v19: made-at-schema.ts). The order columns
 * (`tasks.created_at`, `images.created_at`) hold where a task lists, newest first: its `listedAt`,
 * else its `createdAt` (shared/domain/task-record.ts). The two differ for a task made while the
 * clock stood behind the library's newest task (electron/core/engine/list-place.ts), or one a
 * crafted import brings: its order column then holds no date of it, and the gallery's date filter
 * (and a smart board's date rule), which asked that column, filed it under the day it was listed.
 * The record stays the truth; `tasks.made_at` holds its `createdAt` only where that is not the
 * order column's value (NULL otherwise: the usual case, so a library gains no data and no write
 * of a right clock's task changes), with a partial index over those few tasks. The cost ledger
 * keeps the record's date in its own column already (ledger-rows.ts): costs by day need nothing.
 */
import { listedAt, type TaskRecord } from '../../../shared/domain/task-record';
import type { SqlValue } from './sqlite-connection';

/** A WHERE fragment and its bound values (history-query.ts `SqlFilter`, which imports this). */
interface SqlFilter {
  readonly where: string;
  readonly params: SqlValue[];
}

/**
 * The tasks made apart, by their index: a bound of `made_at` alone would let the planner take the
 * newest-first index for `min(created_at)` and read every task row for its `made_at`.
 */
const APART = 'tasks d INDEXED BY tasks_made_apart';

/** The `made_at` a write of `record` binds: its date where it lists elsewhere, else NULL. */
export function madeAtColumn(record: Pick<TaskRecord, 'createdAt' | 'listedAt'>): number | null {
  return listedAt(record) === record.createdAt ? null : record.createdAt;
}

/** `column` within `from` and `to` (either absent: open), as a WHERE fragment. */
function bounded(column: string, from: number | undefined, to: number | undefined): SqlFilter {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (from !== undefined) {
    where.push(`${column} >= ?`);
    params.push(from);
  }
  if (to !== undefined) {
    where.push(`${column} <= ?`);
    params.push(to);
  }
  return { where: where.join(' AND '), params };
}

/**
 * WHERE for images (alias `i`) whose task was made from `from` to `to` (ms, inclusive, either
 * absent: open), by the task's date, not its place in the list. A task listed where it was made
 * is judged by the order column, whose index the range seeks in (newest first, its pages stop at
 * the limit); a task made apart by its `made_at`. The range sought is widened to the list times
 * of the tasks made apart within the dates (a few rows of the partial index, read once), and a
 * task made apart outside them that lists within them is left out. With no task made apart near
 * the dates (the usual library) the range is the dates' own and each row's test ends at that
 * check (an uncorrelated EXISTS, run once): the query walks what it walked before. Only a range
 * holding the date of a task made apart walks further: to where that task lists.
 */
export function madeBetween(from: number | undefined, to: number | undefined): SqlFilter {
  if (from === undefined && to === undefined) return { where: '1', params: [] };
  const made = bounded('d.made_at', from, to);
  const listed = bounded('i.created_at', from, to);
  const listedApart = bounded('d.created_at', from, to);
  const within = `FROM ${APART} WHERE d.made_at IS NOT NULL AND ${made.where}`;
  // Made outside the dates, listed within them: the tasks the listed range alone lets in.
  const outside = `FROM ${APART} WHERE d.made_at IS NOT NULL AND NOT (${made.where}) AND ${listedApart.where}`;
  const near = `FROM ${APART} WHERE d.made_at IS NOT NULL AND ((${made.where}) OR (${listedApart.where}))`;
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (from !== undefined) {
    where.push(`i.created_at >= min(?, coalesce((SELECT min(d.created_at) ${within}), ?))`);
    params.push(from, ...made.params, from);
  }
  if (to !== undefined) {
    where.push(`i.created_at <= max(?, coalesce((SELECT max(d.created_at) ${within}), ?))`);
    params.push(to, ...made.params, to);
  }
  where.push(`(NOT EXISTS (SELECT 1 ${near}) OR (${listed.where}
      AND i.task_row NOT IN (SELECT d.id ${outside})) OR i.task_row IN (SELECT d.id ${within}))`);
  params.push(...made.params, ...listedApart.params, ...listed.params);
  params.push(...made.params, ...listedApart.params, ...made.params);
  return { where: where.join(' AND '), params };
}
