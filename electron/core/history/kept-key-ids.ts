/**
 * The tasks kept under a service id that carries a key (stored before ids were checked: the
 * engine refuses such an id as it arrives now), found for the app's sweep (app/kept-key-sweep.ts)
 * in the history worker, a slice a call: the distinct ids in the order of their own index
 * (tasks_task_id, which holds them: no row of the table is read), searched for the keys in every
 * encoding an echo is known by (secrets `keyCarriers`), and the tasks of the few that carry one.
 * A slice of {@link KEPT_ID_SLICE} ids is some milliseconds of the worker's time, so the calls
 * main makes meanwhile (a rating, a page's count) wait that at most, never the whole walk.
 */
import { keyCarriers } from '../secrets';
import type { HistoryAccess } from './history-access';

/** Ids searched in one call of the worker. */
export const KEPT_ID_SLICE = 5_000;

const IDS = `SELECT DISTINCT task_id FROM tasks INDEXED BY tasks_task_id
  WHERE task_id > ?1 ORDER BY task_id LIMIT ?2`;
const HOLDERS = `SELECT local_id FROM tasks WHERE task_id = ?1 ORDER BY local_id`;

/** A slice of the walk: the tasks found in it, and where the next begins (`null`: none). */
export interface KeptIdSlice {
  readonly localIds: string[];
  readonly next: string | null;
}

export class KeptKeyIds {
  constructor(private readonly access: HistoryAccess) {}

  /** The tasks whose id, among the next `limit` ids after `after` ('' first), carries a key. */
  slice(keys: readonly string[], after: string, limit: number): KeptIdSlice {
    const ids = this.access.rows(IDS, [after, limit]).map((row) => String(row['task_id']));
    const localIds = keyCarriers(ids, keys).flatMap((at) =>
      this.access.rows(HOLDERS, [ids[at] ?? '']).map((row) => String(row['local_id'])),
    );
    return { localIds, next: ids.length < limit ? null : (ids[ids.length - 1] ?? null) };
  }
}
