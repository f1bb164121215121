/**
 * Opens the history database file (integrity, migrations, shared WAL mode) through Node's
 * built-in `node:sqlite`, and keeps the prepared statements of the hot paths.
 *
 * Any number of processes (the app, CLI commands) open the same file: SQLite's own OS locks
 * order their writes, the kernel drops a killed process's locks, and the write-ahead log lets
 * readers go on while one process writes. A writer that finds the file busy waits up to
 * {@link BUSY_TIMEOUT_MS} instead of failing.
 */
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  openSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import {
  DatabaseSync,
  type DatabaseSyncOptions,
  type SQLInputValue,
  type SQLOutputValue,
  type StatementSync,
} from 'node:sqlite';
import type { Logger } from '../../ports/logger';
import { messageOf, systemErrorCode } from '../errors';
import { sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';
import { checkNotNewer, migrate, readSchemaVersion, type Migration } from './history-schema';

/** A value bound to a statement. */
export type SqlValue = SQLInputValue;
/** A row read back: column name to value. */
export type Row = Record<string, SQLOutputValue>;

const MEMORY = ':memory:';
const BEGIN = 'BEGIN IMMEDIATE';
const COMMIT = 'COMMIT';
const MAX_STATEMENTS = 64;
/**
 * How long a write waits for another process's transaction before giving up. Our transactions
 * take milliseconds; a checkpoint of a large log, or a slow disk, a few hundred.
 */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * The values as SQLite should see them. node:sqlite binds every JS number as a REAL, 5 as 5.0;
 * FTS5 cannot seek its index with a REAL rowid, so `rowid >= ?` bound with a number read every
 * match of a search (450 ms for a word in 1,000,000 prompts, 5 ms bound as an integer). Whole
 * numbers are bound as integers; fractions stay REAL.
 */
function bound(params: readonly SqlValue[]): SqlValue[] {
  return params.map((value) =>
    typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value,
  );
}

/** A database connection with a statement cache. One per store; each process has its own. */
export class SqliteConnection {
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  /** Whether a transaction is open on this connection (a write joins it instead of starting one). */
  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  /**
   * A prepared statement for `sql`, prepared once and reused. Filters give list queries many
   * shapes, so past {@link MAX_STATEMENTS} the least recently used one is dropped.
   */
  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= MAX_STATEMENTS) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
    } else {
      this.statements.delete(sql);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  /**
   * Prepares a write's statements now (into the cache): its transaction's and `sqls`, so the
   * first write that runs them does not compile them on its way.
   */
  prepareWrite(sqls: readonly string[]): void {
    for (const sql of [BEGIN, COMMIT, ...sqls]) this.statement(sql);
  }

  all(sql: string, params: readonly SqlValue[]): Row[] {
    return this.withStatement(sql, (statement) => statement.all(...bound(params)));
  }

  run(sql: string, params: readonly SqlValue[] = []): { changes: number } {
    return this.withStatement(sql, (statement) => {
      const result = statement.run(...bound(params));
      return { changes: Number(result.changes) };
    });
  }

  /** The first row, or null. */
  get(sql: string, params: readonly SqlValue[]): Row | null {
    return this.withStatement(sql, (statement) => statement.get(...bound(params)) ?? null);
  }

  /** Runs the cached statement for `sql`; one that failed is prepared afresh next time. */
  private withStatement<T>(sql: string, work: (statement: StatementSync) => T): T {
    const statement = this.statement(sql);
    try {
      return work(statement);
    } catch (error) {
      this.statements.delete(sql);
      throw error;
    }
  }

  /**
   * Runs `work` in one write transaction: all of it is on disk when this returns, or none of it.
   * BEGIN IMMEDIATE takes the write lock first (waiting for another process's write), so a
   * transaction never fails half-way because another process wrote since it read.
   */
  transaction<T>(work: () => T): T {
    this.run(BEGIN);
    try {
      const result = work();
      this.run(COMMIT);
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.run('ROLLBACK');
      throw error;
    }
  }

  /**
   * SQLite's `data_version`: changes when another connection (another process) commits, never
   * for this connection's own writes. Costs no file read while nothing changed.
   */
  dataVersion(): number {
    return Number(this.get('PRAGMA data_version', [])?.['data_version'] ?? 0);
  }

  /**
   * Folds what the write-ahead log holds into the database file, as far as no reader still needs
   * it (SQLite's PASSIVE checkpoint: it waits on no one and no one waits on it), and syncs the
   * file. Nothing to fold costs a lock of the shared index and no write.
   */
  checkpoint(): void {
    this.get('PRAGMA wal_checkpoint(PASSIVE)', []);
  }

  /** Closes the database (the last connection to close folds the log into the file). Idempotent. */
  close(): void {
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * Opens an SQLite file: Node's node:sqlite, or (in tests and `pictor self-test`'s negative cases)
 * one that lacks what a broken build would lack.
 */
export type DatabaseFactory = (file: string, options: DatabaseSyncOptions) => DatabaseSync;

const nodeSqlite: DatabaseFactory = (file, options) => new DatabaseSync(file, options);

export interface OpenedDatabase {
  readonly connection: SqliteConnection;
  readonly schemaVersion: number;
}

/**
 * When the whole file is checked at open: `after-crash` only when an earlier check did not
 * finish (or found damage), `always` at every open.
 */
export type IntegrityCheck = 'after-crash' | 'always';

/** How {@link openDatabase} opens and checks the file; absent fields take their defaults. */
export interface OpenOptions {
  /** Default `after-crash`. */
  readonly integrityCheck?: IntegrityCheck | undefined;
  /** Default node:sqlite. */
  readonly factory?: DatabaseFactory | undefined;
  /**
   * The log's size, in pages, past which a commit of this connection folds the log into the
   * file before it returns (SQLite's `wal_autocheckpoint`); default SQLite's 1,000. A connection
   * whose log another one folds while idle (the app's main store: history-port.ts) passes a
   * larger bound, so its writes do not wait on that fold, and the log stays bounded all the same
   * when the other cannot.
   */
  readonly checkpointPast?: number | undefined;
}

/**
 * Opens `file` (created when missing; `:memory:` allowed), checks it when asked and brings its
 * schema up to date. Throws {@link HistoryError} with a sentence, and leaves a file that is not a
 * database, is damaged or is from a newer Pictor unchanged.
 *
 * No lock of ours: SQLite's locks are the kernel's, so a killed process leaves nothing that
 * could lock the user out, and an interrupted transaction is rolled back by the next reader.
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  logger: Logger,
  { integrityCheck = 'after-crash', factory = nodeSqlite, checkpointPast }: OpenOptions = {},
): OpenedDatabase {
  const db = newDatabase(file, factory);
  try {
    const version = readVersion(db, file);
    checkNotNewer(version, migrations, file);
    if (file !== MEMORY) checkIfAsked(db, file, integrityCheck === 'always');
    configure(db, logger, file, checkpointPast);
    if (file !== MEMORY) removeFirstGenerationLocks(file);
    const schemaVersion = migrate(db, version, migrations);
    return { connection: new SqliteConnection(db), schemaVersion };
  } catch (error) {
    if (db.isOpen) db.close();
    throw refusedByDisk(error, file) ?? error;
  }
}

/**
 * SQLite's primary result codes (an extended code's low byte) that say the disk refused, not
 * that the file is wrong: PERM, READONLY, IOERR (a full disk cannot grow the shared-memory index
 * an open needs: IOERR_SHMSIZE), FULL, CANTOPEN.
 */
const SQLITE_DISK_CODES = new Set([3, 8, 10, 13, 14]);
/** The same, as the file system says it (the integrity check's marker file). */
const FS_DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EACCES', 'EPERM']);

function saysDiskRefused(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 4; depth += 1) {
    const code = (at as { errcode?: unknown }).errcode;
    if (typeof code === 'number' && SQLITE_DISK_CODES.has(code & 0xff)) return true;
    const fsCode = systemErrorCode(at);
    if (fsCode !== undefined && FS_DISK_CODES.has(fsCode)) return true;
    at = at.cause;
  }
  return false;
}

