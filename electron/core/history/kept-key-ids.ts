/**
 * The tasks kept under a service id that carries a key (stored before ids were checked: the
 * engine refuses such an id as it arrives now), found for the app's sweep (app/kept-key-sweep.ts)
 * in the history worker, a slice a call, by one of three walks:
 * - `tasks`: the distinct ids in the order of their own index (tasks_task_id, which holds them: no
 *   row of the table is read);
 * - `ledger`: the cost ledger's rows (`ledger_tasks`, which outlive their tasks: the Costs screen
 *   lists a removed task by its id), by local id;
 * - `changes`: only the tasks the history's change log names after a mark (`task_changes`: every
 *   write of a task row, by any process, any version, an import or a rebuild, logs its local id),
 *   their task rows and ledger rows. A sweep that ended with the same keys needs no more: an id
 *   reaches a ledger row only with a write of its task row, or of a removed task the engine watches
 *   (its id is the one its row had).
 * Ids are searched for the keys in every encoding an echo is known by (secrets `keyCarriers`). A
 * ledger row found has the key redacted from its id here (secrets `scrubKey`, as the record's
 * is), and so has the record the ledger keeps of a removed task its service still works on (the
 * engine takes it up from there at a start); the tasks of the history or the engine's watch found
 * are named to main, which cleans each
 * the one way (batch/kept-key-id.ts: the record, its files, the page's copy, its ledger row). A
 * slice of {@link KEPT_ID_SLICE} ids is some milliseconds of the worker's time, so the calls main
 * makes meanwhile (a rating, a page's count) wait that at most, never the whole walk.
 */
import { keyCarriers, scrubKey } from '../secrets';
import type { HistoryAccess } from './history-access';

/** Ids searched in one call of the worker. */
export const KEPT_ID_SLICE = 5_000;

/** The walks of a sweep (see the module comment). */
export type KeptIdWalk = 'tasks' | 'ledger' | 'changes';

const IDS = `SELECT DISTINCT task_id FROM tasks INDEXED BY tasks_task_id
  WHERE task_id > ?1 ORDER BY task_id LIMIT ?2`;
const HOLDERS = `SELECT local_id FROM tasks WHERE task_id = ?1 ORDER BY local_id`;
const LEDGER_IDS = `SELECT local_id, task_id FROM ledger_tasks
  WHERE local_id > ?1 AND task_id IS NOT NULL ORDER BY local_id LIMIT ?2`;
/** The last of the next `?2` entries of the change log after `?1`, and how many there are. */
const LAST_OF_CHANGES = `SELECT max(seq) AS seq, count(*) AS entries FROM (
  SELECT seq FROM task_changes WHERE seq > ?1 ORDER BY seq LIMIT ?2)`;
/** The tasks the log names in (`?1`, `?2`], with their task row's id and their ledger row's. */
const CHANGED_IDS = `SELECT c.local_id, t.task_id AS task, l.task_id AS ledger
  FROM (SELECT DISTINCT local_id FROM task_changes WHERE seq > ?1 AND seq <= ?2) c
  LEFT JOIN tasks t ON t.local_id = c.local_id
  LEFT JOIN ledger_tasks l ON l.local_id = c.local_id
  WHERE t.task_id IS NOT NULL OR l.task_id IS NOT NULL`;
/** A task main cleans: in the history, or removed and watched by the engine. */
const MAIN_CLEANS = `SELECT EXISTS (SELECT 1 FROM tasks WHERE local_id = ?1)
  OR EXISTS (SELECT 1 FROM ledger_watch WHERE local_id = ?1) AS held`;
const REDACT_LEDGER = 'UPDATE ledger_tasks SET task_id = ?1 WHERE local_id = ?2 AND task_id = ?3';
const REDACT_WATCHED = `UPDATE ledger_watch SET record = json_set(record, '$.taskId', ?1)
  WHERE local_id = ?2 AND record ->> '$.taskId' = ?3`;
const BUMP_LEDGER = 'UPDATE ledger_meta SET version = version + 1';
const LAST_CHANGE = 'SELECT seq, local_id FROM task_changes ORDER BY seq DESC LIMIT 1';
const CHANGE_AT = 'SELECT local_id FROM task_changes WHERE seq = ?1';

/**
 * A point of the change log: its entry `seq`, which logged `localId`. Kept by the sweep as where
 * it began; it names the same point of the same library only while that entry is still logged.
 */
export interface KeptIdMark {
  readonly seq: number;
  readonly localId: string;
}

