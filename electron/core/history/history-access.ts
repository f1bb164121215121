/**
 * Guarded access to the open history database, shared by its records, queries and leases: every
 * read and write first checks the store is open, and SQLite's errors leave as sentences.
 */
import type { Logger } from '../../ports/logger';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { messageOf, UserFacingError } from '../errors';
import type { ChangeFeed } from './change-feed';
import type { ReadRows } from './gallery-order';
import { HistoryError } from './history-error';
import type { Row, SqliteConnection, SqlValue } from './sqlite-connection';

const DAMAGED = sentence('error.library.historyDamaged');

export class HistoryAccess {
  constructor(
    readonly connection: SqliteConnection,
    readonly logger: Logger,
    private readonly feed: ChangeFeed,
    /** Puts the rows' triage into records read (triage-compose.ts; before v16, as they are). */
    readonly withTriage: (records: TaskRecord[]) => TaskRecord[] = (records) => records,
  ) {}

  read<T>(work: () => T): T {
    return this.guard(work, sentence('error.library.historyReadFailed'));
  }

  write<T>(work: () => T): T {
    return this.guard(work, sentence('error.library.historyWriteFailed'));
  }

  /** A write of task rows: one transaction, its change-log entries known as this process's. */
  writeTransaction<T>(work: () => T): T {
    return this.write(() => this.connection.transaction(() => this.feed.own(work)));
  }

  /** Reads rows through {@link read} (its error handling), for the query modules. */
  readonly rows: ReadRows = (sql, params) => this.read(() => this.connection.all(sql, params));

  /** Reads one row through {@link read}. */
  readonly row = (sql: string, params: SqlValue[]): Row | null =>
    this.read(() => this.connection.get(sql, params));

  private guard<T>(work: () => T, message: Sentence): T {
    if (!this.connection.isOpen) throw new HistoryError(sentence('error.library.historyClosed'));
    try {
      return work();
    } catch (error) {
      // The history's own errors, and a refusal made inside a transaction (a spending cap).
      if (error instanceof UserFacingError) throw error;
      const detail = messageOf(error);
      // SQLITE_CORRUPT / SQLITE_NOTADB: retrying will not help; say what will.
      const damaged = /malformed|not a database/i.test(detail);
      throw new HistoryError(damaged ? DAMAGED : message, { detail, cause: error });
    }
  }
}