/**
 * An open that failed because the disk refused (full, read-only, failing), as a sentence that
 * says so, or null for any other failure. Without it a full disk read as "not a history, or
 * damaged: move it aside to start a new history", advice that would leave the user without
 * the caps, prices, templates and triage the file holds.
 */
function refusedByDisk(error: unknown, file: string): HistoryError | null {
  if (file === MEMORY || !saysDiskRefused(error)) return null;
  return new HistoryError(sentence('error.library.historyDiskRefused', { file }), {
    detail: messageOf(error),
    cause: error,
  });
}

/**
 * The history says what the user generated, and other local users may exist: the file is made
 * owner-only before SQLite opens it (SQLite would create it 0644, and gives its -wal and -shm
 * files the database file's mode). An existing file readable by others is tightened.
 */
function createPrivately(file: string): void {
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first generation (node-sqlite3-wasm) kept a pid file `<file>.owner` and its VFS a lock
 * directory `<file>.lock`; nothing reads them now, and a stale one would only puzzle the user.
 */
function removeFirstGenerationLocks(file: string): void {
  rmSync(`${file}.owner`, { force: true });
  try {
    rmdirSync(`${file}.lock`);
  } catch {
    // Absent (the usual case), or not an empty directory: not ours to remove.
  }
}

function newDatabase(file: string, factory: DatabaseFactory): DatabaseSync {
  try {
    if (file !== MEMORY) createPrivately(file);
    // The busy timeout is set before the first read: another process may be writing right now.
    // Integers are read as BigInt: node:sqlite throws on a plain read of one past 2^53, so a
    // single crafted row (a date of 1e16) would fail every page it is on. Callers convert with
    // Number(), and the record schema refuses what is out of range, row by row.
    return factory(file, { timeout: BUSY_TIMEOUT_MS, readBigInts: true });
  } catch (error) {
    throw new HistoryError(sentence('error.library.historyOpenFailed', { file }), {
      detail: messageOf(error),
      cause: error,
    });
  }
}

function readVersion(db: DatabaseSync, file: string): number {
  try {
    return readSchemaVersion(db);
  } catch (error) {
    const detail = messageOf(error);
    const message = /locked|busy/i.test(detail)
      ? sentence('error.library.historyLocked', { file })
      : sentence('error.library.historyNotDatabase', { file });
    throw new HistoryError(message, { detail, cause: error });
  }
}

/**
 * Runs the full check when asked, or when an earlier check was interrupted or failed: the
 * marker file outlives a refused open, so a damaged file is refused again at the next start.
 */
function checkIfAsked(db: DatabaseSync, file: string, wanted: boolean): void {
  const marker = `${file}.check`;
  if (!wanted && !existsSync(marker)) return;
  writeFileSync(marker, '', { mode: 0o600 });
  quickCheck(db, file);
  rmSync(marker, { force: true });
}

/** The whole file, FTS index included: about 1 s at 100,000 records, so not at every open. */
function quickCheck(db: DatabaseSync, file: string): void {
  let problems: string[];
  try {
    problems = db
      .prepare('PRAGMA quick_check')
      .all()
      .map((row) => String(row['quick_check']))
      .filter((line) => line !== 'ok');
  } catch (error) {
    problems = [messageOf(error)];
  }
  if (problems.length > 0) {
    throw new HistoryError(sentence('error.library.historyCheckFailed', { file }), {
      detail: problems.slice(0, 5).join('; '),
    });
  }
}

/**
 * A write-ahead log synced at every commit: durable against a killed process and power loss,
 * and readers in other processes never wait for a writer. A file from the first generation
 * (node-sqlite3-wasm) is already a WAL database; one in another mode is switched here (that
 * needs a moment alone with the file, which the busy timeout waits for).
 *
 * Deleted content zeroed where that costs no extra write (secure_delete FAST): a row rewritten or
 * removed leaves no copy of what it said in its page's free space, which a task id kept with a key
 * in it (cli/track-command.ts redacts one), a removed task's prompt would otherwise be.
 *
 * Foreign keys off (SQLite's default; node:sqlite turns them on): a task's removal deletes its
 * image rows itself, each by its key, in the same transaction (history-records.ts), and with
 * them on, `images`' ON DELETE CASCADE (history-schema.ts, v1) still ran a DELETE of the task's
 * images for every removal, which collects its keys in an ephemeral table (its own page cache)
 * even when there is none left. Image rows are written only after their task's row, whose id
 * they carry (image-rows.ts), so the check on their insert had nothing to catch.
 */
function configure(
  db: DatabaseSync,
  logger: Logger,
  file: string,
  checkpointPast: number | undefined,
): void {
  const mode = String(
    whileBusy(() => db.prepare('PRAGMA journal_mode = WAL').get())?.['journal_mode'],
  );
  if (file !== MEMORY && mode !== 'wal') {
    logger.warn('The history database could not use a write-ahead log.', { file, mode });
  }
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = OFF');
  db.exec('PRAGMA secure_delete = FAST');
  if (checkpointPast !== undefined) {
    db.exec(`PRAGMA wal_autocheckpoint = ${String(Math.max(1, Math.trunc(checkpointPast)))}`);
  }
  db.function(CONTAINS_FOLDED, { deterministic: true }, containsFolded);
}

/** SQLite's BUSY (an extended code's low byte): another connection holds a lock. */
const SQLITE_BUSY = 5;

/**
 * `work` run again while SQLite answers BUSY, for as long as its busy handler would wait. The
 * journal-mode pragma at open can be answered BUSY at once, without the busy handler, while
 * another process holds a lock it cannot wait on (a lease-takeover worker started beside one
 * killed with SIGKILL ended "database is locked" at open, 1 run in many).
 */
function whileBusy<T>(work: () => T): T {
  const until = performance.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      return work();
    } catch (error) {
      const code = (error as { errcode?: unknown }).errcode;
      const busy = typeof code === 'number' && (code & 0xff) === SQLITE_BUSY;
      if (!busy || performance.now() + wait > until) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}

/**
 * `contains_folded(text, word)`: 1 when `word` is in `text`, ignoring case in every script. The
 * search's words too short for the trigram index are checked with it: SQLite's LIKE ignores
 * case in ASCII only, so "ü" would not find "Über" while "über" (indexed) would.
 */
export const CONTAINS_FOLDED = 'contains_folded';

function containsFolded(text: unknown, word: unknown): number {
  if (typeof text !== 'string' || typeof word !== 'string') return 0;
  return text.toLowerCase().includes(word.toLowerCase()) ? 1 : 0;
}