/** A slice of a walk: the tasks main cleans found in it, and where the next begins (`null`: none). */
export interface KeptIdSlice {
  readonly localIds: string[];
  readonly next: string | null;
}

/** A task's id by its local id, as the walks read it (a task row's or a ledger row's). */
interface LedgerId {
  readonly localId: string;
  readonly taskId: string;
}

export class KeptKeyIds {
  constructor(private readonly access: HistoryAccess) {}

  /** The next slice of `walk` after `after` ('' first): the tasks found that main cleans. */
  slice(keys: readonly string[], walk: KeptIdWalk, after: string, limit: number): KeptIdSlice {
    if (walk === 'ledger') return this.ledgerSlice(keys, after, limit);
    if (walk === 'changes') return this.changesSlice(keys, Number(after || 0), limit);
    const ids = this.access.rows(IDS, [after, limit]).map((row) => String(row['task_id']));
    const localIds = keyCarriers(ids, keys).flatMap((at) =>
      this.access.rows(HOLDERS, [ids[at] ?? '']).map((row) => String(row['local_id'])),
    );
    return { localIds, next: ids.length < limit ? null : (ids[ids.length - 1] ?? null) };
  }

  /**
   * The change log's last entry now (`null`: it holds none), and whether `since` still names a
   * logged entry of this library: the changes after it are then all in the log.
   */
  mark(since: KeptIdMark | null): { readonly now: KeptIdMark | null; readonly holds: boolean } {
    const last = this.access.row(LAST_CHANGE, []);
    const now = last && { seq: Number(last['seq']), localId: String(last['local_id']) };
    const at = since === null ? null : this.access.row(CHANGE_AT, [since.seq]);
    return { now, holds: at !== null && String(at['local_id']) === since?.localId };
  }

  private ledgerSlice(keys: readonly string[], after: string, limit: number): KeptIdSlice {
    const rows = this.access.rows(LEDGER_IDS, [after, limit]).map((row) => ({
      localId: String(row['local_id']),
      taskId: String(row['task_id']),
    }));
    const localIds = this.cleanLedger(rows, keys);
    return { localIds, next: rows.length < limit ? null : (rows.at(-1)?.localId ?? null) };
  }

  /** The tasks logged after entry `after`, up to `limit` entries: their rows and ledger rows. */
  private changesSlice(keys: readonly string[], after: number, limit: number): KeptIdSlice {
    const last = this.access.row(LAST_OF_CHANGES, [after, limit]);
    const entries = Number(last?.['entries'] ?? 0);
    if (entries === 0) return { localIds: [], next: null };
    const upTo = Number(last?.['seq']);
    const rows = this.access.rows(CHANGED_IDS, [after, upTo]);
    const idsOf = (column: string): LedgerId[] =>
      rows.flatMap((row) =>
        row[column] === null
          ? []
          : [{ localId: String(row['local_id']), taskId: String(row[column]) }],
      );
    const found = carriersOf(idsOf('task'), keys).map((task) => task.localId);
    const localIds = [...new Set([...found, ...this.cleanLedger(idsOf('ledger'), keys)])];
    return { localIds, next: entries < limit ? null : String(upTo) };
  }

  /**
   * Redacts the key from each of `rows` whose id carries one (a row changed since it was read
   * keeps its change); returns those of them main cleans as a task (see the module comment).
   */
  private cleanLedger(rows: readonly LedgerId[], keys: readonly string[]): string[] {
    const carriers = carriersOf(rows, keys);
    const { connection } = this.access;
    for (const { localId, taskId } of carriers) {
      this.access.write(() =>
        connection.transaction(() => {
          const redacted = [scrubKey(taskId, keys), localId, taskId];
          // The id is no column the ledger's version follows (ledger-sums-schema.ts): the Costs
          // screen's copy, which holds it, is read again only when that version moves.
          if (connection.run(REDACT_LEDGER, redacted).changes > 0) connection.run(BUMP_LEDGER, []);
          // A removed task the engine still watches is taken up from here at the next start.
          connection.run(REDACT_WATCHED, redacted);
        }),
      );
    }
    return carriers
      .filter(({ localId }) => Number(this.access.row(MAIN_CLEANS, [localId])?.['held']) === 1)
      .map(({ localId }) => localId);
  }
}

/** The rows of `rows` whose id carries any of `keys`. */
function carriersOf(rows: readonly LedgerId[], keys: readonly string[]): LedgerId[] {
  const at = new Set(
    keyCarriers(
      rows.map((row) => row.taskId),
      keys,
    ),
  );
  return rows.filter((_, n) => at.has(n));
}
