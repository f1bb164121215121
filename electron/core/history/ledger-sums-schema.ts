/**
 * v9 of the history's schema: what the Costs screen reads without reading every task.
 *
 * - `ledger_sums`: the ledger's sums per quarter hour of UTC time, and per aligned block of 2, 4,
 *   … 2^15 quarter hours (level k: block = quarter >> k), per unit (`''`: the tasks with no
 *   amount): per service at every level, and for all services together (provider `'*'`) up to
 *   blocks of 64 quarters ({@link DAY_LEVELS}). Every offset of every time zone in use is a
 *   multiple of a quarter hour, so a local day is a run of whole quarters that a few blocks of
 *   all services cover, and a service's total over a period a few large blocks (ledger-sums.ts):
 *   a year's totals read a few thousand rows whatever the number of tasks. SQLite triggers keep
 *   it, whoever writes the ledger (this process, the CLI): a task joining the ledger adds to its
 *   blocks, a change of its cost moves its amount. A block whose tasks all moved away stays with
 *   zeros.
 * - `ledger_meta`: one row, the ledger's `version` (a counter every change the Costs screen,
 *   Settings › Costs or the compose form's estimate shows moves: a task's cost, service, prompt
 *   or thumbnail, a task leaving or coming back to the history, a price, a cap, an estimate in
 *   another unit) and how many `tasks` the ledger holds. The app compares the version four times
 *   a second (core/costs/ledger-feed.ts) instead of re-reading the ledger when tasks change.
 * - `ledger_tasks.thumbnail`: the task's first saved image (its thumbnail or file, a gallery
 *   path; `''` none), noted with each write of its record; NULL for a task not written since
 *   v9 (read from its record when shown).
 * - `ledger_tasks_provider`: a page of one service's tasks, newest first, walks an index.
 */
import type { DatabaseSync } from 'node:sqlite';

/** Levels of `ledger_sums` per service: blocks of 1, 2, 4, … 2^15 quarter hours (341 days). */
export const SUM_LEVELS = 16;
/**
 * Levels of the sums of all services (provider `'*'`): blocks up to 64 quarter hours, all a
 * local day (at most 25 hours, 100 quarters) is ever made of.
 */
export const DAY_LEVELS = 7;
/** The provider of the sums of all services. */
export const ALL_SERVICES = '*';
/** One quarter hour: the finest block of `ledger_sums`. */
export const QUARTER_MS = 15 * 60 * 1000;

/** Whether the ledger row `row` (a table alias, or a trigger's `new`/`old`) has an amount. */
const counted = (row: string): string => `${row}.micros IS NOT NULL AND ${row}.unit IS NOT NULL`;
/** A task's unit in `ledger_sums`: its cost's when it has an amount, else `''`. */
const unitOf = (row: string): string => `CASE WHEN ${counted(row)} THEN ${row}.unit ELSE '' END`;
/** A task's amount in `ledger_sums` (0 without one). */
const amountOf = (row: string): string => `CASE WHEN ${counted(row)} THEN ${row}.micros ELSE 0 END`;
/** Its amount when it is an estimate. */
const estimateOf = (row: string): string =>
  `CASE WHEN ${row}.source = 'estimated' THEN ${amountOf(row)} ELSE 0 END`;

/**
 * Adds (`sign` 1) or takes away (-1) one task's row of the ledger to its block of every level,
 * its service's and all services', when `when` holds of it (v21: ledger-accepted-schema.ts).
 */
export function addToSums(row: 'new' | 'old', sign: 1 | -1, when = '1'): string {
  return `
    INSERT INTO ledger_sums (level, block, provider, unit, micros, estimated_micros, tasks, unknown_tasks)
    SELECT v.level, (${row}.created_at / ${QUARTER_MS}) >> v.level, p.provider, ${unitOf(row)},
      ${sign} * ${amountOf(row)}, ${sign} * ${estimateOf(row)},
      ${sign}, ${sign} * (${row}.source = 'unknown')
    FROM ledger_sum_levels v,
      (SELECT ${row}.provider AS provider UNION ALL SELECT '${ALL_SERVICES}') p
    WHERE (p.provider <> '${ALL_SERVICES}' OR v.level < ${DAY_LEVELS}) AND ${when}
    ON CONFLICT (level, block, provider, unit) DO UPDATE SET
      micros = micros + excluded.micros,
      estimated_micros = estimated_micros + excluded.estimated_micros,
      tasks = tasks + excluded.tasks,
      unknown_tasks = unknown_tasks + excluded.unknown_tasks;`;
}

export const BUMP = 'UPDATE ledger_meta SET version = version + 1;';
/** The columns of a ledger task the window shows (its status and task id are not). */
const SHOWN_COLUMNS =
  'provider, model, prompt, created_at, source, unit, micros, detail, thumbnail';
const IN_LEDGER = (row: 'new' | 'old'): string =>
  `EXISTS (SELECT 1 FROM ledger_tasks WHERE local_id = ${row}.local_id)`;

