/**
 * The SQL statements of the history store (history-store.ts), beside the schema they run on
 * (history-schema.ts).
 */
import { IMAGE_KEYS, REQUEST_KEYS, TASK_KEYS } from '../../../shared/domain/record-check';
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { TASK_STATUSES } from '../../../shared/domain/task-record';
import { THUMB_PENDING_ROW } from './history-schema';

/** A task row's columns every schema version has, in the order a write binds them. */
const TASK_COLUMNS = [
  'local_id',
  'task_id',
  'endpoint',
  'status',
  'prompt',
  'model',
  'favourite',
  'created_at',
  'updated_at',
  'unfinished',
  'record',
] as const;

/**
 * Whether `value` is one of this version's `words` (names of ours: no quote in them), as a chain
 * of comparisons: `IN (…)` of a list builds an ephemeral table at every run.
 */
export const oneOf = (value: string, words: readonly string[]) =>
  `(${words.map((word) => `${value} = '${word}'`).join(' OR ')})`;

/**
 * Whether the stored row is a task this version reads: a status and a service it knows. A newer
 * Pictor's task (a status or a service added later) is skipped by every read here (history-rows.ts)
 * and counted for the user ({@link COUNT_NEWER_TASKS}); a write of this version, which cannot
 * have read it (an import or a rebuild bringing a task of its local id), must not replace it, or a
 * downgrade would lose the newer app's task. A row whose record is no JSON is no version's: it is
 * replaced, as before. CASE runs its tests in order: json_type never reads an invalid text.
 */
const STORED_ROW_READ_HERE = `CASE
    WHEN NOT json_valid(tasks.record) THEN 1
    WHEN NOT ${oneOf('tasks.status', TASK_STATUSES)} THEN 0
    WHEN json_type(tasks.record, '$.provider') IS NOT 'text' THEN 1
    ELSE ${oneOf("json_extract(tasks.record, '$.provider')", PROVIDER_IDS)} END`;

/**
 * A task row's write: the columns every version has and `extra` (those later versions added, in
 * the order their values are bound), in one statement, so a write is one change of the row
 * whatever the version; a stored row's `kept` columns are left as they are. No `RETURNING id`:
 * SQLite keeps a RETURNING statement's rows in an ephemeral table (its own 87 KB page cache) at
 * every run, about five a downloaded image; the row's id is read by {@link SELECT_TASK_ROW_ID}.
 * A stored row of a newer Pictor's task is left as it is: the write changes no row (`changes` 0).
 */
export function upsertTask(extra: readonly string[], kept: readonly string[] = []): string {
  const [key, ...rest] = [...TASK_COLUMNS, ...extra];
  const updated = rest.filter((column) => !kept.includes(column));
  const value = (column: string) =>
    column === 'record' ? RECORD_KEEPING_UNKNOWN : `excluded.${column}`;
  return `
  INSERT INTO tasks (${[key, ...rest].join(', ')})
  VALUES (${[key, ...rest].map(() => '?').join(', ')})
  ON CONFLICT (${String(key)}) DO UPDATE SET
    ${updated.map((column) => `${column} = ${value(column)}`).join(', ')}
  WHERE ${STORED_ROW_READ_HERE}`;
}

/** A task of a service this version knows (by its row's provider) and a status it knows. */
const KNOWN_STATUS = (row: string) => oneOf(`${row}.status`, TASK_STATUSES);

/**
 * The local ids of the tasks of a service this version does not know whose status it knows (a
 * task of an unknown status is counted by that alone): those the ledger holds with such a service
 * (its index by date holds the provider: one pass, no record read), and from v18 every one
 * (tasks_newer_service, newer-service-schema.ts), a task in both once.
 */
const NEWER_SERVICE_IDS = (withIndex: boolean) => `
  SELECT u.local_id FROM (
    SELECT local_id FROM ledger_tasks WHERE NOT ${oneOf('provider', PROVIDER_IDS)}
    ${
      withIndex
        ? `UNION SELECT n.local_id FROM tasks_newer_service n CROSS JOIN tasks p
      ON p.local_id = n.local_id WHERE NOT ${oneOf('p.provider', PROVIDER_IDS)}`
        : ''
    }
  ) u CROSS JOIN tasks t ON t.local_id = u.local_id WHERE ${KNOWN_STATUS('t')}`;

