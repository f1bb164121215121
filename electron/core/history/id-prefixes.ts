/**
 * Tasks and compare groups found by the start of an id, as the command line shows them short
 * (`[4b211e38]`, a gallery folder's `_4b211e38`): the tasks whose local id or service task id
 * begins with the text, the compare groups whose id does. Compared as text (no LIKE: `_` and `%`
 * are ordinary characters of an id), bounded by `limit`, so a caller tells "one" from "several"
 * without reading every match.
 */
import type { HistoryAccess } from './history-access';

const TASKS = `SELECT local_id FROM tasks
  WHERE substr(local_id, 1, length(?1)) = ?1 OR substr(task_id, 1, length(?1)) = ?1
  ORDER BY created_at DESC, local_id DESC LIMIT ?2`;

const GROUPS = `SELECT DISTINCT compare_group AS grp FROM tasks
  WHERE compare_group IS NOT NULL AND substr(compare_group, 1, length(?1)) = ?1
  ORDER BY compare_group LIMIT ?2`;

export class IdPrefixes {
  constructor(private readonly access: HistoryAccess) {}

  /** The local ids (newest first, at most `limit`) of the tasks whose either id begins with `prefix`. */
  tasks(prefix: string, limit: number): string[] {
    return this.access.rows(TASKS, [prefix, limit]).map((row) => String(row['local_id']));
  }

  /** The compare groups (at most `limit`) whose id begins with `prefix`. */
  groups(prefix: string, limit: number): string[] {
    return this.access.rows(GROUPS, [prefix, limit]).map((row) => String(row['grp']));
  }
}
