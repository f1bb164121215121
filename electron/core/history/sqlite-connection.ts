/**
 * Opens the history database file safely (lock, recovery, integrity, migrations) and keeps the
 * prepared statements of the hot paths, which node-sqlite3-wasm frees only when finalized.
 */
import { existsSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import sqlite from 'node-sqlite3-wasm';
import type { BindValues, Database, QueryResult, RunResult, Statement } from 'node-sqlite3-wasm';
import type { Logger } from '../../ports/logger';
import { HistoryError, reasonOf } from './history-error';
import { checkNotNewer, migrate, readSchemaVersion, type Migration } from './history-schema';
import { acquireLockFile, type HeldLock } from './lock-file';

const MEMORY = ':memory:';
const MAX_STATEMENTS = 64;

/** A database connection with a statement cache. Not shared between processes. */
export class SqliteConnection {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly lock: HeldLock | null,
  ) {}

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  /**
   * A prepared statement for `sql`, prepared once and reused. Filters give list queries many
   * shapes, so the least recently used statement is finalized past {@link MAX_STATEMENTS}.
   * Use the result at once: a later call may finalize it.
   */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      const oldest =
        this.statements.size >= MAX_STATEMENTS ? this.statements.entries().next().value : undefined;
      if (oldest !== undefined) {
        this.statements.delete(oldest[0]);
        finalizeQuietly(oldest[1]);
      }
    } else {
      this.statements.delete(sql);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  all(sql: string, params: BindValues): QueryResult[] {
    return this.withStatement(sql, (statement) => statement.all(params));
  }

  run(sql: string, params?: BindValues): RunResult {
    return this.withStatement(sql, (statement) => statement.run(params));
  }

  /**
   * Runs the cached statement for `sql`. One that failed (a full disk) is finalized and dropped:
   * node-sqlite3-wasm would report its error again when it is next bound ("Could not reset
   * statement"), failing the first write after space returns.
   */
  private withStatement<T>(sql: string, work: (statement: Statement) => T): T {
    const statement = this.statement(sql);
    try {
      return work(statement);
    } catch (error) {
      this.statements.delete(sql);
      finalizeQuietly(statement);
      throw error;
    }
  }

  /** The first row. Runs the statement to completion: node-sqlite3-wasm resets a statement only
   * when it is next bound, so a `get()` that stops after one row would keep a read open. */
  get(sql: string, params: BindValues): QueryResult | null {
    return this.all(sql, params)[0] ?? null;
  }

  /** Runs `work` in one transaction: all of it is on disk when this returns, or none of it. */
  transaction<T>(work: () => T): T {
    this.run('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.run('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.run('ROLLBACK');
      throw error;
    }
  }

  /** Finalizes every statement, closes the database and releases the file, whatever fails. */
  close(): void {
    try {
      for (const statement of this.statements.values()) finalizeQuietly(statement);
      this.statements.clear();
      if (this.db.isOpen) this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}

/** sqlite3_finalize reports the statement's last error again; the statement is freed regardless. */
function finalizeQuietly(statement: Statement): void {
  try {
    statement.finalize();
  } catch {
    // Already reported when the statement ran.
  }
}

export interface OpenedDatabase {
  readonly connection: SqliteConnection;
  readonly schemaVersion: number;
}

/** When the whole file is checked at open. */
export type IntegrityCheck = 'after-crash' | 'always';

/**
 * Opens `file` (created when missing; `:memory:` allowed), recovers from an interrupted write,
 * checks it and brings its schema up to date. Throws {@link HistoryError} with a sentence, and
 * leaves a file that is not a database, is damaged or is from a newer Pictor unchanged.
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  logger: Logger,
  integrityCheck: IntegrityCheck = 'after-crash',
): OpenedDatabase {
  const { lock, crashed } =
    file === MEMORY ? { lock: null, crashed: false } : lockDatabaseFile(file, logger);
  let db: Database | undefined;
  try {
    db = newDatabase(file);
    // Before anything reads the file: a WAL database opens only in exclusive mode here.
    db.get('PRAGMA locking_mode = EXCLUSIVE');
    const version = readVersion(db, file);
    checkNotNewer(version, migrations, file);
    if (file !== MEMORY) checkAfterCrash(db, file, crashed || integrityCheck === 'always');
    configure(db, logger, file);
    const schemaVersion = migrate(db, version, migrations);
    return { connection: new SqliteConnection(db, lock), schemaVersion };
  } catch (error) {
    if (db?.isOpen) db.close();
    lock?.release();
    throw error;
  }
}

/**
 * Takes our pid lock on the file. `crashed` is true when the last process to use the file did
 * not close it: it left its pid lock, node-sqlite3-wasm's lock directory or a log behind.
 *
 * node-sqlite3-wasm locks a database by creating the directory `<file>.lock` and leaves it
 * behind when the process is killed; SQLite would then neither write nor roll back the
 * interrupted transaction. Holding our pid lock proves no live process uses the file, so a
 * leftover directory is stale and removed.
 */
function lockDatabaseFile(file: string, logger: Logger): { lock: HeldLock; crashed: boolean } {
  const lock = acquireLockFile(
    `${file}.owner`,
    (pid) =>
      `Another Pictor process (pid ${pid}) is using the history database ${file}. Close it, then try again.`,
  );
  let removedVfsLock = false;
  try {
    rmdirSync(`${file}.lock`);
    removedVfsLock = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      lock.release();
      throw new HistoryError(
        `Pictor could not unlock its history database ${file}. Check the folder's permissions.`,
        {
          detail: reasonOf(error),
          cause: error,
        },
      );
    }
  }
  const crashed = lock.tookOverStale || removedVfsLock || hasJournal(file);
  if (crashed) logger.warn('The history database was not closed last time; checking it.', { file });
  return { lock, crashed };
}

/** A write-ahead log (removed by a clean close) or a rollback journal with content. */
function hasJournal(file: string): boolean {
  return [`${file}-wal`, `${file}-journal`].some((path) => {
    try {
      return statSync(path).size > 0;
    } catch {
      return false;
    }
  });
}

function newDatabase(file: string): Database {
  try {
    return new sqlite.Database(file);
  } catch (error) {
    throw new HistoryError(
      `Pictor could not open its history database ${file}. Check that the folder exists and is writable.`,
      { detail: reasonOf(error), cause: error },
    );
  }
}

function readVersion(db: Database, file: string): number {
  try {
    return readSchemaVersion(db);
  } catch (error) {
    const detail = reasonOf(error);
    const message = /locked|busy/i.test(detail)
      ? `The history database ${file} is locked by another program. Close it, then try again.`
      : `The file ${file} is not a Pictor history database, or it is damaged. Pictor left it unchanged; move it aside to start a new history.`;
    throw new HistoryError(message, { detail, cause: error });
  }
}

/**
 * Runs the full check when asked, or when an earlier check was interrupted or failed: the
 * marker file outlives a refused open, so a damaged file is refused again at the next start
 * (the crash evidence, the stale locks, is gone by then).
 */
function checkAfterCrash(db: Database, file: string, wanted: boolean): void {
  const marker = `${file}.check`;
  if (!wanted && !existsSync(marker)) return;
  writeFileSync(marker, '');
  quickCheck(db, file);
  rmSync(marker, { force: true });
}

/** The whole file, FTS index included: about 1 s at 100,000 records, so not at every open. */
function quickCheck(db: Database, file: string): void {
  let problems: string[];
  try {
    problems = db
      .all('PRAGMA quick_check')
      .map((row) => String(row['quick_check']))
      .filter((line) => line !== 'ok');
  } catch (error) {
    problems = [reasonOf(error)];
  }
  if (problems.length > 0) {
    throw new HistoryError(
      `The history database ${file} is damaged. Pictor left it unchanged; restore a backup or move it aside to start a new history.`,
      { detail: problems.slice(0, 5).join('; ') },
    );
  }
}

/**
 * Durable against a killed process and power loss: a write-ahead log synced at every commit.
 * Not a rollback journal: node-sqlite3-wasm's VFS reports its own lock directory as another
 * process's RESERVED lock, so SQLite never sees a journal left by a killed process as hot and
 * never rolls it back (a kill mid-commit left pages of a half-written transaction in the file).
 * A WAL needs no such check: at open, frames without a commit are ignored. In exclusive locking
 * mode (one process per file, set before the first read) SQLite keeps the WAL index in memory,
 * so the VFS's missing shared memory does not matter.
 */
function configure(db: Database, logger: Logger, file: string): void {
  const mode = String(db.get('PRAGMA journal_mode = WAL')?.['journal_mode']);
  if (file !== MEMORY && mode !== 'wal') {
    logger.warn('The history database could not use a write-ahead log.', { file, mode });
  }
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
}