/** The local ids of the tasks of a status this version does not know (the newest-first index). */
const NEWER_STATUS_IDS = `SELECT local_id FROM tasks WHERE NOT ${oneOf('status', TASK_STATUSES)}`;

/**
 * How many tasks a newer Pictor wrote, which this version does not show (from v8, the ledger's):
 * a status it does not know (one pass over the newest-first index, which holds the status: no
 * record is read), or a service it does not know (NEWER_SERVICE_IDS; before v18, only those the
 * ledger holds: a task without a cost is in no index by its service).
 */
export const countNewerTasks = (withIndex: boolean) => `SELECT
  (SELECT count(*) FROM tasks WHERE NOT ${oneOf('status', TASK_STATUSES)}) +
  (SELECT count(*) FROM (${NEWER_SERVICE_IDS(withIndex)})) AS n`;

/** Their local ids, in no order (each once): what an export names as left out. */
export const newerTaskIds = (withIndex: boolean) =>
  `${NEWER_STATUS_IDS} UNION ${NEWER_SERVICE_IDS(withIndex)}`;

/** `keys` as json_remove's paths under `$`. */
const paths = (keys: readonly string[]) => keys.map((name) => `'$.${name}'`).join(', ');

/** The stored record's top-level fields this version does not know (a JSON object; `{}`: none). */
const UNKNOWN_TOP_FIELDS = `json_remove(tasks.record, ${paths(TASK_KEYS)})`;

/** The stored request's fields this version does not know (`{}`: none, or no request object). */
const UNKNOWN_REQUEST_FIELDS = `CASE
    WHEN json_type(tasks.record, '$.request') IS NOT 'object' THEN '{}'
    ELSE json_remove(json_extract(tasks.record, '$.request'), ${paths(REQUEST_KEYS)}) END`;

/**
 * The stored record's fields this version does not know, as a merge patch (a JSON object; `{}`:
 * none): its top-level ones, and its request's under `request` (json_patch merges them into the
 * new request, its own fields kept).
 */
const UNKNOWN_FIELDS = `CASE
    WHEN ${UNKNOWN_REQUEST_FIELDS} = '{}' THEN ${UNKNOWN_TOP_FIELDS}
    ELSE json_set(${UNKNOWN_TOP_FIELDS}, '$.request', json(${UNKNOWN_REQUEST_FIELDS})) END`;

/**
 * Whether a stored image (an object of the stored record's list) has a field this version does
 * not know: one pass over the stored list, a few images, at every write of a stored task.
 */
const STORED_IMAGES_HAVE_UNKNOWN = `EXISTS (SELECT 1 FROM json_each(tasks.record, '$.images') o
    WHERE o.type = 'object' AND json_remove(o.value, ${paths(IMAGE_KEYS)}) <> '{}')`;

/**
 * The new record's images, each with the unknown fields of the stored image of its `index` (the
 * first such, were there two) merged in: json_patch onto the new image, its own fields kept. The
 * images are matched one by one because json_patch replaces a list whole. In the new list's order:
 * json_each's, taken by the aggregate as it comes (an ORDER BY in it sorts in an ephemeral table).
 */
const IMAGES_KEEPING_UNKNOWN = `(SELECT json_group_array(json(json_patch(n.value, COALESCE(
      (SELECT json_remove(o.value, ${paths(IMAGE_KEYS)}) FROM json_each(tasks.record, '$.images') o
        WHERE o.type = 'object' AND json_extract(o.value, '$.index') = json_extract(n.value, '$.index')
        LIMIT 1), '{}'))))
    FROM json_each(excluded.record, '$.images') n WHERE n.type = 'object')`;

/** The new record with the stored one's unknown top-level and request fields merged in. */
const TOP_KEEPING_UNKNOWN = `CASE
    WHEN ${UNKNOWN_FIELDS} = '{}' THEN excluded.record
    ELSE json_patch(excluded.record, ${UNKNOWN_FIELDS}) END`;

/**
 * The record a write of a stored task leaves: the new one, with the stored one's top-level fields
 * this version does not know carried over. A newer Pictor may add a field to the record without a
 * new schema version (an optional one that this version reads past); a write of this version,
 * the engine's or the user's, must not drop it, or a downgrade would lose what the newer one kept.
 * A field this version knows is the new record's alone (one it leaves out stays out). The
 * request's unknown fields go over too, into the new request, and an image's into the new image
 * of the same `index` (an image this write no longer has takes its fields with it); a field whose
 * value is null is left out (json_patch's rule). A stored text that is no JSON
 * object (valid JSON that starts with `{`) is replaced (CASE runs its tests in order, so json_remove
 * never reads one). The usual
 * stored record has no such field: its text is the new one exactly (checked-texts.ts).
 */
