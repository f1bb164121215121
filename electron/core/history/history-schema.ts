/**
 * The history database's schema, versioned with `PRAGMA user_version`. Version N is reached by
 * running migration N-1; a later version is added by appending one function to the list.
 */
import type { DatabaseSync } from 'node:sqlite';
import { withFavourites } from '../../../shared/domain/favourites';
import { messageOf } from '../errors';
import { sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';
import { addLedgerSumsV9 } from './ledger-sums-schema';
import { addTemplates } from './template-schema';
import { addTriageV10 } from './triage-schema';
import { addPromptHistoryV11 } from './prompt-history-schema';
import { addCompareGroups } from './compare-schema';
import { addTemplateColumn } from './template-column-schema';
import { addLineageColumns } from './lineage-schema';
import { addTriageRows } from './triage-rows-schema';
import { oneTaskPerIdV17 } from './task-id-schema';
import { addNewerServiceTasks } from './newer-service-schema';
import { addMadeAtV19 } from './made-at-schema';
import { addLedgerListedV20 } from './ledger-listed-schema';
import { leaveNeverAcceptedV21 } from './ledger-accepted-schema';
import { refoldKeysV22 } from './folded-keys-schema';
import { parseTaskRecord } from '../../../shared/domain/record-check';

/** Brings the schema from version `index` to `index + 1`. Runs inside a transaction. */
export type Migration = (db: DatabaseSync) => void;

/** v1: tasks with their whole record as JSON, one row per image, a trigram index of prompts. */
function createV1(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE tasks (
      id INTEGER PRIMARY KEY,
      local_id TEXT NOT NULL UNIQUE,
      task_id TEXT,
      endpoint TEXT NOT NULL,
      status TEXT NOT NULL,
      prompt TEXT NOT NULL,
      model TEXT,
      favourite INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      unfinished INTEGER NOT NULL,
      record TEXT NOT NULL
    );
    -- Lists walk this index newest first and test status and favourite inside it, so a page
    -- costs the rows it skips, never a sort of every match.
    CREATE INDEX tasks_newest ON tasks (created_at DESC, local_id DESC, status, favourite);
    CREATE INDEX tasks_favourite_newest ON tasks (created_at DESC, local_id DESC) WHERE favourite = 1;
    CREATE INDEX tasks_unfinished ON tasks (created_at, local_id) WHERE unfinished = 1;
    CREATE INDEX tasks_service_id ON tasks (endpoint, task_id);
    CREATE INDEX tasks_task_id ON tasks (task_id);

    CREATE TABLE images (
      local_id TEXT NOT NULL REFERENCES tasks (local_id) ON DELETE CASCADE,
      -- tasks.id of the task: lets a prompt search be tested inside images_newest.
      task_row INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      state TEXT NOT NULL,
      favourite INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      model TEXT,
      PRIMARY KEY (local_id, idx)
    ) WITHOUT ROWID;
    CREATE INDEX images_newest ON images (created_at DESC, local_id DESC, idx, state, favourite, model, task_row);
    CREATE INDEX images_favourite_newest ON images (created_at DESC, local_id DESC, idx) WHERE favourite = 1;

    -- External content keyed by tasks.id (an INTEGER PRIMARY KEY, so VACUUM keeps it stable).
    CREATE VIRTUAL TABLE tasks_fts USING fts5 (prompt, content = 'tasks', content_rowid = 'id', tokenize = 'trigram');
    CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
      INSERT INTO tasks_fts (rowid, prompt) VALUES (new.id, new.prompt);
    END;
    CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
      INSERT INTO tasks_fts (tasks_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
    END;
    CREATE TRIGGER tasks_fts_update AFTER UPDATE OF prompt ON tasks WHEN old.prompt IS NOT new.prompt BEGIN
      INSERT INTO tasks_fts (tasks_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
      INSERT INTO tasks_fts (rowid, prompt) VALUES (new.id, new.prompt);
    END;
  `);
}

/**
 * v2: several processes share the file. `leases` says which process works on a task (polls it,
 * downloads its images) until when; `task_changes` logs every task row written, in commit order,
 * so another process shows what changed without re-reading the history. The log keeps the last
 * {@link CHANGE_LOG_KEEP} entries: a reader further behind reloads everything.
 */
function addSharingV2(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE leases (
      local_id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX leases_owner ON leases (owner);

    -- seq is the rowid: always max + 1, and the newest entry is never pruned, so it only grows.
    CREATE TABLE task_changes (seq INTEGER PRIMARY KEY, local_id TEXT NOT NULL);
    CREATE TRIGGER tasks_changed_insert AFTER INSERT ON tasks BEGIN
      INSERT INTO task_changes (local_id) VALUES (new.local_id);
    END;
    CREATE TRIGGER tasks_changed_update AFTER UPDATE ON tasks BEGIN
      INSERT INTO task_changes (local_id) VALUES (new.local_id);
    END;
    CREATE TRIGGER tasks_changed_delete AFTER DELETE ON tasks BEGIN
      INSERT INTO task_changes (local_id) VALUES (old.local_id);
      DELETE FROM leases WHERE local_id = old.local_id;
    END;
    CREATE TRIGGER task_changes_prune AFTER INSERT ON task_changes BEGIN
      DELETE FROM task_changes WHERE seq <= new.seq - ${CHANGE_LOG_KEEP};
    END;
  `);
}

/** Entries of `task_changes` kept (a reader polls it every quarter second). */
export const CHANGE_LOG_KEEP = 10_000;

/**
 * v3: one favourite (shared/domain/favourites.ts). Earlier versions kept a task's star apart from
 * its images' stars, so the gallery's Favourites missed starred tasks and the task list missed
 * starred images. Each task with a star of either kind is brought to the rule: a starred task
 * with images stars them all, a task with a starred image is starred. Only those rows are read
 * (through the favourite indexes); a record that does not parse is left as it is.
 */
function oneFavouriteV3(db: DatabaseSync): void {
  const rows = db
    .prepare(
      'SELECT id, local_id, record FROM tasks WHERE favourite = 1 OR local_id IN (SELECT local_id FROM images WHERE favourite = 1)',
    )
    .all();
  const updateTask = db.prepare('UPDATE tasks SET favourite = ?, record = ? WHERE id = ?');
  const updateImage = db.prepare('UPDATE images SET favourite = ? WHERE local_id = ? AND idx = ?');
  for (const row of rows) {
    let parsed;
    try {
      parsed = parseTaskRecord(JSON.parse(String(row['record'])));
    } catch {
      continue;
    }
    if (parsed === undefined) continue;
    const record = withFavourites(parsed);
    if (record === parsed) continue;
    updateTask.run(record.favourite ? 1 : 0, JSON.stringify(record), Number(row['id']));
    record.images.forEach((image, position) => {
      updateImage.run(image.favourite ? 1 : 0, String(row['local_id']), position);
    });
  }
}

/**
 * v4: the gallery's order by prompt walks this index (ASCII case ignored, then newest first), so
 * its pages cost what they skip, not a sort of every image. UNIQUE (local_id is) tells SQLite
 * that each index entry is one task, so a task's images follow in key order with no sort:
 * 26 ms instead of 96 ms for the page at image 25,000 of 50,000, measured.
 */
function addPromptOrderV4(db: DatabaseSync): void {
  db.exec(
    'CREATE UNIQUE INDEX tasks_prompt ON tasks (prompt COLLATE NOCASE, created_at DESC, local_id DESC)',
  );
}

/**
 * v5: the gallery's filter "has Content Credentials" (an image that carries a C2PA manifest,
 * whatever its verdict: ImageRecord.contentCredentials). A partial index, like the favourites',
 * so a page of such images costs the rows it skips among them alone. No record before this
 * version has a verdict: every existing row is 0.
 */
function addCredentialsV5(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE images ADD COLUMN has_credentials INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX images_credentials_newest ON images (created_at DESC, local_id DESC, idx) WHERE has_credentials = 1;
  `);
}

/**
 * The test a task row passes when one of its images has its thumbnail pending (saved by a host
 * with no image decoder, or found without one by rebuild). JSON.stringify writes the flag exactly
 * so, and inside a JSON string a quote is escaped, so no prompt can imitate it.
 */
export const THUMB_PENDING_ROW = `instr(record, '"thumbnailPending":true') > 0`;

/**
 * v6: the app finds the few tasks whose thumbnails it must make through a small partial index
 * instead of reading every record. No earlier record has one, and the write path is unchanged.
 */
function addPendingThumbnailsV6(db: DatabaseSync): void {
  db.exec(`CREATE INDEX tasks_thumb_pending ON tasks (local_id) WHERE ${THUMB_PENDING_ROW}`);
}

/**
 * v7: what tasks cost (shared/domain/task-cost.ts). Each task row carries its provider and its
 * cost's source, unit and amount beside the record, so the ledger's sums and the spending caps'
 * check (one transaction with the insert of the new tasks) read columns through a partial index
 * of the tasks that have a cost, never every record. Earlier records have none: they stay out of
 * the ledger. The user's prices and caps are tables here too, where the app and every CLI
 * process read them under the same locks.
 */
function addCostsV7(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN provider TEXT;
    ALTER TABLE tasks ADD COLUMN cost_source TEXT;
    ALTER TABLE tasks ADD COLUMN cost_unit TEXT;
    ALTER TABLE tasks ADD COLUMN cost_micros INTEGER;
    CREATE INDEX tasks_costs ON tasks (created_at, cost_unit) WHERE cost_source IS NOT NULL;

    -- model '' is the price of every model of the provider without its own.
    CREATE TABLE cost_prices (
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      unit TEXT NOT NULL,
      basis TEXT NOT NULL,
      micros INTEGER NOT NULL,
      PRIMARY KEY (provider, model)
    ) WITHOUT ROWID;

    -- provider '' is a cap over every provider.
    CREATE TABLE cost_caps (
      period TEXT NOT NULL,
      unit TEXT NOT NULL,
      provider TEXT NOT NULL,
      kind TEXT NOT NULL,
      micros INTEGER NOT NULL,
      PRIMARY KEY (period, unit, provider, kind)
    ) WITHOUT ROWID;
  `);
}

/**
 * v8: the cost ledger is its own record (docs/COSTS.md "The ledger"). Removing a task from the
 * history tidies a list; it never changes what was spent. `ledger_events` keeps every cost event
 * of a task in the order it happened (an estimate per priced unit at submit, a reported cost, not
 * billed, refunded) and takes no update or delete; `ledger_tasks` keeps what each task was (its
 * service, model, prompt and size as submitted) and what it costs now (its latest event), and
 * takes no delete. `ledger_watch` holds a task removed from the history while its service still
 * works on it, so the engine still learns what it cost (TaskEngine.remove). Prices become one per
 * service, model and unit: a service may be priced in money and in credits at once, so a cap in
 * either unit can count its tasks. Every task row with a cost moves into the ledger here, in this
 * migration's one transaction.
 */
function addLedgerV8(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE ledger_tasks (
      local_id TEXT PRIMARY KEY,
      task_id TEXT,
      provider TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      model TEXT,
      prompt TEXT NOT NULL,
      size TEXT,
      created_at INTEGER NOT NULL,
      status TEXT NOT NULL,
      source TEXT NOT NULL,
      unit TEXT,
      micros INTEGER,
      detail TEXT
    ) WITHOUT ROWID;
    CREATE INDEX ledger_tasks_created ON ledger_tasks (created_at, provider);
    CREATE TABLE ledger_events (
      seq INTEGER PRIMARY KEY,
      local_id TEXT NOT NULL,
      at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      unit TEXT,
      micros INTEGER,
      detail TEXT
    );
    CREATE INDEX ledger_events_task ON ledger_events (local_id, kind, unit, seq);
    CREATE TRIGGER ledger_events_no_update BEFORE UPDATE ON ledger_events BEGIN
      SELECT RAISE(ABORT, 'the cost ledger is append-only');
    END;
    CREATE TRIGGER ledger_events_no_delete BEFORE DELETE ON ledger_events BEGIN
      SELECT RAISE(ABORT, 'the cost ledger is append-only');
    END;
    CREATE TRIGGER ledger_tasks_no_delete BEFORE DELETE ON ledger_tasks BEGIN
      SELECT RAISE(ABORT, 'the cost ledger is append-only');
    END;
    CREATE TABLE ledger_watch (local_id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
  `);
  moveCostsIntoLedgerV8(db);
}

/** v8, continued: every task row's cost into the ledger; prices one per service, model and unit. */
function moveCostsIntoLedgerV8(db: DatabaseSync): void {
  db.exec(`
    INSERT INTO ledger_tasks (local_id, task_id, provider, endpoint, model, prompt, size,
      created_at, status, source, unit, micros, detail)
    SELECT local_id, task_id, COALESCE(provider, 'pictor'), endpoint,
      json_extract(record, '$.request.model'), prompt, json_extract(record, '$.request.size'),
      created_at, status, cost_source, cost_unit, cost_micros,
      COALESCE(json_extract(record, '$.cost.field'), json_extract(record, '$.cost.basis'))
    FROM tasks WHERE cost_source IS NOT NULL;
    INSERT INTO ledger_events (local_id, at, kind, unit, micros, detail)
    SELECT local_id, created_at, source, unit, micros, detail FROM ledger_tasks
    ORDER BY created_at, local_id;

    CREATE TABLE cost_prices_v8 (
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      unit TEXT NOT NULL,
      basis TEXT NOT NULL,
      micros INTEGER NOT NULL,
      PRIMARY KEY (provider, model, unit)
    ) WITHOUT ROWID;
    INSERT INTO cost_prices_v8 SELECT provider, model, unit, basis, micros FROM cost_prices;
    DROP TABLE cost_prices;
    ALTER TABLE cost_prices_v8 RENAME TO cost_prices;
  `);
}

/** Every migration in order; the schema version this build writes is its length. */
export const HISTORY_MIGRATIONS: readonly Migration[] = [
  createV1,
  addSharingV2,
  oneFavouriteV3,
  addPromptOrderV4,
  addCredentialsV5,
  addPendingThumbnailsV6,
  addCostsV7,
  addLedgerV8,
  addLedgerSumsV9,
  addTriageV10,
  addPromptHistoryV11,
  addTemplates,
  addCompareGroups,
  addTemplateColumn,
  addLineageColumns,
  addTriageRows,
  oneTaskPerIdV17,
  addNewerServiceTasks,
  addMadeAtV19,
  addLedgerListedV20,
  leaveNeverAcceptedV21,
  refoldKeysV22,
];

/** The schema version that added the prompt history (prompt-history-schema.ts). */
export const PROMPT_HISTORY_VERSION = HISTORY_MIGRATIONS.indexOf(addPromptHistoryV11) + 1;

/** The schema version that added `tasks.template_id` (template-column-schema.ts). */
export const TEMPLATE_VERSION = HISTORY_MIGRATIONS.indexOf(addTemplateColumn) + 1;

/** The schema version that added the lineage columns (lineage-schema.ts). */
export const LINEAGE_VERSION = HISTORY_MIGRATIONS.indexOf(addLineageColumns) + 1;

/** The schema version from which triage lives in its own rows only (triage-rows-schema.ts). */
export const TRIAGE_ROWS_VERSION = HISTORY_MIGRATIONS.indexOf(addTriageRows) + 1;

/** The schema version that indexed the tasks of services it did not know (newer-service-schema.ts). */
export const NEWER_SERVICE_VERSION = HISTORY_MIGRATIONS.indexOf(addNewerServiceTasks) + 1;

/** The schema version that added `tasks.compare_group` (compare-schema.ts). */
export const COMPARE_GROUP_VERSION = HISTORY_MIGRATIONS.indexOf(addCompareGroups) + 1;

/** The schema version that added `tasks.made_at`, a task's date apart from its list time (made-at.ts). */
export const MADE_AT_VERSION = HISTORY_MIGRATIONS.indexOf(addMadeAtV19) + 1;

/** The schema version that added `ledger_tasks.listed_at`, the Costs list's order (ledger-listed-schema.ts). */
export const LEDGER_LISTED_VERSION = HISTORY_MIGRATIONS.indexOf(addLedgerListedV20) + 1;

/** Reads `PRAGMA user_version`: the file's first read, so it also finds one not a database. */
export function readSchemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get();
  const version = row?.['user_version'];
  return typeof version === 'number' || typeof version === 'bigint' ? Number(version) : 0;
}

/** Refuses a database written by a newer Pictor before anything is changed in it. */
export function checkNotNewer(version: number, known: readonly Migration[], file: string): void {
  if (version > known.length) {
    throw new HistoryError(sentence('error.library.historyNewer', { file }), {
      detail: `schema version ${version}, this version reads up to ${known.length}`,
    });
  }
}

/**
 * Runs the migrations the database has not had yet, each in its own transaction. The version is
 * read again once the write lock is held: another process opening the same file at the same
 * moment may have run the migration already.
 */
export function migrate(db: DatabaseSync, from: number, migrations: readonly Migration[]): number {
  // Up to date (the common case): no write lock to wait for.
  if (from >= migrations.length) return from;
  for (;;) {
    db.exec('BEGIN IMMEDIATE');
    let version = 0;
    try {
      version = readSchemaVersion(db);
      const migration = migrations[version];
      if (version >= migrations.length || migration === undefined) {
        db.exec('COMMIT');
        return version;
      }
      migration(db);
      // PRAGMA takes no bound parameters; the value is an integer we computed.
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw new HistoryError(
        sentence('error.library.historyUpgradeFailed', { version: String(version + 1) }),
        { detail: messageOf(error), cause: error },
      );
    }
  }
}