function createTables(db: DatabaseSync): void {
  const levels = Array.from({ length: SUM_LEVELS }, (_, level) => `(${level})`).join(', ');
  db.exec(`
    ALTER TABLE ledger_tasks ADD COLUMN thumbnail TEXT;
    CREATE INDEX ledger_tasks_provider ON ledger_tasks (provider, created_at);
    CREATE TABLE ledger_sum_levels (level INTEGER PRIMARY KEY);
    INSERT INTO ledger_sum_levels (level) VALUES ${levels};
    CREATE TABLE ledger_sums (
      level INTEGER NOT NULL,
      block INTEGER NOT NULL,
      provider TEXT NOT NULL,
      unit TEXT NOT NULL,
      micros INTEGER NOT NULL,
      estimated_micros INTEGER NOT NULL,
      tasks INTEGER NOT NULL,
      unknown_tasks INTEGER NOT NULL,
      PRIMARY KEY (level, block, provider, unit)
    ) WITHOUT ROWID;
    CREATE TABLE ledger_meta (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      version INTEGER NOT NULL,
      tasks INTEGER NOT NULL
    );
  `);
}

/**
 * Sums of the ledger as it is: level 0 per service from its tasks (those `counted` holds of, as
 * alias `t`), and of all services from those; each level above from the one below.
 */
export function fillSums(db: DatabaseSync, counted = '1'): void {
  const columns = '(level, block, provider, unit, micros, estimated_micros, tasks, unknown_tasks)';
  const summed = 'SUM(micros), SUM(estimated_micros), SUM(tasks), SUM(unknown_tasks)';
  db.exec(`
    INSERT INTO ledger_sums ${columns}
    SELECT 0, t.created_at / ${QUARTER_MS}, t.provider, ${unitOf('t')}, SUM(${amountOf('t')}),
      SUM(${estimateOf('t')}), COUNT(*), SUM(t.source = 'unknown')
    FROM ledger_tasks t WHERE ${counted} GROUP BY 2, 3, 4;
    INSERT INTO ledger_sums ${columns}
    SELECT 0, block, '${ALL_SERVICES}', unit, ${summed} FROM ledger_sums WHERE level = 0
    GROUP BY 2, 4;
  `);
  for (let level = 1; level < SUM_LEVELS; level += 1) {
    const services = level < DAY_LEVELS ? '' : `AND provider <> '${ALL_SERVICES}'`;
    db.exec(`
      INSERT INTO ledger_sums ${columns}
      SELECT ${level}, block >> 1, provider, unit, ${summed}
      FROM ledger_sums WHERE level = ${level - 1} ${services} GROUP BY 2, 3, 4;
    `);
  }
}

function createTriggers(db: DatabaseSync): void {
  db.exec(`
    CREATE TRIGGER ledger_sums_insert AFTER INSERT ON ledger_tasks BEGIN
      ${addToSums('new', 1)}
      UPDATE ledger_meta SET version = version + 1, tasks = tasks + 1;
    END;
    CREATE TRIGGER ledger_sums_update AFTER UPDATE OF provider, created_at, source, unit, micros
    ON ledger_tasks BEGIN
      ${addToSums('old', -1)}
      ${addToSums('new', 1)}
    END;
    CREATE TRIGGER ledger_shown_update AFTER UPDATE OF ${SHOWN_COLUMNS} ON ledger_tasks BEGIN
      ${BUMP}
    END;
    CREATE TRIGGER ledger_events_insert AFTER INSERT ON ledger_events BEGIN ${BUMP} END;
    CREATE TRIGGER ledger_task_removed AFTER DELETE ON tasks WHEN ${IN_LEDGER('old')} BEGIN
      ${BUMP}
    END;
    CREATE TRIGGER ledger_task_back AFTER INSERT ON tasks WHEN ${IN_LEDGER('new')} BEGIN
      ${BUMP}
    END;
    CREATE TRIGGER cost_prices_insert AFTER INSERT ON cost_prices BEGIN ${BUMP} END;
    CREATE TRIGGER cost_prices_update AFTER UPDATE ON cost_prices BEGIN ${BUMP} END;
    CREATE TRIGGER cost_prices_delete AFTER DELETE ON cost_prices BEGIN ${BUMP} END;
    CREATE TRIGGER cost_caps_insert AFTER INSERT ON cost_caps BEGIN ${BUMP} END;
    CREATE TRIGGER cost_caps_update AFTER UPDATE ON cost_caps BEGIN ${BUMP} END;
    CREATE TRIGGER cost_caps_delete AFTER DELETE ON cost_caps BEGIN ${BUMP} END;
  `);
}

/** v9: the ledger's sums, its version and its tasks' thumbnails (see the module's header). */
export function addLedgerSumsV9(db: DatabaseSync): void {
  createTables(db);
  fillSums(db);
  db.exec('INSERT INTO ledger_meta (id, version, tasks) SELECT 1, 1, COUNT(*) FROM ledger_tasks;');
  createTriggers(db);
}