const RECORD_KEEPING_UNKNOWN = `CASE
    WHEN NOT json_valid(tasks.record) THEN excluded.record
    WHEN substr(tasks.record, 1, 1) <> '{' THEN excluded.record
    WHEN ${STORED_IMAGES_HAVE_UNKNOWN}
      THEN json_set(${TOP_KEEPING_UNKNOWN}, '$.images', json(${IMAGES_KEEPING_UNKNOWN}))
    WHEN ${UNKNOWN_FIELDS} = '{}' THEN excluded.record
    ELSE json_patch(excluded.record, ${UNKNOWN_FIELDS}) END`;

/**
 * A record's text (`?1`, of task `?2`) with the stored record's fields this version does not know
 * merged in by the same rule a write keeps them by (RECORD_KEEPING_UNKNOWN, the new record bound
 * instead of the upsert's): what an export writes in the task's sidecar. No row: no such task.
 */
export const SELECT_WITH_NEWER_FIELDS = `SELECT ${RECORD_KEEPING_UNKNOWN.replaceAll('excluded.record', '?1')} AS record
  FROM tasks WHERE local_id = ?2`;

/**
 * A record's text (`?1`) with the fields this version does not know of another record of the
 * same task (`?2`: the one an import's archive brought) merged in by the same rule a write keeps a
 * stored record's by (RECORD_KEEPING_UNKNOWN, `?2` in the stored record's place): what a new
 * task's row is written with when its record came with a newer Pictor's fields.
 */
export const RECORD_WITH_CARRIED = `SELECT ${RECORD_KEEPING_UNKNOWN.replaceAll('tasks.record', '?2').replaceAll('excluded.record', '?1')} AS record`;

/** A task row's id (its images' `task_row`), by the local id's unique index. */
export const SELECT_TASK_ROW_ID = 'SELECT id FROM tasks WHERE local_id = ?';
/** The newest task's list time (the `tasks_newest` index's first entry). */
export const SELECT_NEWEST_LISTED =
  'SELECT created_at FROM tasks ORDER BY created_at DESC, local_id DESC LIMIT 1';
/**
 * One image row, by its primary key. `images` is WITHOUT ROWID and a foreign key's child, so a
 * DELETE that may match several of its rows (`WHERE local_id = ?`) collects their keys in an
 * ephemeral table first, even when it matches none; one by the whole key deletes in one pass.
 */
export const DELETE_IMAGE = 'DELETE FROM images WHERE local_id = ? AND idx = ?';
/** The positions of a task's image rows (the primary key's prefix). */
export const SELECT_IMAGE_INDEXES = 'SELECT idx FROM images WHERE local_id = ?';
export const INSERT_IMAGE =
  'INSERT INTO images (local_id, task_row, idx, state, favourite, created_at, model, has_credentials) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
/** The schema version that added `has_credentials` (history-schema.ts). */
export const CREDENTIALS_VERSION = 5;
/** A store opened with fewer migrations (tests making an older file) writes the older rows. */
export const INSERT_IMAGE_BEFORE_CREDENTIALS =
  'INSERT INTO images (local_id, task_row, idx, state, favourite, created_at, model) VALUES (?, ?, ?, ?, ?, ?, ?)';
export const SELECT_THUMB_PENDING = `SELECT local_id FROM tasks WHERE ${THUMB_PENDING_ROW} ORDER BY local_id LIMIT ?`;
export const SELECT_TASK = 'SELECT local_id, record FROM tasks WHERE local_id = ?';
/**
 * The tasks of a JSON array of local ids (each found by the local id's unique index), the ids as
 * the join's outer loop: `IN (SELECT value FROM json_each(?))` would build an ephemeral table at
 * every run, with an 87 KB page cache of its own (triage-compose.ts). An id given twice gives its
 * row twice (the caller keys them by id).
 */
export const SELECT_TASKS_IN =
  'SELECT t.local_id, t.record FROM json_each(?) j CROSS JOIN tasks t WHERE t.local_id = j.value';
/**
 * The tasks of a service task id (on an endpoint), each found by its index: no ORDER BY, whose
 * LIMIT would sort in an ephemeral table at every run; the newest is picked by the caller
 * (history-records.ts; an id has one task but for a re-import or a retry).
 */
