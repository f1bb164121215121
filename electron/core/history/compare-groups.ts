/**
 * The history's compare groups listed (the gallery's Compare group filter, which opens a compare
 * again later): the newest groups first, each with its first prompt, when it began, how many
 * targets and tasks it has. `tasks.compare_group` and its partial index (compare-schema.ts) find
 * the groups; a group's record fields are read only for the groups listed, so a library of many
 * compares costs one walk of that index and a few rows per group shown. Groups list by their tasks'
 * place in the list (the order column); when a group began is its first task's date (made-at.ts:
 * a compare made while the clock stood behind lists above the newest, dated when it was made).
 */
import {
  COMPARE_TARGETS,
  MAX_COMPARE_GROUPS_LISTED,
  MAX_GROUP_PROMPT_CHARS,
  compareGroupSummarySchema,
  type CompareGroupSummary,
} from '../../../shared/domain/compare';
import { cleanName } from '../../../shared/text/shown-name';
import type { HistoryAccess } from './history-access';

/** A row's compare slot from its record; NULL for a record that is not JSON. */
const SLOT = "json_extract(CASE WHEN json_valid(s.record) THEN s.record END, '$.compare.slot')";

const LIST = `
  WITH chosen AS (
    SELECT compare_group AS grp, max(created_at) AS last_at, count(*) AS tasks
    FROM tasks WHERE compare_group IS NOT NULL
    GROUP BY compare_group ORDER BY last_at DESC, grp DESC LIMIT ?
  )
  SELECT c.grp, c.tasks,
    (SELECT min(coalesce(f.made_at, f.created_at)) FROM tasks f WHERE f.compare_group = c.grp)
      AS first_at,
    (SELECT p.prompt FROM tasks p WHERE p.compare_group = c.grp
      ORDER BY p.created_at, p.local_id LIMIT 1) AS prompt,
    (SELECT count(DISTINCT ${SLOT}) FROM tasks s WHERE s.compare_group = c.grp
      AND ${SLOT} BETWEEN 1 AND ${COMPARE_TARGETS.max}) AS targets
  FROM chosen c ORDER BY c.last_at DESC, c.grp DESC`;

export class CompareGroups {
  constructor(private readonly access: HistoryAccess) {}

  /**
   * The newest `limit` groups (by their latest task), newest first; at most
   * {@link MAX_COMPARE_GROUPS_LISTED}. A row that does not read as a group (a hand-edited file)
   * is left out.
   */
  list(limit: number): CompareGroupSummary[] {
    const bounded = Math.max(1, Math.min(Math.trunc(limit) || 1, MAX_COMPARE_GROUPS_LISTED));
    return this.access.rows(LIST, [bounded]).flatMap((row) => {
      const summary = compareGroupSummarySchema().safeParse({
        group: row['grp'],
        prompt: cleanName(String(row['prompt'] ?? ''), MAX_GROUP_PROMPT_CHARS) ?? '',
        createdAt: Number(row['first_at']),
        targets: Number(row['targets']),
        tasks: Number(row['tasks']),
      });
      return summary.success ? [summary.data] : [];
    });
  }
}