export const SELECT_BY_TASK_ID_ANY_ENDPOINT =
  'SELECT local_id, created_at, record FROM tasks WHERE task_id = ?';
export const SELECT_BY_TASK_ID =
  'SELECT local_id, created_at, record FROM tasks WHERE endpoint = ? AND task_id = ?';
export const SELECT_UNFINISHED =
  'SELECT local_id, record FROM tasks WHERE unfinished = 1 ORDER BY created_at, local_id';
/**
 * A task row, its image rows deleted first (image-rows.ts), in the same transaction. The store
 * runs with foreign keys off (sqlite-connection.ts): with them on, `images`' ON DELETE CASCADE
 * made SQLite run `DELETE FROM images WHERE local_id = ?` for every removed task, even with no
 * row left to delete, and that DELETE collects its keys in an ephemeral table.
 */
export const DELETE_TASK = 'DELETE FROM tasks WHERE local_id = ?';
export const SET_LEASE =
  'INSERT OR REPLACE INTO leases (local_id, owner, expires_at) VALUES (?, ?, ?)';
export const CLAIM_LEASE = `
  INSERT INTO leases (local_id, owner, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (local_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
  WHERE leases.owner = excluded.owner OR leases.expires_at <= ?`;
/**
 * A lease taken over only while it is still the one the taker read: its owner AND its expiry, so a
 * renewal written between that read and this write (the owner was alive after all) is never taken.
 */
export const TAKE_OVER_LEASE =
  'UPDATE leases SET owner = ?, expires_at = ? WHERE local_id = ? AND owner = ? AND expires_at = ?';
export const RELEASE_LEASE = 'DELETE FROM leases WHERE local_id = ? AND owner = ?';
export const RELEASE_ALL_LEASES = 'DELETE FROM leases WHERE owner = ?';
export const SELECT_LEASE = 'SELECT owner, expires_at FROM leases WHERE local_id = ?';

/** The schema version that added triage: image ratings, flags, tags and boards (triage-schema.ts). */
export const TRIAGE_VERSION = 10;
export const INSERT_IMAGE_WITH_TRIAGE =
  'INSERT INTO images (local_id, task_row, idx, state, favourite, created_at, model, has_credentials, rating, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
export const DELETE_IMAGE_TAGS = 'DELETE FROM image_tags WHERE local_id = ?';
export const DELETE_IMAGE_BOARDS = 'DELETE FROM image_boards WHERE local_id = ?';
export const INSERT_IMAGE_TAG =
  'INSERT OR IGNORE INTO image_tags (local_id, idx, tag_key, tag) VALUES (?, ?, ?, ?)';
export const INSERT_IMAGE_BOARD =
  'INSERT OR IGNORE INTO image_boards (local_id, idx, board_key) VALUES (?, ?, ?)';
/** A board an image names exists (with the path as first written). */
export const ENSURE_BOARD = 'INSERT OR IGNORE INTO boards (key, path, created_at) VALUES (?, ?, ?)';
export const BOARD_EXISTS = 'SELECT 1 AS y FROM boards WHERE key = ?';
export const BOARD_COUNT = 'SELECT count(*) AS n FROM boards';
export const TAG_EXISTS = 'SELECT 1 AS y FROM image_tags WHERE tag_key = ? LIMIT 1';
/**
 * The first tag key, and the one after a key: one index seek each. The tags are counted by
 * stepping from each key to the next (triage-limits.ts, tagCount), not by a scan of every
 * image's rows (a tenth of the time at a million tagged images) nor by a recursive query, whose
 * queue SQLite keeps in an ephemeral table.
 */
export const FIRST_TAG = 'SELECT min(tag_key) AS k FROM image_tags';
export const TAG_AFTER = 'SELECT min(tag_key) AS k FROM image_tags WHERE tag_key > ?';

/** The schema version that added the cost columns and tables (history-schema.ts). */
export const COSTS_VERSION = 7;
/** The schema version that made the cost ledger its own record (history-schema.ts). */
export const LEDGER_VERSION = 8;
/** The schema version that added the ledger's sums, version and thumbnails (ledger-sums-schema.ts). */
export const LEDGER_SUMS_VERSION = 9;
/** The cost columns (from COSTS_VERSION), in the order a write binds them. */
export const COST_COLUMNS = ['provider', 'cost_source', 'cost_unit', 'cost_micros'] as const;
